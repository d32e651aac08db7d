/**
 * Recrawl rounds and a host that goes down: refetches that get no answer at all (connection
 * refused) put the host into back-off, its pages left out of 1, then 3 rounds (the wait doubling,
 * up to a cap), one crawl-log entry a host at each round that tried it; the first answer ends the
 * back-off. It was refetched at every round, each page logging a failure each time, for ever.
 * Real parts: a migrated SQLite database, the engine on a shortened minute, a loopback server closed
 * after the first crawl and opened again on its port later.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withCrawl } from '../../support/site-crawl';
import { hostGoingDown } from '../../support/host-going-down';

test('recrawls: a host that refuses every refetch is left out of 1, then 3 rounds, logged once a try; its first answer ends the back-off', { timeout: 90_000 }, async () => {
  const site = await hostGoingDown();
  const { origin, close } = site;
  const port = Number(new URL(origin).port);
  try {
    await withCrawl('tm-recrawl-backoff-', { seeds: [`${origin}/`], name: 'Recrawl host back-off', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } }, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 200 });
      const run = engine.run();
      const rounds = () => engine.incremental?.rounds ?? [];
      const until = async (done: () => boolean, what: string) => {
        for (const end = Date.now() + 40_000; !done(); await sleep(10)) assert.ok(Date.now() < end, `timed out waiting for ${what}`);
      };
      // The first crawl captured both pages; the host then goes down.
      await until(() => (db.prepare("SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND status = 200 AND url != ?").pluck().get(crawlId, `${origin}/robots.txt`) as number) === 2, 'the first crawl');
      await close();
      // Down through rounds 1–5; back before round 7, the next try.
      await until(() => rounds().length >= 5, 'round 5');
      await site.listen();
      await until(() => rounds().length >= 8, 'round 8');
      await engine.stop();
      assert.equal(await run, 'stopped');

      // Refetches were made in rounds 1 and 3 (refused), and 7 (answered): 2 and 4–6 left the host alone.
      const refused = db.prepare("SELECT url, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'connect-refused' ORDER BY id").all(crawlId) as { url: string; message: string }[];
      assert.deepEqual(refused.map((r) => `${r.url.slice(origin.length)} ${r.message.split(';')[0]}`), ['/ recrawl round 1', '/a recrawl round 1', '/ recrawl round 3', '/a recrawl round 3']);
      // When each is asked for again, as known when it failed: its host had answered none of the round's refetches yet (it said "in the next round").
      const round1 = "retried in the next round, or in round 3 if its host answers none of this round's refetches";
      const round3 = "retried in the next round, or in round 7 if its host answers none of this round's refetches";
      assert.deepEqual(refused.map((r) => /retried in [^:]*/.exec(r.message)?.[0]), [round1, round1, round3, round3]);
      // [round, due, left out by the back-off, fetched]: the old report counted the pages left out as due, and no count said why none was fetched.
      const fetchedByRound = rounds().slice(0, 8).map((r) => [r.round, r.due, r.backedOff, r.fetched]);
      assert.deepEqual(fetchedByRound, [[1, 2, 0, 0], [2, 0, 2, 0], [3, 2, 0, 0], [4, 0, 2, 0], [5, 0, 2, 0], [6, 0, 2, 0], [7, 2, 0, 2], [8, 0, 0, 0]], 'due all along, left out in 2 and 4–6; observed in round 7, then not due in 8 (unchanged: fr 4 → 2)');
      assert.equal(engine.stats().failedByReason['connect-refused'], 4, 'the pages\' failures, not the back-off entries');

      const backoff = db.prepare("SELECT url, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'recrawl-host-backoff' ORDER BY id").all(crawlId) as { url: string; message: string }[];
      const host = `127.0.0.1:${port}`;
      assert.deepEqual(backoff, [
        { url: `${origin}/`, message: `recrawl round 1: no answer from ${host} to any of its 2 refetches (connect-refused); its pages are left out of the rounds until round 3 (the wait doubles at each round without an answer, up to 16 rounds, and ends at its first answer)` },
        { url: `${origin}/`, message: `recrawl round 3: no answer from ${host} to any of its 2 refetches (connect-refused), 2 rounds in a row; its pages are left out of the rounds until round 7 (the wait doubles at each round without an answer, up to 16 rounds, and ends at its first answer)` },
        { url: `${origin}/`, message: `recrawl round 7: ${host} answered again after 2 rounds without an answer; its pages are recrawled at their own frequency again` },
      ]);
      assert.equal(db.prepare('SELECT COUNT(*) FROM engine_recrawl_host WHERE crawl_id = ?').pluck().get(crawlId), 0, 'the back-off ended');
    });
  } finally {
    if (site.listening()) await close();
  }
});
