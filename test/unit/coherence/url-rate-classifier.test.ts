import { test } from 'node:test';
import assert from 'node:assert/strict';
import { equalFrequencyBins, predictRate, trainRateClassifier, urlFeatures } from '../../../worker/coherence';

test('URL features: depth, MIME class, length, segments, query, digits, special characters, extension', () => {
  const f = urlFeatures({ url: 'http://x.org/news/2026/item_7.html?id=3', mime: 'text/html', depth: 2 });
  for (const want of ['depth:2', 'mime:html', 'seg1:news', 'seg2:news/2026', 'segments:3', 'query:yes', 'digits:yes', 'char:_', 'char:=', 'ext:html']) {
    assert.ok(f.includes(want), want);
  }
  assert.ok(urlFeatures({ url: 'http://x.org/a.png', mime: 'image/png', depth: 9 }).includes('mime:media'));
  assert.ok(urlFeatures({ url: 'http://x.org/a.png', mime: 'image/png', depth: 9 }).includes('depth:6'));
  assert.deepEqual(urlFeatures({ url: 'nope', depth: 0 }), ['invalid']);
});

test('equal-frequency bins hold equally many rates and predict their median', () => {
  const rates = [0.01, 0.02, 0.03, 0.04, 1, 2, 3, 4, 100, 200, 300, 400];
  const bins = equalFrequencyBins(rates, 3);
  assert.equal(bins.length, 3);
  assert.deepEqual(bins.map((b) => [b.min, b.max]), [[0.01, 0.04], [1, 4], [100, 400]]);
  assert.deepEqual(bins.map((b) => b.rate), [0.03, 3, 300]);
  assert.equal(equalFrequencyBins([5], 4).length, 1);
});

test('the classifier learns which sections of a site change fast', () => {
  const samples = [];
  for (let i = 0; i < 30; i++) {
    samples.push({ url: `http://x.org/news/${i}`, mime: 'text/html', depth: 1, rate: 20 + i });
    samples.push({ url: `http://x.org/archive/2019/${i}.html`, mime: 'text/html', depth: 3, rate: 0.01 + i / 1000 });
    samples.push({ url: `http://x.org/docs/page-${i}`, mime: 'text/html', depth: 2, rate: 0.5 + i / 100 });
  }
  const model = trainRateClassifier(samples, 3);
  assert.deepEqual(model.binCounts, [30, 30, 30]);
  const hot = predictRate(model, { url: 'http://x.org/news/999', mime: 'text/html', depth: 1 });
  const cold = predictRate(model, { url: 'http://x.org/archive/2019/999.html', mime: 'text/html', depth: 3 });
  const mid = predictRate(model, { url: 'http://x.org/docs/page-999', mime: 'text/html', depth: 2 });
  assert.equal(hot.bin, 2);
  assert.equal(cold.bin, 0);
  assert.equal(mid.bin, 1);
  assert.ok(hot.rate > mid.rate && mid.rate > cold.rate);
  assert.ok(Math.abs(hot.posterior.reduce((a, b) => a + b, 0) - 1) < 1e-9);
});
