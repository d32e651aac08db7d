import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyUpdate, firstScore, precedenceOf, type UpdateFunction } from '../../../worker/frontier';

const run = (fn: UpdateFunction, scores: number[]) => scores.slice(1).reduce((s, x) => applyUpdate(s, x, fn), firstScore(scores[0]!));

test('each update function over the scores 0.2, 0.9, 0.4', () => {
  const scores = [0.2, 0.9, 0.4];
  assert.equal(run('FIRST', scores).raw, 0.2);
  assert.equal(run('LAST', scores).raw, 0.4);
  assert.equal(run('MAX', scores).raw, 0.9);
  assert.ok(Math.abs(run('AVG', scores).raw - 0.5) < 1e-12);
  assert.ok(Math.abs(run('SUM', scores).raw - 1.5) < 1e-12);
});

test('count and sum are kept whatever the function, so AVG and SUM stay exact', () => {
  const s = run('FIRST', [0.5, 0.25, 0.25]);
  assert.deepEqual(s, { raw: 0.5, count: 3, sum: 1 });
});

test('precedence clamps into [0,1]; NaN and negatives count as 0', () => {
  assert.equal(precedenceOf(1.5), 1);
  assert.equal(precedenceOf(-0.2), 0);
  assert.equal(precedenceOf(Number.NaN), 0);
  assert.equal(precedenceOf(0.3), 0.3);
  assert.deepEqual(firstScore(Number.NaN), { raw: 0, count: 1, sum: 0 });
});
