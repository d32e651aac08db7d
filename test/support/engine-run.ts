import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CrawlEngine } from '../../worker/crawler/crawl-engine';

/**
 * Waits until `done()` holds, asking every few ms; fails the test, naming `what`, after `ms` on the
 * monotonic clock (a test that steps the wall clock, wall-clock-step.ts, still gets its failure).
 */
export async function until(what: string, done: () => boolean, ms = 30_000): Promise<void> {
  for (const end = performance.now() + ms; !done(); await sleep(5)) if (performance.now() > end) assert.fail(`timed out waiting until ${what}`);
}

/** Runs `engine` until `done()` holds (see until), then stops it, and checks it ended stopped. */
export async function runUntil(engine: CrawlEngine, what: string, done: () => boolean): Promise<void> {
  const run = engine.run();
  try {
    await until(what, done);
  } finally {
    await engine.stop();
  }
  assert.equal(await run, 'stopped');
}
