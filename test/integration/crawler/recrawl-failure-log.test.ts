/**
 * A recrawl round that keeps failing does not flood the crawl log: failures in a row with the same
 * error are one entry, which counts them; an error that changes gets an entry of its own; the round
 * that finally finishes gets an entry saying after how many attempts; and none of these entries is
 * counted as a failed URL, live or by a restarted engine. Real parts: a migrated SQLite database,
 * the engine on a very short minute (a round is retried every 40 ms), a loopback site. The round
 * fails on a real SQLite error before any refetch: a trigger refuses the pages it stores first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { RecrawlState } from '../../../worker/crawler/recrawl-round';
import { ROUND_FAILED_OUTCOME, ROUND_OUTCOMES, ROUND_RECOVERED_OUTCOME, type RoundFailure } from '../../../worker/crawler/recrawl-history';
import { withSiteCrawl } from '../../support/site-crawl';
import { runUntil, until } from '../../support/engine-run';

const MINUTE_MS = 40;

const site: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>${body}`);
  if (path === '/') return html('<a href="/a">a</a> <a href="/b">b</a>');
  if (path === '/a' || path === '/b') return html(`<p>${path}</p>`);
  res.writeHead(404).end();
};

/** Makes every round fail, as it stores the pages it recrawls, with `message` (the refusal before, if any, gone). */
function refuseRounds(db: Database.Database, message: string | null): void {
  db.exec('DROP TRIGGER IF EXISTS refuse_round');
  if (message) db.exec(`CREATE TRIGGER refuse_round BEFORE INSERT ON engine_recrawl_page BEGIN SELECT RAISE(ABORT, '${message}'); END`);
}

interface Entry { id: number; url: string; outcome: string; message: string; retries: number; at: string }

test('a round failing again and again adds an entry per error, counting its failures, and one when it finishes', { timeout: 90_000 }, async () => {
  await withSiteCrawl('tm-recrawl-fail-log-', site, { name: 'Failing for a weekend', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    new RecrawlState(db, crawlId); // the engine's tables, so the trigger has its table
    refuseRounds(db, 'first refusal');
    const failure = () => db.prepare('SELECT round, failures, first_failed_at AS firstFailedAt, failed_at AS failedAt, message, url, retry_at AS retryAt FROM engine_recrawl_failure WHERE crawl_id = ?').get(crawlId) as RoundFailure | undefined;
    const entries = (outcome: string) => db.prepare('SELECT id, url, outcome, message, retries, at FROM CrawlLogEntry WHERE crawlId = ? AND outcome = ? ORDER BY id').all(crawlId, outcome) as Entry[];
    const otherEntries = () => db.prepare(`SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome NOT IN (${ROUND_OUTCOMES.map(() => '?').join(', ')})`).pluck().get(crawlId, ...ROUND_OUTCOMES) as number;
    const iso = (ms: number) => new Date(ms).toISOString();
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS });

    const first = engine();
    const run = first.run();
    let recovered: Entry[] = [];
    try {
      await until('round 1 failed', () => failure() !== undefined);
      const pages = otherEntries();
      await until('round 1 failed 25 times', () => failure()!.failures >= 25);
      // One entry however many failures: its time the first's, its retries the ones after it.
      let f = failure()!;
      let logged = entries(ROUND_FAILED_OUTCOME);
      assert.equal(logged.length, 1, `one entry for ${f.failures} failures`);
      assert.equal(otherEntries(), pages, 'no other entry either: the round failed before refetching');
      assert.deepEqual([logged[0]!.url, logged[0]!.retries, Date.parse(logged[0]!.at)], [`${origin}/`, f.failures - 1, f.firstFailedAt]);
      assert.equal(logged[0]!.message, `recrawl round 1 failed ${f.failures} times in a row, the last at ${iso(f.failedAt)}: first refusal; tried again from ${iso(f.retryAt!)}`);

      // Another error: an entry of its own, counting its failures alone; the first one stays as it was.
      refuseRounds(db, 'second refusal');
      await until('the second error logged', () => entries(ROUND_FAILED_OUTCOME).length === 2);
      const firstError = entries(ROUND_FAILED_OUTCOME)[0]!;
      await until('the second error came 10 times', () => entries(ROUND_FAILED_OUTCOME)[1]!.retries >= 9);
      f = failure()!;
      logged = entries(ROUND_FAILED_OUTCOME);
      assert.equal(logged.length, 2);
      assert.deepEqual(logged[0], firstError);
      const inARow = logged[1]!.retries + 1;
      assert.equal(logged[1]!.message, `recrawl round 1 failed ${inARow} times in a row, the last at ${iso(f.failedAt)} (${f.failures} failures of this round): second refusal; tried again from ${iso(f.retryAt!)}`);
      assert.equal(firstError.retries + 1 + inARow, f.failures, 'every failure counted in one entry or the other');

      // The refusal gone: round 1 finishes, and says after how many failed attempts.
      refuseRounds(db, null);
      await until('round 1 finished', () => (first.incremental?.rounds.length ?? 0) >= 1);
      f = failure()!;
      recovered = entries(ROUND_RECOVERED_OUTCOME);
      assert.equal(recovered.length, 1);
      assert.equal(recovered[0]!.retries, f.failures);
      assert.equal(recovered[0]!.message, `recrawl round 1 finished after ${f.failures} failed attempts (the first at ${iso(f.firstFailedAt)}, the last at ${iso(f.failedAt)}; the last error: second refusal)`);
      assert.equal(entries(ROUND_FAILED_OUTCOME).length, 2, 'the failures keep their two entries');
    } finally {
      await first.stop();
    }
    assert.equal(await run, 'stopped');
    const live = first.stats();
    for (const outcome of ROUND_OUTCOMES) assert.ok(!(outcome in live.failedByReason), `${outcome} is no failed URL`);

    // A restarted engine counts what the live counters counted: no round entry is a failed URL.
    const second = engine();
    await runUntil(second, 'round 2 finished', () => (second.incremental?.rounds.length ?? 0) >= 1);
    const restored = second.stats();
    for (const outcome of ROUND_OUTCOMES) assert.ok(!(outcome in restored.failedByReason), `${outcome} is no failed URL after a restart`);
    assert.deepEqual(restored.failedByReason, live.failedByReason);
    assert.deepEqual(entries(ROUND_RECOVERED_OUTCOME), recovered, 'a round that did not fail logs no recovery');
  });
});
