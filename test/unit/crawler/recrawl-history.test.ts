import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureMessage, MAX_FAILURE_MESSAGE, roundFailedLogMessage, roundRecoveredLogMessage } from '../../../worker/crawler/recrawl-history';

test("a failure's message is the error's, on one line, at most MAX_FAILURE_MESSAGE characters", () => {
  assert.equal(failureMessage(new Error('UNIQUE constraint failed:\n  engine_recrawl_result.url')), 'UNIQUE constraint failed: engine_recrawl_result.url');
  assert.equal(failureMessage('a string thrown'), 'a string thrown');
  assert.equal(failureMessage(new TypeError('')), 'TypeError');
  assert.equal(failureMessage(new Error('   ')), 'Error');
  const long = failureMessage(new Error(`${'é'.repeat(MAX_FAILURE_MESSAGE)}🙂 and more`));
  assert.equal(Array.from(long).length, MAX_FAILURE_MESSAGE);
  assert.ok(long.endsWith('é…'));
  assert.equal(failureMessage(new Error('x'.repeat(MAX_FAILURE_MESSAGE))).length, MAX_FAILURE_MESSAGE, 'exactly the limit is kept whole');
});

test("the crawl-log entry says which round failed, how often, why, and when it is tried again", () => {
  const f = { round: 4, failures: 1, firstFailedAt: 0, failedAt: 0, message: 'boom', url: null, retryAt: Date.UTC(2026, 0, 2, 3, 4, 5) };
  assert.equal(roundFailedLogMessage(f, 1), 'recrawl round 4 failed: boom; tried again from 2026-01-02T03:04:05.000Z');
  assert.equal(roundFailedLogMessage({ ...f, failures: 3 }, 1), 'recrawl round 4 failed (failure 3 of this round): boom; tried again from 2026-01-02T03:04:05.000Z');
  assert.equal(roundFailedLogMessage({ ...f, retryAt: null }, 1), 'recrawl round 4 failed: boom; the crawl pauses; the round runs again when it is resumed');
});

test('the entry of failures in a row with the same error says how many, the last one when, and the round\'s count when it differs', () => {
  const last = Date.UTC(2026, 0, 2, 3, 3, 5);
  const f = { round: 4, failures: 37, firstFailedAt: 0, failedAt: last, message: 'boom', url: null, retryAt: last + 60_000 };
  assert.equal(roundFailedLogMessage(f, 37), 'recrawl round 4 failed 37 times in a row, the last at 2026-01-02T03:03:05.000Z: boom; tried again from 2026-01-02T03:04:05.000Z');
  assert.equal(roundFailedLogMessage(f, 2), 'recrawl round 4 failed 2 times in a row, the last at 2026-01-02T03:03:05.000Z (37 failures of this round): boom; tried again from 2026-01-02T03:04:05.000Z');
});

test('the entry of a round that finished after failing says after how many attempts, when they were and the last error', () => {
  const f = { round: 4, failures: 40, firstFailedAt: Date.UTC(2026, 0, 1), failedAt: Date.UTC(2026, 0, 3), message: 'boom', url: null, retryAt: null };
  assert.equal(roundRecoveredLogMessage(f), 'recrawl round 4 finished after 40 failed attempts (the first at 2026-01-01T00:00:00.000Z, the last at 2026-01-03T00:00:00.000Z; the last error: boom)');
  assert.equal(roundRecoveredLogMessage({ ...f, failures: 1, firstFailedAt: f.failedAt }), 'recrawl round 4 finished after 1 failed attempt (at 2026-01-03T00:00:00.000Z; its error: boom)');
});
