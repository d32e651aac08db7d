/**
 * A recrawl round meets a page that now answers a decompression bomb: the page is archived, its
 * links are not read, and the round, the crawl and the worker go on. Its crawl-log entry has the
 * outcome `decompression-bomb`, counted among the failures, as a first visit's or a revisit's. Real parts: a migrated SQLite
 * database, the engine on a shortened minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('a page that answers a decompression bomb in a recrawl round does not end the round or the worker', { timeout: 60_000 }, async () => {
  let visited = false;
  const requested: string[] = [];
  // 4 MiB of spaces in a few KiB: over the ICD's 1 MiB cap once decoded.
  const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024, 0x20));
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/bomb">bomb</a> <a href="/after">after</a>');
    if (path === '/bomb') return visited ? void res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' }).end(bomb) : html('<p>soon a bomb</p>');
    if (path === '/after') return html(`<p>${Date.now()}</p>`);
    res.writeHead(404).end();
  };
  const rejections: unknown[] = [];
  const onRejection = (reason: unknown) => rejections.push(reason);
  process.on('unhandledRejection', onRejection);
  try {
    await withSiteCrawl('tm-recrawl-bomb-', site, { name: 'Recrawl bomb', limits: { maxDecodedBytes: 1024 * 1024 }, coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
      const run = engine.run();
      const captures = (url: string) => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, url) as number;
      for (const end = Date.now() + 20_000; !(captures(`${origin}/bomb`) && captures(`${origin}/after`)) && Date.now() < end; ) await sleep(20);
      visited = true;
      const rounds = () => engine.incremental?.rounds.length ?? 0;
      for (const end = Date.now() + 20_000; rounds() < 2 && rejections.length === 0 && Date.now() < end; ) await sleep(20);
      await engine.stop();
      assert.equal(await run, 'stopped');
      assert.deepEqual(rejections.map(String), [], 'no promise of the round was left rejected');
      assert.ok(rounds() >= 2, `two rounds finished: ${rounds()}`);
      assert.ok(captures(`${origin}/bomb`) >= 2 && captures(`${origin}/after`) >= 2, 'both pages refetched and archived');
      const log = db.prepare('SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').pluck().all(crawlId, `${origin}/bomb`) as string[];
      assert.ok(log.includes('recrawl round 1; links not read: the body decodes to more than 1048576 bytes'), `the crawl log says why: ${log.join(' / ')}`);
      // Logged as a first visit's bomb is (outcome decompression-bomb), counted among the failures, live and restored.
      // (Round 1 finds the page changed and reads it; later rounds find the same bytes, unchanged, read nothing, and keep that outcome.)
      const round1 = db.prepare("SELECT outcome FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND message LIKE 'recrawl round 1;%'").pluck().all(crawlId, `${origin}/bomb`) as string[];
      assert.deepEqual(round1, ['decompression-bomb'], "round 1's refetch");
      const refetches = db.prepare("SELECT outcome FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND message LIKE 'recrawl round %'").pluck().all(crawlId, `${origin}/bomb`) as string[];
      assert.deepEqual(refetches, refetches.map(() => 'decompression-bomb'), 'every refetch of the bomb');
      const stats = engine.stats();
      assert.equal(stats.failedByReason['decompression-bomb'], refetches.length, 'counted among the failures');
      const resumed = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
      const again = resumed.run();
      await resumed.stop();
      await again;
      assert.deepEqual([resumed.stats().failed, resumed.stats().failedByReason], [stats.failed, stats.failedByReason], 'the counters restored on resume');
    });
  } finally {
    process.off('unhandledRejection', onRejection);
  }
});
