/**
 * The crawl page while a host gives no answer: the crawl waits for it (its URLs held back until
 * the next try), and the page says so, as the CLI's progress line does; without the line a crawl
 * that only waits looked stalled. Real parts: the cockpit (server, worker, SQLite), Chromium, a
 * loopback site that answers its first page and then accepts connections and never answers.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener, ServerResponse } from 'node:http';
import { startBrowserRig, startCrawlFromList, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { withSite } from '../support/site-crawl';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

const held: ServerResponse[] = [];
/** `/` links to ten pages; none of them is ever answered. */
const goingSilent: RequestListener = (req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(404).end();
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(Array.from({ length: 10 }, (_, i) => `<a href="/p${i}">${i}</a>`).join(' '));
  held.push(res);
};

test('a crawl waiting for a host that gives no answer: its page says so, with the next try', { timeout: 180_000 }, () => withSite(goingSilent, async (origin) => {
  const { api } = rig;
  const { page, crawlId } = await startCrawlFromList(rig, {
    name: 'Silent harbour', seeds: [`${origin}/`],
    politeness: { minDelayMs: 0, maxDelayMs: 20, delayFactor: 0 },
    // A long back-off, so the crawl is seen waiting; never given up while the test looks.
    limits: { headersTimeoutMs: 300, maxRetries: 0, hostFailuresBeforeBackoff: 3, hostBackoffMs: 600_000, hostGiveUpMs: 0 },
    aah: { enabled: false },
  });
  try {
    const line = page.getByTestId('hosts-in-backoff');
    await line.waitFor({ timeout: 60_000 });
    const text = await line.innerText();
    assert.match(text, /^Waiting for 1 host that gives no answer: its URLs are held back; next try at .+\. The host-queues report and the crawl log's host-backoff entries say which, and when one is given up\.$/);
    assert.equal(await line.getAttribute('role'), 'status');
    const crawl = await api.json<{ status: string; stats: { hostsInBackoff?: number } }>('GET', `/api/crawls/${crawlId}`);
    assert.deepEqual([crawl.status, crawl.stats.hostsInBackoff], ['running', 1]);
  } finally {
    await api.json('POST', `/api/crawls/${crawlId}/control`, { action: 'stop' });
    for (const res of held.splice(0)) res.destroy();
  }
}));
