import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DELETE_BATCH_TARGET_MS, nextBatchRows } from '../../../worker/process/crawl-deletion';

test('a deletion\'s batch halves while a statement holds the lock over twice the target, and grows back to the most while under half', () => {
  const T = DELETE_BATCH_TARGET_MS;
  assert.equal(nextBatchRows(5_000, 900, 5_000), 2_500, 'a 900 ms statement halves it');
  assert.equal(nextBatchRows(2_500, 2 * T + 1, 5_000), 1_250);
  assert.equal(nextBatchRows(300, 10_000, 5_000), 250, 'not below the floor');
  assert.equal(nextBatchRows(100, 10_000, 100), 100, 'nor above the most asked for');
  assert.equal(nextBatchRows(1_250, T, 5_000), 1_250, 'near the target: kept');
  assert.equal(nextBatchRows(1_250, T / 2 - 1, 5_000), 2_500, 'fast: doubled');
  assert.equal(nextBatchRows(4_000, 1, 5_000), 5_000, 'up to the most');
});
