import { test } from 'node:test';
import assert from 'node:assert/strict';
import { RelevanceSeriesBuilder, relevanceSeries } from '../../../worker/analyze/relevance-series';

test('one point per window of documents, the mean divided by the largest window mean, the harvest ratio so far', () => {
  const s = relevanceSeries([0.2, 0.4, 0.8, 0.6, 0.1], 2, 0.333);
  assert.equal(s.windowSize, 2);
  assert.equal(s.documents, 5);
  assert.deepEqual(s.points.map((p) => p.documents), [2, 4, 5], 'two full windows and the partial last one');
  assert.deepEqual(s.points.map((p) => +p.meanSimilarity.toFixed(6)), [0.3, 0.7, 0.1]);
  assert.deepEqual(s.points.map((p) => +p.normalised.toFixed(6)), [+(0.3 / 0.7).toFixed(6), 1, +(0.1 / 0.7).toFixed(6)]);
  // Relevant (> 0.333): 0.4, 0.8, 0.6 → 1/2 after 2 documents, 3/4 after 4, 3/5 after 5.
  assert.deepEqual(s.points.map((p) => p.harvestRatio), [0.5, 0.75, 0.6]);
  assert.equal(s.harvestRatio, 0.6);
});

test('a similarity equal to the threshold is not relevant (the paper: "exceeds")', () => {
  assert.equal(relevanceSeries([0.333, 0.334], 10, 0.333).harvestRatio, 0.5);
});

test('no documents: no points; all-zero similarities normalise to 0, not NaN', () => {
  assert.deepEqual(relevanceSeries([], 3, 0.333).points, []);
  const zero = relevanceSeries([0, 0, 0], 1, 0.333);
  assert.deepEqual(zero.points.map((p) => p.normalised), [0, 0, 0]);
});

test('the live builder fed one by one gives the series of the whole list (resume seeds it with the stored ones)', () => {
  const sims = Array.from({ length: 23 }, (_, i) => ((i * 37) % 10) / 10);
  const live = new RelevanceSeriesBuilder(5, 0.333);
  for (const s of sims.slice(0, 11)) live.add(s);
  const resumed = new RelevanceSeriesBuilder(5, 0.333);
  for (const s of sims) resumed.add(s);
  assert.deepEqual(resumed.snapshot(), relevanceSeries(sims, 5, 0.333));
  assert.equal(live.snapshot().points.at(-1)!.documents, 11);
});

test('a window size below 1 is refused', () => {
  assert.throws(() => new RelevanceSeriesBuilder(0, 0.333), /windowSize/);
});
