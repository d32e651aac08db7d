/**
 * The crawl page's "ended by its limit" line: a crawl started from the list of definitions whose
 * size limit (scope.maxBytes) or page limit (scope.maxPages) is reached long before the site is done finishes with URLs queued,
 * and its page says so, with the limit and the URLs left, as the crawl's stats have them. Real
 * parts: the cockpit (server, worker, SQLite), Chromium, a loopback site of endless pages.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { startBrowserRig, startCrawlFromList, stopBrowserRig, type BrowserRig } from './helpers/browser';
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

/**
 * Starts a crawl of `origin` from the definitions' list, with `scope`, waits for its page's
 * "ended by" line and returns that line's text and the crawl's stats as the API gives them.
 */
async function crawlToItsLimit(origin: string, name: string, scope: Record<string, number>) {
  const { api } = rig;
  const { page, crawlId } = await startCrawlFromList(rig, {
    name, seeds: [`${origin}/`],
    scope: { ...scope, maxDepth: 1000 },
    politeness: { minDelayMs: 0, maxDelayMs: 20, delayFactor: 0, respectRobots: false },
    aah: { enabled: false },
  });
  const line = page.getByTestId('ended-by');
  await line.waitFor({ timeout: 120_000 });
  const crawl = await api.json<{ status: string; stats: { endedBy?: string; queued: number; bytes: number } }>('GET', `/api/crawls/${crawlId}`);
  assert.equal(crawl.status, 'finished');
  assert.ok(crawl.stats.queued > 0, 'URLs were left queued');
  return { text: await line.innerText(), stats: crawl.stats, queuedText: `${crawl.stats.queued.toLocaleString('en-US')} URL${crawl.stats.queued === 1 ? '' : 's'} still queued.` };
}

test('a crawl ended by its size limit: the crawl page says so, with the limit and the URLs still queued', { timeout: 180_000 }, () => withSite(chain, async (origin) => {
  const { text, stats, queuedText } = await crawlToItsLimit(origin, 'Size-limited harbour', { maxBytes: 600 });
  assert.equal(stats.endedBy, 'size-limit');
  assert.ok(stats.bytes >= 600, `the captures reached the limit: ${stats.bytes} bytes`);
  assert.equal(text, `Finished when its captures reached its size limit of 600 B, with ${queuedText}`);
}));

test('a crawl ended by its page limit: the crawl page says so, with the limit and the URLs still queued', { timeout: 180_000 }, () => withSite(chain, async (origin) => {
  // It said nothing: a crawl cut by its page limit looked like one that had crawled its whole site.
  const { text, stats, queuedText } = await crawlToItsLimit(origin, 'Page-limited harbour', { maxPages: 3 });
  assert.equal(stats.endedBy, 'page-limit');
  assert.equal(text, `Finished when it had fetched its page limit of 3 pages, with ${queuedText}`);
}));
