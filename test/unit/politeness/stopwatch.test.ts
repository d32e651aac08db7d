/**
 * A request's end is taken as its start's Date.now (whole ms, cut down, read just after the stopwatch
 * starts) plus the stopwatch's reading (fetch-attempt.ts), and the host's next request waits the delay from there: that end must never
 * come before the wall clock's at the same moment, or the next request goes out early (a 199 ms gap
 * for a 200 ms delay in bench:politeness, when the reading was rounded to the nearest ms).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { startStopwatch } from '../../../worker/politeness/clock';

test("a start's Date.now plus the stopwatch's reading is never before Date.now read just before it", () => {
  let early = 0;
  for (let i = 0; i < 2_000; i++) {
    // In fetch-attempt.ts's order: the stopwatch, then the date (a thread held between the two then lengthens the reading).
    const elapsed = startStopwatch();
    const startedAt = Date.now();
    // Spin a fraction of a millisecond, a different one each time, so the readings fall anywhere in a ms.
    const until = performance.now() + (i % 10) / 10;
    while (performance.now() < until);
    const wallEnd = Date.now();
    if (startedAt + elapsed() < wallEnd) early++;
  }
  assert.equal(early, 0, `${early} of 2,000 ends came before the wall clock's`);
});
