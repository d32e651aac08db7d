/**
 * A revisit or a recrawl refetch whose body was cut short is logged with the outcome a first visit's
 * is: `truncated-length` for a body over the ICD's size cap (archived, not a failure), the total
 * timeout's failure for one cut by time. The size-cut ones were logged `ok`. The counters agree with
 * the crawl log, live and restored on resume. Real parts: a migrated SQLite database, the engine (on
 * a shortened minute for recrawl rounds), a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

/** /big: 4 KiB, over the 1 KiB cap; /slow: a first chunk, then nothing until the 600 ms total timeout cuts it. */
function cutShortSite() {
  return countedSite((path, n, _req, res: ServerResponse) => {
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/big">big</a> <a href="/slow">slow</a>');
    if (path === '/big') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>fetch ${n}</p>`.padEnd(4096, ' '));
    if (path === '/slow') {
      res.writeHead(200, { 'content-type': 'text/html', 'content-length': '100000' });
      res.write(`<p>fetch ${n}</p>`);
      const timer = setTimeout(() => res.end(), 5_000);
      res.on('close', () => clearTimeout(timer));
      return;
    }
    res.writeHead(404).end();
  });
}

const LIMITS = { maxBodyBytes: 1024, totalTimeoutMs: 600, maxRetries: 0 };

/** The crawl-log outcomes of a URL, in order: the visit's first. */
function outcomes(db: Database.Database, crawlId: number, url: string): { outcome: string; message: string | null }[] {
  return db.prepare('SELECT outcome, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, url) as { outcome: string; message: string | null }[];
}

test('a revisit cut short by the size cap or the total timeout is logged as its visit was, not ok', { timeout: 60_000 }, async () => {
  const { listener } = cutShortSite();
  const fields = { name: 'Revisit truncated', coherence: { mode: 'visit-revisit' }, limits: LIMITS };
  await withSiteCrawl('tm-revisit-truncated-', listener, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    const first = engine();
    assert.equal(await first.run(), 'finished');
    const big = outcomes(db, crawlId, `${origin}/big`);
    assert.equal(big.length, 2, `a visit and a revisit of /big: ${JSON.stringify(big)}`);
    assert.equal(big[0]!.outcome, 'truncated-length', 'the visit');
    assert.deepEqual(big[1], { outcome: 'truncated-length', message: 'coherence revisit' }, 'the revisit');
    const slow = outcomes(db, crawlId, `${origin}/slow`);
    assert.equal(slow.length, 2, `a visit and a revisit of /slow: ${JSON.stringify(slow)}`);
    assert.equal(slow[1]!.outcome, slow[0]!.outcome, `the revisit logged as the visit: ${JSON.stringify(slow)}`);
    assert.notEqual(slow[1]!.outcome, 'ok');
    const stats = first.stats();
    assert.equal(stats.failedByReason['truncated-length'], undefined, 'a body over the cap is no failure');
    // Resumed, the counters are read again from the crawl log: the same figures.
    const resumed = engine();
    assert.equal(await resumed.run(), 'finished');
    assert.deepEqual([resumed.stats().failed, resumed.stats().failedByReason], [stats.failed, stats.failedByReason]);
  });
});

test('a recrawl refetch cut short by the size cap or the total timeout is logged as its visit was, not ok', { timeout: 60_000 }, async () => {
  const { listener } = cutShortSite();
  const fields = { name: 'Recrawl truncated', coherence: { recrawlIntervalMinutes: 1 }, limits: LIMITS };
  await withSiteCrawl('tm-recrawl-truncated-', listener, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const first = engine();
    const run = first.run();
    for (const end = Date.now() + 20_000; (first.incremental?.rounds.length ?? 0) < 1 && Date.now() < end; ) await sleep(20);
    await first.stop();
    assert.equal(await run, 'stopped');
    assert.ok((first.incremental?.rounds.length ?? 0) >= 1, 'round 1 finished');
    const round1 = (url: string) => outcomes(db, crawlId, url).filter((e) => e.message?.startsWith('recrawl round 1'));
    const big = outcomes(db, crawlId, `${origin}/big`);
    assert.equal(big[0]!.outcome, 'truncated-length', 'the visit');
    assert.deepEqual(round1(`${origin}/big`).map((e) => e.outcome), ['truncated-length'], `round 1's refetch: ${JSON.stringify(big)}`);
    const slow = outcomes(db, crawlId, `${origin}/slow`);
    assert.deepEqual(round1(`${origin}/slow`).map((e) => e.outcome), [slow[0]!.outcome], `round 1's refetch logged as the visit: ${JSON.stringify(slow)}`);
    const stats = first.stats();
    assert.equal(stats.failedByReason['truncated-length'], undefined, 'a body over the cap is no failure');
    // Restored on resume from the crawl log (stopped at once, before any refetch): the same failure counters as the live ones.
    const resumed = engine();
    const again = resumed.run();
    await resumed.stop();
    await again;
    const restored = resumed.stats();
    assert.deepEqual([restored.failed, restored.failedByReason], [stats.failed, stats.failedByReason]);
  });
});
