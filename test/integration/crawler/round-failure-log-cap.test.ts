/**
 * A recrawl round whose error keeps changing (two errors taking turns, say) made a crawl-log entry
 * at every failure, one a minute without end, since only failures in a row with the same error
 * shared one. A round now adds at most MAX_FAILURE_ENTRIES_A_ROUND entries; the last of them then
 * counts every later failure, "with changing errors". Real parts: a migrated SQLite database and the
 * crawl store, the failures as the driver stores and logs them (one transaction each).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CaptureStore } from '../../../worker/store/capture-store';
import { RecrawlState } from '../../../worker/crawler/recrawl-round';
import { ROUND_FAILED_OUTCOME } from '../../../worker/crawler/recrawl-history';
import { logRoundFailure, MAX_FAILURE_ENTRIES_A_ROUND } from '../../../worker/crawler/round-failure-log';
import { withCrawl } from '../../support/site-crawl';

test('a round failing with errors that take turns adds at most MAX_FAILURE_ENTRIES_A_ROUND entries; the last counts the rest', async () => {
  await withCrawl('tm-round-log-cap-', { name: 'Changing errors', seeds: ['http://a.test/'], coherence: { recrawlIntervalMinutes: 1 } }, async ({ db, icd, crawlId }) => {
    const state = new RecrawlState(db, crawlId);
    const ctx = { store: new CaptureStore(db, crawlId), icd };
    const t0 = Date.parse('2026-11-29T10:00:00Z');
    const fail = (round: number, i: number, message: string) =>
      db.transaction(() => {
        const previous = state.pendingFailure();
        logRoundFailure(ctx, state.fail({ round, at: t0 + i * 60_000, message, url: null, retryAt: t0 + (i + 1) * 60_000 }), previous);
      })();
    // 100 failures (an hour and 40 minutes), two errors taking turns.
    for (let i = 0; i < 100; i++) fail(1, i, i % 2 ? 'ENOSPC: no space left on device, write' : 'SQLITE_FULL: database or disk is full');
    const entries = db.prepare('SELECT message, retries FROM CrawlLogEntry WHERE crawlId = ? AND outcome = ? ORDER BY id').all(crawlId, ROUND_FAILED_OUTCOME) as { message: string; retries: number }[];
    assert.equal(entries.length, MAX_FAILURE_ENTRIES_A_ROUND, `${entries.length} entries for 100 failures`);
    // Every failure counted once: one in each entry but the last, which has the rest.
    assert.equal(entries.reduce((n, e) => n + e.retries + 1, 0), 100);
    const last = entries.at(-1)!;
    assert.equal(last.retries, 100 - MAX_FAILURE_ENTRIES_A_ROUND);
    assert.equal(last.message, `recrawl round 1 failed ${last.retries + 1} times with changing errors, the last at 2026-11-29T11:39:00.000Z (100 failures of this round): ENOSPC: no space left on device, write; tried again from 2026-11-29T11:40:00.000Z`);

    // The cap is a round's: the next round that fails starts entries of its own.
    state.finishRound(1, t0 + 101 * 60_000, 0.5);
    fail(2, 102, 'SQLITE_FULL: database or disk is full');
    fail(2, 103, 'SQLITE_FULL: database or disk is full');
    const round2 = db.prepare("SELECT message, retries FROM CrawlLogEntry WHERE crawlId = ? AND outcome = ? AND message LIKE 'recrawl round 2 %'").all(crawlId, ROUND_FAILED_OUTCOME) as { message: string; retries: number }[];
    assert.deepEqual(round2.map((e) => e.retries), [1]);
    assert.match(round2[0]!.message, /^recrawl round 2 failed 2 times in a row, /);
  });
});
