import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { FailureReason } from '../../../worker/capture';
import { gotNoAnswer, type FetchOutcome } from '../../../worker/fetch';
import { backedOff, backoffAfterRound, HostTally, MAX_BACKOFF_ROUNDS, type HostBackoff } from '../../../worker/coherence';

test('a host down round after round waits 2, 4, 8, 16 rounds, then 16 at most; an answer ends the back-off', () => {
  let b: HostBackoff | null = null;
  let round = 1;
  const tries: number[] = [];
  for (let i = 0; i < 7; i++) {
    tries.push(round);
    b = backoffAfterRound(b, round, 'connect-refused');
    for (let r = round + 1; r < b!.nextRound; r++) assert.equal(backedOff(b!, r), true, `round ${r} left out`);
    assert.equal(backedOff(b!, b!.nextRound), false);
    round = b!.nextRound;
  }
  assert.deepEqual(tries, [1, 3, 7, 15, 31, 47, 63]);
  assert.deepEqual(b, { downRounds: 7, nextRound: 63 + MAX_BACKOFF_ROUNDS, reason: 'connect-refused' });
  assert.equal(backoffAfterRound(b, round, null), null, 'the first answer resets it');
  assert.equal(backedOff(undefined, 5), false);
  assert.deepEqual(backoffAfterRound(null, 4, 'headers-timeout'), { downRounds: 1, nextRound: 6, reason: 'headers-timeout' }, 'a fresh start after a reset');
});

test('the tally: a host is down only when none of its refetches got an answer; its reason is the last failure\'s', () => {
  const t = new HostTally();
  t.note('a.test', 'http://a.test/1', { answered: false, reason: 'connect-timeout' });
  t.note('a.test', 'http://a.test/2', { answered: false, reason: 'connect-refused' });
  t.note('b.test', 'http://b.test/1', { answered: false, reason: 'dns' });
  t.note('b.test', 'http://b.test/2', { answered: true });
  t.note('c.test', 'http://c.test/', { answered: true });
  assert.deepEqual(t.entries(), [
    { host: 'a.test', downReason: 'connect-refused', url: 'http://a.test/1', tries: 2 },
    { host: 'b.test', downReason: null, url: 'http://b.test/1', tries: 2 },
    { host: 'c.test', downReason: null, url: 'http://c.test/', tries: 1 },
  ]);
});

test('no answer at all: no connection, silence until the timeout, or a hang-up before a byte; a 5xx, a reset after bytes or a TLS error are a server\'s', () => {
  const failed = (reason: FailureReason, more: Partial<Extract<FetchOutcome, { ok: false }>> = {}): FetchOutcome => ({ ok: false, reason, message: reason, durationMs: 1, retries: 0, ...more });
  for (const reason of ['connect-refused', 'connect-timeout', 'dns', 'headers-timeout', 'total-timeout'] as const) assert.ok(gotNoAnswer(failed(reason)), reason);
  assert.ok(gotNoAnswer(failed('connection-reset', { bytesRead: 0 })), 'hung up before a byte');
  assert.ok(gotNoAnswer(failed('connection-reset')), 'a reset whose error does not say what was read');
  assert.ok(!gotNoAnswer(failed('connection-reset', { bytesRead: 12 })), 'cut after half a status line');
  for (const reason of ['http-5xx', 'tls', 'bad-http', 'internal', 'interrupted'] as const) assert.ok(!gotNoAnswer(failed(reason)), reason);
});
