import { test } from 'node:test';
import assert from 'node:assert/strict';
import { doublingDelayMs } from '../../../worker/process/backoff';
import { FILES_RETRY_FIRST_MS, FILES_RETRY_MAX_MS } from '../../../worker/process/crawl-deletion';

test("a worker's restart waits 1 s after its first crash, doubling with each in a row, at most 30 s", () => {
  assert.deepEqual([0, 1, 2, 3, 5, 6, 50].map((n) => doublingDelayMs(n)), [1_000, 1_000, 2_000, 4_000, 16_000, 30_000, 30_000]);
  assert.equal(doublingDelayMs(3, 10), 40, 'from the base asked for');
});

test("a deleted crawl's files that cannot be removed are tried again after 1 min, doubling, at most hourly", () => {
  const waits = [1, 2, 3, 4, 5, 6, 7, 1_000].map((n) => doublingDelayMs(n, FILES_RETRY_FIRST_MS, FILES_RETRY_MAX_MS) / 60_000);
  assert.deepEqual(waits, [1, 2, 4, 8, 16, 32, 60, 60]);
});
