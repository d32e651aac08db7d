import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyUpdate, EMPTY_HISTORY, priorityOf, type ScoreHistory, type UpdateFunctionName } from '../../../worker/analyze';

// Each URL is discovered several times with these scores, in this order.
const SIGHTINGS: [string, number[]][] = [
  ['a', [0.9, 0.1]],
  ['b', [0.6, 0.6]],
  ['c', [0.4, 0.4, 0.5]],
  ['d', [0.3, 0.95]],
];

/** A tiny in-memory frontier: the queue ordered by priority, highest first. */
function order(fn: UpdateFunctionName): string[] {
  const queue = new Map<string, { state: ScoreHistory; priority: number }>();
  // Interleave the sightings as a crawl would: every URL's first score, then the second ones, …
  for (let round = 0; round < 3; round++) {
    for (const [url, scores] of SIGHTINGS) {
      const score = scores[round];
      if (score === undefined) continue;
      queue.set(url, applyUpdate(fn, queue.get(url)?.state ?? EMPTY_HISTORY, score));
    }
  }
  return [...queue].sort((x, y) => y[1].priority - x[1].priority).map(([url]) => url);
}

test('each update function gives its own frontier order', () => {
  assert.deepEqual(order('FIRST'), ['a', 'b', 'c', 'd']); // 0.9 0.6 0.4 0.3
  assert.deepEqual(order('LAST'), ['d', 'b', 'c', 'a']); // 0.95 0.6 0.5 0.1
  assert.deepEqual(order('MAX'), ['d', 'a', 'b', 'c']); // 0.95 0.9 0.6 0.5
  assert.deepEqual(order('AVG'), ['d', 'b', 'a', 'c']); // 0.625 0.6 0.5 0.433
  assert.deepEqual(order('SUM'), ['c', 'd', 'b', 'a']); // 1.3 1.25 1.2 1.0: many in-links win
});

test('applyUpdate keeps the full history and computes the priority', () => {
  let h = EMPTY_HISTORY;
  let p = 0;
  for (const s of [0.2, 0.8, 0.5]) ({ state: h, priority: p } = applyUpdate('AVG', h, s));
  assert.deepEqual(h, { first: 0.2, last: 0.5, max: 0.8, sum: 1.5, count: 3 });
  assert.equal(p, 0.5);
  assert.equal(priorityOf('SUM', h), 1.5);
  assert.equal(priorityOf('FIRST', EMPTY_HISTORY), 0);
  assert.equal(applyUpdate('MAX', h, Number.NaN).state.max, 0.8, 'a NaN score counts as 0');
});
