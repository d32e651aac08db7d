import { test } from 'node:test';
import assert from 'node:assert/strict';
import { aggregateScores, createPageAnalyzer, DEFAULT_MODULE_WEIGHTS } from '../../../worker/analyze';
import { createTextAnalyzer, DocumentFrequencies } from '../../../worker/text';

test('weighted average over the modules that scored, with the weights used in the breakdown', () => {
  const b = aggregateScores({ text: 0.8, spam: 1, urlPattern: 0.5 }, DEFAULT_MODULE_WEIGHTS);
  assert.ok(Math.abs(b.priority - (0.8 * 1 + 1 * 0.3 + 0.5 * 0.3) / 1.6) < 1e-12);
  assert.deepEqual(b.weights, { text: 1, spam: 0.3, urlPattern: 0.3 });
  assert.deepEqual(b.scores, { text: 0.8, spam: 1, urlPattern: 0.5 });
});

test('a zero weight switches a module off; out-of-range scores are clamped; nothing scored gives 0', () => {
  const b = aggregateScores({ text: 2, entity: 0 }, { ...DEFAULT_MODULE_WEIGHTS, entity: 0 });
  assert.equal(b.priority, 1);
  assert.deepEqual(b.weights, { text: 1 });
  assert.equal(aggregateScores({}, DEFAULT_MODULE_WEIGHTS).priority, 0);
});

test('an AAH bonus takes part for the links that have one', () => {
  const a = createPageAnalyzer({
    topicVector: new Map([['ice', 1]]), analyzer: createTextAnalyzer({ language: 'eng' }), documentFrequencies: new DocumentFrequencies(),
    moduleWeights: { text: 1, urlPattern: 0, spam: 0, entity: 0, aah: 1 },
  });
  const r = a.analyze({
    url: 'https://f.example/', text: 'forum',
    links: [{ url: 'https://f.example/t/1', anchorText: 'thread', aahBonus: 1 }, { url: 'https://f.example/t/2', anchorText: 'thread' }],
  });
  assert.equal(r.links[0]!.breakdown.scores.aah, 1);
  assert.equal(r.links[1]!.breakdown.scores.aah, undefined);
  assert.ok(r.links[0]!.priority > r.links[1]!.priority);
});
