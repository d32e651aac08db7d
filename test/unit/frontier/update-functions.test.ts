import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyUpdate, firstScore, precedenceOf, provisionalScore, type UpdateFunction } from '../../../worker/frontier';

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

test('a provisional score (batch mode) orders the URL but the first real score replaces it, whatever the function', () => {
  for (const fn of ['FIRST', 'LAST', 'MAX', 'AVG', 'SUM'] as const) {
    const p = provisionalScore(0.9);
    assert.deepEqual(p, { raw: 0.9, count: 0, sum: 0 });
    assert.deepEqual(applyUpdate(p, 0.3, fn), { raw: 0.3, count: 1, sum: 0.3 }, fn);
    // After that the function applies as usual (0.3 then 0.5).
    const next = applyUpdate(applyUpdate(p, 0.3, fn), 0.5, fn).raw;
    const want = { FIRST: 0.3, LAST: 0.5, MAX: 0.5, AVG: 0.4, SUM: 0.8 }[fn];
    assert.ok(Math.abs(next - want) < 1e-12, `${fn}: ${next}`);
  }
});
