import { test } from 'node:test';
import assert from 'node:assert/strict';
import { parseRetryAfterMs, retryDelayMs } from '../../../worker/fetch';

const cfg = { baseMs: 100, maxMs: 1000 };

test('doubles per attempt, capped, with equal jitter between half and all of the nominal delay', () => {
  assert.equal(retryDelayMs(1, cfg, () => 0), 50);
  assert.equal(retryDelayMs(1, cfg, () => 1), 100);
  assert.equal(retryDelayMs(2, cfg, () => 1), 200);
  assert.equal(retryDelayMs(3, cfg, () => 0.5), 300);
  assert.equal(retryDelayMs(10, cfg, () => 1), 1000);
  assert.equal(retryDelayMs(10, cfg, () => 0), 500);
});

test('Retry-After asks for longer: honoured up to the cap; shorter asks do not shorten the backoff', () => {
  assert.equal(retryDelayMs(1, cfg, () => 0, '0'), 50);
  assert.equal(retryDelayMs(1, { baseMs: 100, maxMs: 5000 }, () => 0, '2'), 2000);
  assert.equal(retryDelayMs(1, cfg, () => 0, '120'), 1000);
});

test('Retry-After: seconds, HTTP dates, garbage', () => {
  const now = Date.parse('2025-01-01T00:00:00Z');
  assert.equal(parseRetryAfterMs('3', now), 3000);
  assert.equal(parseRetryAfterMs('Wed, 01 Jan 2025 00:00:10 GMT', now), 10_000);
  assert.equal(parseRetryAfterMs('Tue, 31 Dec 2024 00:00:00 GMT', now), 0);
  assert.equal(parseRetryAfterMs('soon', now), null);
  assert.equal(parseRetryAfterMs(undefined, now), null);
});
