import { test } from 'node:test';
import assert from 'node:assert/strict';
import { failureMessage, MAX_FAILURE_MESSAGE, roundFailedLogMessage } from '../../../worker/crawler/recrawl-history';

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
  assert.equal(roundFailedLogMessage(f), 'recrawl round 4 failed: boom; tried again from 2026-01-02T03:04:05.000Z');
  assert.equal(roundFailedLogMessage({ ...f, failures: 3 }), 'recrawl round 4 failed (failure 3 of this round): boom; tried again from 2026-01-02T03:04:05.000Z');
  assert.equal(roundFailedLogMessage({ ...f, retryAt: null }), 'recrawl round 4 failed: boom; the crawl pauses; the round runs again when it is resumed');
});
