/**
 * A recrawl round on a full disk: the crawl pauses with the reason, as a page's commit does, and
 * the round's pages wait for the resume. The database's own limit (`max_page_count`) makes SQLite
 * answer SQLITE_FULL, as a full disk does. Real parts: a migrated SQLite database, the engine on a
 * shortened minute, a loopback site whose pages change on every request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('a recrawl round that meets a full disk pauses the crawl with the reason; resumed, the round refetches every page', { timeout: 60_000 }, async () => {
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(Array.from({ length: 8 }, (_, i) => `<a href="/p${i}">${i}</a>`).join(' '));
    if (/^\/p\d$/.test(path)) return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${randomBytes(15_000).toString('base64')}</p>`);
    res.writeHead(404).end();
  };
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await withSiteCrawl('tm-recrawl-full-', site, { name: 'Recrawl, disk full', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
      const run = engine.run();
      const captures = () => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url LIKE ?').pluck().get(crawlId, `${origin}/p%`) as number;
      for (const end = Date.now() + 20_000; captures() < 8 && Date.now() < end; ) await sleep(20);
      // The visit is stored; the rounds' captures find room for a page or two.
      db.pragma(`max_page_count = ${(db.pragma('page_count', { simple: true }) as number) + 6}`);
      const outcome = await Promise.race([run, sleep(20_000).then(() => 'still running')]);
      if (outcome === 'still running') await engine.stop();
      assert.deepEqual(rejections.map(String), [], 'no promise of the round was left rejected');
      assert.equal(outcome, 'paused');
      assert.match(engine.pausedBecause ?? '', /^Paused: the disk is full/);
      // The round's failure, when the full database still took its small row: tried again on resume, not at a time.
      const failure = db.prepare('SELECT message, retry_at FROM engine_recrawl_failure WHERE crawl_id = ?').get(crawlId);
      if (failure) assert.deepEqual(failure, { message: 'database or disk is full', retry_at: null });

      // Resumed with room: the round runs again and every page is refetched.
      db.pragma('max_page_count = 1073741823');
      const resumed = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
      const again = resumed.run();
      for (const end = Date.now() + 20_000; (resumed.incremental?.rounds.length ?? 0) < 1 && Date.now() < end; ) await sleep(20);
      await resumed.stop();
      assert.equal(await again, 'stopped');
      const perPage = db.prepare('SELECT url, COUNT(*) AS n FROM Capture WHERE crawlId = ? AND url LIKE ? GROUP BY url').all(crawlId, `${origin}/p%`) as { url: string; n: number }[];
      assert.equal(perPage.length, 8);
      for (const { url, n } of perPage) assert.ok(n >= 2, `${url} refetched after the resume`);
    });
  } finally {
    process.off('unhandledRejection', onRejection);
  }
});
