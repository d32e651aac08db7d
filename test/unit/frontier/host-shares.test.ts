import { test } from 'node:test';
import assert from 'node:assert/strict';
import { hostShares } from '../../../worker/frontier/waiting-matches';

const sum = (xs: number[]) => xs.reduce((n, x) => n + x, 0);

test('every host gets an equal share of the URLs a test looks at, a small queue giving the rest to the others', () => {
  assert.deepEqual(hostShares([100, 100, 100], 30), [10, 10, 10]);
  assert.deepEqual(hostShares([5000, 2, 5000], 100), [49, 2, 49]);
  assert.deepEqual(hostShares([100, 100, 100], 10), [4, 3, 3], 'the remainder to the first hosts');
  assert.deepEqual(hostShares([3, 1, 2], 100), [3, 1, 2], 'fewer than the budget: all of them');
  assert.deepEqual(hostShares([], 100), []);
  assert.deepEqual(hostShares([7, 7], 0), [0, 0]);
});

test('with more hosts than URLs looked at, one URL of hosts spread over the whole list, not the first ones', () => {
  const shares = hostShares(Array.from({ length: 100 }, () => 50), 10);
  assert.equal(sum(shares), 10);
  assert.deepEqual(shares.flatMap((s, i) => (s ? [i] : [])), [5, 15, 25, 35, 45, 55, 65, 75, 85, 95]);
});

test('with more hosts than it looks into, the hosts looked into are spread over the list and share the budget', () => {
  const shares = hostShares(Array.from({ length: 100 }, () => 50), 40, 4);
  assert.deepEqual(shares.flatMap((s, i) => (s ? [[i, s]] : [])), [[12, 10], [37, 10], [62, 10], [87, 10]]);
  // A small queue among them gives the rest to the others.
  const small = hostShares(Array.from({ length: 100 }, (_, i) => (i === 12 ? 1 : 50)), 40, 4);
  assert.deepEqual(small.flatMap((s, i) => (s ? [[i, s]] : [])), [[12, 1], [37, 13], [62, 13], [87, 13]]);
});

test('the shares never exceed the budget nor a host\'s queue, and use the whole budget when enough wait', () => {
  for (const [queued, budget] of [[[1, 2, 3, 4, 5, 1000], 17], [[10_000, 1, 1, 9_999], 10_000], [[3, 3, 3], 8]] as [number[], number][]) {
    const shares = hostShares(queued, budget);
    assert.equal(sum(shares), Math.min(budget, sum(queued)), `${queued} / ${budget}`);
    shares.forEach((s, i) => assert.ok(s <= queued[i]!));
  }
});
