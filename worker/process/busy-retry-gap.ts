/**
 * How SQLite's default busy handler (sqlite3_busy_timeout, built with usleep as better-sqlite3 is)
 * waits for a lock another connection holds: it tries again after sleeping 1, 2, 5, 10, 15, 20, 25,
 * 25, 25, 50, 50 ms, then every 100 ms, until its timeout. A connection that frees the lock for less
 * than the sleep under way is not seen to free it at all.
 */
const BUSY_SLEEPS_MS = [1, 2, 5, 10, 15, 20, 25, 25, 25, 50, 50, 100];

/** Slack for the waiter's process to be scheduled and take the lock, beyond its sleep. */
export const BUSY_RETRY_SLACK_MS = 5;

/**
 * How long a writer must leave the lock free, after holding it `heldMs`, so that every connection
 * that began waiting for it meanwhile tries again and takes it: the longest sleep such a waiter can
 * be in when the lock is freed (one that began waiting at the start has slept longest), plus
 * BUSY_RETRY_SLACK_MS. Freed only for a turn of the event loop, the lock was taken again before any
 * waiter woke, and another process's write waited until its busy timeout and failed.
 */
export function freeLockAfter(heldMs: number): number {
  let retryAt = 0;
  for (const sleep of BUSY_SLEEPS_MS) {
    retryAt += sleep;
    if (retryAt >= heldMs) return sleep + BUSY_RETRY_SLACK_MS;
  }
  return BUSY_SLEEPS_MS[BUSY_SLEEPS_MS.length - 1] + BUSY_RETRY_SLACK_MS;
}
