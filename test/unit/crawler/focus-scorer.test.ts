import { test } from 'node:test';
import assert from 'node:assert/strict';
import { breakdownJsonOf, type LinkVerdicts } from '../../../worker/crawler/focus-scorer';
import type { ModuleName } from '../../../worker/analyze';

test('a link breakdown is written as JSON.stringify writes its scores and weights, absent modules left out', () => {
  const modules = ['text', 'urlPattern', 'spam', 'entity', 'aah'] as ModuleName[];
  const rows: [number[], number[]][] = [
    [[0.123456789012345, NaN, 1, NaN, 0.9], [0.5, NaN, 0.25, NaN, 1e-7]],
    [[NaN, NaN, NaN, NaN, NaN], [NaN, NaN, NaN, NaN, NaN]],
    [[0, 1 / 3, 2e21, NaN, Infinity], [1, 2, 3, 4, 5]],
  ];
  const v: LinkVerdicts = {
    similarity: 0.5,
    modules,
    priorities: new Float64Array(rows.length),
    scores: Float64Array.from(rows.flatMap((r) => r[0])),
    weights: Float64Array.from(rows.flatMap((r) => r[1])),
    excluded: new Uint8Array(rows.length),
  };
  rows.forEach(([scores, weights], i) => {
    const pick = (xs: number[]) => Object.fromEntries(modules.flatMap((name, k) => (Number.isNaN(xs[k]) ? [] : [[name, xs[k]]])));
    assert.equal(breakdownJsonOf(v, i), JSON.stringify({ scores: pick(scores), weights: pick(weights) }), `link ${i}`);
  });
});
