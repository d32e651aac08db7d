import { test } from 'node:test';
import assert from 'node:assert/strict';
import { BatchScorer, createPageAnalyzer, DEFAULT_MODULE_WEIGHTS } from '../../../worker/analyze';
import { createTextAnalyzer, DocumentFrequencies } from '../../../worker/text';

const topicVector = new Map([['glacier', 1], ['ice', 0.8], ['melt', 0.6]]);
const page = () => createPageAnalyzer({ topicVector, analyzer: createTextAnalyzer({ language: 'eng' }), documentFrequencies: new DocumentFrequencies() });

test('a batch scores each target once from all the evidence pointing at it', () => {
  const a = page();
  const batch = new BatchScorer(topicVector, DEFAULT_MODULE_WEIGHTS);
  batch.add(a.analyze({ url: 'https://s.example/1', text: 'Glaciers melt fast.', links: [
    { url: 'https://t.example/x', anchorText: 'ice melt', context: 'ice melt' },
    { url: 'https://t.example/y', anchorText: 'bread', context: 'bread recipes' },
  ] }));
  batch.add(a.analyze({ url: 'https://s.example/2', text: 'Sea ice and glaciers.', links: [
    { url: 'https://t.example/x', anchorText: 'glacier', context: 'glacier news' },
    { url: 'https://doubleclick.net/ad', anchorText: 'glacier', context: 'glacier' },
  ] }));
  assert.equal(batch.size, 3);
  const scores = new Map(batch.close().map((s) => [s.url, s]));
  assert.equal(batch.size, 0, 'closing empties the batch');
  const x = scores.get('https://t.example/x')!;
  const y = scores.get('https://t.example/y')!;
  assert.equal(x.inLinks, 2);
  assert.ok(x.priority > y.priority);
  assert.ok(x.breakdown.scores.text! > 0.5, `summed evidence is on topic: ${x.breakdown.scores.text}`);
  assert.equal(x.breakdown.scores.spam, 1);
  assert.equal(scores.get('https://doubleclick.net/ad')!.excluded, 'spam');
  assert.equal(scores.get('https://doubleclick.net/ad')!.priority, 0);
});

test('evidence from two on-topic sources beats one on-topic and one off-topic source', () => {
  const a = page();
  const batch = new BatchScorer(topicVector, DEFAULT_MODULE_WEIGHTS);
  const link = (url: string) => ({ url, anchorText: 'more', context: 'more' });
  batch.add(a.analyze({ url: 'https://s.example/on1', text: 'glacier ice melt', links: [link('https://t.example/both'), link('https://t.example/mixed')] }));
  batch.add(a.analyze({ url: 'https://s.example/on2', text: 'melting glaciers', links: [link('https://t.example/both')] }));
  batch.add(a.analyze({ url: 'https://s.example/off', text: 'football scores', links: [link('https://t.example/mixed')] }));
  const s = new Map(batch.close().map((x) => [x.url, x.priority]));
  assert.ok(s.get('https://t.example/both')! > s.get('https://t.example/mixed')!);
});
