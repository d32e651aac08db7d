import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_POINTS, bucketWidthMs, throughputPoints } from '../../../app/lib/server/throughput-history';

test('intervals are whole seconds, at least one, and never more than MAX_POINTS over the span', () => {
  assert.equal(bucketWidthMs(0), 1000);
  assert.equal(bucketWidthMs(12_345), 1000);
  assert.equal(bucketWidthMs(MAX_POINTS * 1000), 1000);
  assert.equal(bucketWidthMs(MAX_POINTS * 1000 + 1), 2000);
  const day = 24 * 3600 * 1000;
  assert.ok(day / bucketWidthMs(day) <= MAX_POINTS);
  assert.equal(bucketWidthMs(day) % 1000, 0);
});

test('points: rate per interval, running totals per status class, empty intervals kept as zero', () => {
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
  assert.deepEqual(
    points.map((p) => [p.at - start, p.pagesPerSecond, p.fetched]),
    [[0, 0, 0], [2000, 4, 8], [4000, 0, 8], [6000, 2, 12]],
  );
  assert.deepEqual(points.at(-1)!.statusClasses, { '2xx': 9, '3xx': 1, '4xx': 2, '5xx': 0 });
  assert.deepEqual(points[1]!.statusClasses, { '2xx': 6, '3xx': 0, '4xx': 2, '5xx': 0 }, 'each point has its own totals');
  assert.deepEqual(throughputPoints([], start, 1000), []);
});
