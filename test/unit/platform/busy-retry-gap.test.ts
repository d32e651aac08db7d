/**
 * How long the crawl deletion leaves SQLite's write lock free after a batch: long enough that a
 * writer that began waiting during the batch, whose busy handler sleeps longer the longer it waits,
 * wakes and takes it. Freed for one turn of the event loop only, the lock was taken again first.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BUSY_RETRY_SLACK_MS, freeLockAfter } from '../../../worker/process/busy-retry-gap';

/** When a writer that began waiting at 0 tries again (SQLite's sqliteDefaultBusyCallback with usleep), up to `until` ms. */
function retries(until: number): number[] {
  const sleeps = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50];
  const at: number[] = [];
  let t = 0;
  for (let i = 0; t <= until; i++) at.push((t += sleeps[i] ?? 100));
  return at;
}

test('the lock is left free for the sleep a waiter is in when it is freed, plus slack', () => {
  assert.equal(freeLockAfter(0), 1 + BUSY_RETRY_SLACK_MS);
  assert.equal(freeLockAfter(18), 10 + BUSY_RETRY_SLACK_MS);
  assert.equal(freeLockAfter(19), 15 + BUSY_RETRY_SLACK_MS);
  assert.equal(freeLockAfter(50), 20 + BUSY_RETRY_SLACK_MS);
  assert.equal(freeLockAfter(200), 50 + BUSY_RETRY_SLACK_MS);
  assert.equal(freeLockAfter(5_000), 100 + BUSY_RETRY_SLACK_MS);
});

test('every writer that began waiting during a batch tries again while the lock is free', () => {
  for (const held of [0.2, 3, 17, 40, 77, 150, 260, 1_200]) {
    const free = freeLockAfter(held) - BUSY_RETRY_SLACK_MS;
    for (let began = 0; began <= held; began += 0.5) {
      const next = retries(held + 200).map((t) => began + t).find((t) => t >= held)!;
      assert.ok(next <= held + free, `held ${held} ms, waiting since ${began}: tries again at ${next}, the lock free until ${held + free}`);
    }
  }
});
