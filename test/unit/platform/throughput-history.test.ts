import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_POINTS, bucketWidthMs, rateWindowMs, throughputPoints } from '../../../app/lib/server/throughput-history';

test('intervals are whole seconds, at least one, and never more than MAX_POINTS over the span', () => {
  assert.equal(bucketWidthMs(0), 1000);
  assert.equal(bucketWidthMs(12_345), 1000);
  assert.equal(bucketWidthMs(MAX_POINTS * 1000), 1000);
  assert.equal(bucketWidthMs(MAX_POINTS * 1000 + 1), 2000);
  const day = 24 * 3600 * 1000;
  assert.ok(day / bucketWidthMs(day) <= MAX_POINTS);
  assert.equal(bucketWidthMs(day) % 1000, 0);
});

test('points: running totals per status class, empty intervals kept, the rate over the intervals of the window before each point', () => {
  const start = Date.parse('2026-11-24T10:00:00Z');
  const points = throughputPoints(
    [
      { bucket: 0, cls: 2, n: 6 },
      { bucket: 0, cls: 4, n: 2 },
      // bucket 1: paused
      { bucket: 2, cls: 2, n: 3 },
      { bucket: 2, cls: 3, n: 1 },
    ],
    start,
    2000,
  );
  // 2 s intervals: the rate is over the 3 intervals (6 s) before each point, the nearest to the live 5 s.
  assert.deepEqual(
    points.map((p) => [p.at - start, p.pagesPerSecond, p.fetched]),
    [[0, 0, 0], [2000, 1.3, 8], [4000, 1.3, 8], [6000, 2, 12]],
  );
  assert.deepEqual(points.at(-1)!.statusClasses, { '2xx': 9, '3xx': 1, '4xx': 2, '5xx': 0 });
  assert.deepEqual(points[1]!.statusClasses, { '2xx': 6, '3xx': 0, '4xx': 2, '5xx': 0 }, 'each point has its own totals');
  assert.deepEqual(throughputPoints([], start, 1000), []);
});

test('a point\'s rate is what the live counter showed then: captures of the 5 s before it, per second', () => {
  const start = Date.parse('2026-11-24T10:00:00Z');
  // 10 captures in the first second, then none: live, 10 / 5 s = 2 pages/s for five seconds, then 0.
  // Per interval alone it was 10, then 0: a spike the live chart never drew.
  const points = throughputPoints([{ bucket: 0, cls: 2, n: 10 }, { bucket: 6, cls: 2, n: 5 }], start, 1000);
  assert.deepEqual(points.map((p) => p.pagesPerSecond), [0, 2, 2, 2, 2, 2, 0, 1]);
  assert.equal(rateWindowMs(1000), 5000);
  // Intervals longer than the window (a long crawl's history): the rate is per interval.
  assert.equal(rateWindowMs(12_000), 12_000);
  assert.deepEqual(throughputPoints([{ bucket: 0, cls: 2, n: 24 }, { bucket: 1, cls: 2, n: 12 }], start, 12_000).map((p) => p.pagesPerSecond), [0, 2, 1]);
});
