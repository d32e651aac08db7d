/**
 * A page whose WARC records could not be made (its compression thread stopped with them, as a
 * crash of the thread would) fails as `internal`, and the links it planned are not queued: the
 * schedule stage plans them before the warc stage, and a page that is not archived is no source of
 * URLs. Real parts: a migrated SQLite database, the engine, its compression threads, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

/** What the test reaches inside the engine: the compression threads and the records in their hands. */
interface ThreadsInside {
  ctx: { writer: { pool: { threads: { worker: { terminate(): Promise<number> }; inHand: Map<number, { items: { head: string }[] }> }[] } | null } } | null;
}

// Under the fetcher's 1 MB in-memory limit, random so that its gzip takes a while.
const BIG_PAGE = `<html><body><a href="/from-big">found only on /big</a><p>${randomBytes(600_000).toString('base64')}</p></body></html>`;

test("a page whose records could not be made fails as internal and queues none of its links; the crawl goes on", { timeout: 60_000 }, async () => {
  const site: RequestListener = (req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/big">big</a> <a href="/later">later</a>');
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/html' }).end(BIG_PAGE);
    // Answered after /big's thread is stopped, so that its records go to the thread started in its place.
    if (req.url === '/later') return void setTimeout(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>later</p>'), 500);
    if (req.url === '/from-big') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>from big</p>');
    res.writeHead(404).end();
  };
  await withSiteCrawl('tm-records-lost-', site, { name: 'Records lost', politeness: { enabled: false, respectRobots: false } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    const run = engine.run();
    const inside = engine as unknown as ThreadsInside;
    // Stops the thread that holds /big's records, as soon as one does.
    let stopped = false;
    for (const end = Date.now() + 20_000; !stopped && Date.now() < end; ) {
      for (const thread of inside.ctx?.writer.pool?.threads ?? []) {
        const holdsBig = [...thread.inHand.values()].some((job) => job.items.some((i) => i.head.includes(`WARC-Target-URI: ${origin}/big\r\n`)));
        if (holdsBig) {
          await thread.worker.terminate();
          stopped = true;
        }
      }
      await new Promise((r) => setImmediate(r));
    }
    assert.ok(stopped, "/big's records were in a thread's hands");
    assert.equal(await run, 'finished');
    const log = db.prepare('SELECT url, outcome, message FROM CrawlLogEntry WHERE crawlId = ? ORDER BY id').all(crawlId) as { url: string; outcome: string; message: string | null }[];
    const big = log.find((l) => l.url === `${origin}/big`);
    assert.equal(big?.outcome, 'internal', JSON.stringify(log));
    assert.match(big!.message ?? '', /WARC records could not be made/);
    const captured = db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId);
    assert.deepEqual(captured, [`${origin}/`, `${origin}/later`], 'the pages around it are captured');
    const known = db.prepare('SELECT url FROM frontier_url WHERE crawl_id = ?').pluck().all(crawlId);
    assert.ok(!known.includes(`${origin}/from-big`), `/big's link was not queued: ${known.join(' ')}`);
  });
});
