/**
 * The crawl page's "ended by its limit" line: a crawl started from the list of definitions whose
 * size limit (scope.maxBytes) is reached long before the site is done finishes with URLs queued,
 * and its page says so, with the limit and the URLs left, as the crawl's stats have them. Real
 * parts: the cockpit (server, worker, SQLite), Chromium, a loopback site of endless pages.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { withSite } from '../support/site-crawl';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/** Page n links to pages n+1 and n+2, without end: only a limit ends the crawl. */
const chain: RequestListener = (req, res) => {
  const n = req.url === '/' ? 0 : Number(/^\/p(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
  if (!Number.isInteger(n)) return void res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>p${n}</title><p>Tide table ${n}.</p><a href="/p${n + 1}">next</a> <a href="/p${n + 2}">after</a>`);
};

test('a crawl ended by its size limit: the crawl page says so, with the limit and the URLs still queued', { timeout: 180_000 }, () => withSite(chain, async (origin) => {
  const { api, cockpit } = rig;
  await api.json('POST', '/api/icds', {
    name: 'Size-limited harbour', seeds: [`${origin}/`],
    scope: { maxBytes: 600, maxDepth: 1000 },
    politeness: { minDelayMs: 0, maxDelayMs: 20, delayFactor: 0, respectRobots: false },
    aah: { enabled: false },
  });
  const page = await (await signedInContext(rig)).newPage();
  await page.goto(`${cockpit.url}/icds`);
  await page.getByRole('button', { name: 'Start a crawl of Size-limited harbour' }).click();
  await page.waitForURL(/\/crawls\/\d+$/);
  const crawlId = Number(/\/crawls\/(\d+)$/.exec(page.url())![1]);

  const line = page.getByTestId('ended-by');
  await line.waitFor({ timeout: 120_000 });
  const crawl = await api.json<{ status: string; stats: { endedBy?: string; queued: number; bytes: number } }>('GET', `/api/crawls/${crawlId}`);
  assert.equal(crawl.status, 'finished');
  assert.equal(crawl.stats.endedBy, 'size-limit');
  assert.ok(crawl.stats.bytes >= 600, `the captures reached the limit: ${crawl.stats.bytes} bytes`);
  assert.ok(crawl.stats.queued > 0, 'URLs were left queued');
  const queued = crawl.stats.queued;
  assert.equal(
    await line.innerText(),
    `Finished when its captures reached its size limit of 600 B, with ${queued.toLocaleString('en-US')} URL${queued === 1 ? '' : 's'} still queued.`,
  );
}));
