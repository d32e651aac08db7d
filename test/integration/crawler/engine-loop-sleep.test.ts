/**
 * The engine's loop sleeps while every fetch slot is taken, even when hosts are ready: only a page
 * finishing (or a pause) gives it something to do. Real parts: a migrated SQLite database, the
 * engine, two loopback sites on two addresses (two politeness keys) answering slowly.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { SqliteFrontier } from '../../../worker/frontier';
import { withCrawl } from '../../support/site-crawl';

/** Pages / → /1 → … → /4, each answered after 300 ms; no robots.txt. */
async function slowSite(address: string) {
  let requests = 0;
  const server = createServer((req, res) => {
    requests++;
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    setTimeout(() => {
      if (path === '/robots.txt') return void res.writeHead(404).end();
      const i = path === '/' ? 0 : Number(path.slice(1));
      res.writeHead(200, { 'content-type': 'text/html' }).end(i < 4 ? `<a href="/${i + 1}">next</a>` : '<p>end</p>');
    }, 300);
  });
  await new Promise<void>((r) => server.listen(0, address, () => r()));
  return {
    origin: `http://${address}:${(server.address() as AddressInfo).port}`,
    get requests() { return requests; },
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

test('with its one slot taken and the other host ready, the loop waits for the page instead of spinning', { timeout: 60_000 }, async (t) => {
  const sites = [await slowSite('127.0.0.1'), await slowSite('127.0.0.2')];
  // The loop reads the crawl's counts once per pass.
  const passes = t.mock.method(SqliteFrontier.prototype, 'stateCounts');
  try {
    const fields = {
      name: 'Two slow hosts', seeds: sites.map((s) => `${s.origin}/`), aah: { enabled: false },
      politeness: { minDelayMs: 50, maxDelayMs: 50, delayFactor: 0, concurrency: 1 },
    };
    await withCrawl('tm-engine-loop-', fields, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
      assert.equal(await engine.run(), 'finished');
    });
    const requests = sites[0]!.requests + sites[1]!.requests;
    assert.equal(requests, 12, 'robots.txt and 5 pages of each host');
    // A few passes per request (a page finished, a delay over); spinning made hundreds each.
    assert.ok(passes.mock.callCount() < 10 * requests, `${passes.mock.callCount()} passes of the loop for ${requests} requests`);
  } finally {
    await Promise.all(sites.map((s) => s.close()));
  }
});
