/**
 * A database whose engine tables were made by a Tidemark from before round failures were kept (an
 * engine_recrawl_round without engine_recrawl_failure): the cockpit reads it as it is, and the
 * engine's statements add the failures' table (and the rounds' count of pages left out by a host's
 * back-off), keeping the rounds stored. Real parts: a migrated
 * SQLite database in a temporary folder, the engine's own recrawl state.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { KEPT_ROUNDS, readRecrawlState, saveRound } from '../../../worker/crawler/recrawl-history';
import { readIncrementalView } from '../../../worker/crawler/incremental-records';
import { RecrawlState } from '../../../worker/crawler/recrawl-round';
import { tableExists } from '../../../worker/store/sqlite';
import { withCrawl } from '../../support/site-crawl';

/** engine_recrawl and engine_recrawl_round as the Tidemark before this one made them. */
const OLD_DDL = `
CREATE TABLE engine_recrawl (crawl_id INTEGER PRIMARY KEY, round INTEGER NOT NULL, finished_at INTEGER NOT NULL, parent_threshold REAL NOT NULL);
CREATE TABLE engine_recrawl_round (
  crawl_id INTEGER NOT NULL, round INTEGER NOT NULL, finished_at INTEGER NOT NULL, pages INTEGER NOT NULL, due INTEGER NOT NULL,
  fetched INTEGER NOT NULL, changed INTEGER NOT NULL, parents_fetched INTEGER NOT NULL, new_links INTEGER NOT NULL, parent_threshold REAL NOT NULL,
  PRIMARY KEY (crawl_id, round)
) WITHOUT ROWID;
`;

test('an older database without the failures table is read as it is, and upgraded by the engine keeping its rounds', async () => {
  await withCrawl('tm-recrawl-upgrade-', { name: 'Older rounds', seeds: ['http://site.test/'], coherence: { recrawlIntervalMinutes: 1 } }, async ({ db, crawlId }) => {
    const T = Date.UTC(2026, 0, 5, 10, 0, 0);
    db.exec(OLD_DDL);
    db.prepare('INSERT INTO engine_recrawl VALUES (?, 1, ?, 0.5)').run(crawlId, T);
    db.prepare('INSERT INTO engine_recrawl_round VALUES (?, 1, ?, 3, 3, 3, 1, 0, 2, 0.5)').run(crawlId, T);
    const settings = { feeds: [], minFeedPollMinutes: 15, recrawlIntervalMinutes: 1 };

    // The cockpit before the engine ran again: the rounds, no failure.
    assert.deepEqual(readRecrawlState(db, crawlId, 10).failures, []);
    const before = readIncrementalView(db, crawlId, settings, 'paused', T + 1000).recrawl!;
    assert.equal(before.failure, null);
    assert.deepEqual(before.rounds.map((r) => [r.round, r.changed, r.failures, r.lastFailure, r.backedOff]), [[1, 1, 0, null, 0]], 'a round stored before back-offs were counted apart: none');

    // The engine's state makes the table; the older rows stay.
    const state = new RecrawlState(db, crawlId);
    assert.ok(tableExists(db, 'engine_recrawl_failure'));
    assert.equal(state.pendingFailure(), null);
    state.fail({ round: 2, at: T + 60_000, message: 'first', url: 'http://site.test/a', retryAt: T + 120_000 });
    const again = state.fail({ round: 2, at: T + 120_000, message: 'second', url: null, retryAt: T + 180_000 });
    assert.deepEqual(again, { round: 2, failures: 2, firstFailedAt: T + 60_000, failedAt: T + 120_000, message: 'second', url: null, retryAt: T + 180_000 });
    assert.deepEqual(state.pendingFailure(), again);
    const failing = readIncrementalView(db, crawlId, settings, 'running', T + 130_000).recrawl!;
    assert.deepEqual([failing.failure?.round, failing.failure?.failures, failing.failure?.message], [2, 2, 'second']);
    assert.deepEqual(failing.nextRound, { state: 'scheduled', at: new Date(T + 180_000).toISOString() });
    assert.deepEqual(failing.rounds.map((r) => r.round), [1]);

    // Round 2 finishes: nothing pending, and its row says it failed twice.
    state.finishRound(2, T + 200_000, 0.5, { round: 2, pages: 3, due: 1, backedOff: 2, fetched: 3, changed: 0, parentsFetched: 0, newLinks: 0, parentThreshold: 0.5 });
    assert.equal(state.pendingFailure(), null);
    const done = readIncrementalView(db, crawlId, settings, 'running', T + 210_000).recrawl!;
    assert.equal(done.failure, null);
    assert.deepEqual(done.rounds.map((r) => [r.round, r.failures, r.lastFailure?.message ?? null, r.due, r.backedOff]), [[2, 2, 'second', 1, 2], [1, 0, null, 3, 0]], 'the column added in place keeps the older row');

    // Forgotten with its round, KEPT_ROUNDS rounds later.
    saveRound(db, crawlId, { round: 2 + KEPT_ROUNDS, finishedAt: T + 300_000, pages: 3, due: 3, backedOff: 0, fetched: 3, changed: 0, parentsFetched: 0, newLinks: 0, parentThreshold: 0.5 });
    assert.deepEqual(readRecrawlState(db, crawlId, 10).failures, []);
  });
});
