import { test } from 'node:test';
import assert from 'node:assert/strict';
import { applyTermReview, buildTopicVector, topicVectorFromRecord, topicVectorToRecord } from '../../../worker/analyze';
import { createTextAnalyzer, DocumentFrequencies } from '../../../worker/text';

const analyzer = createTextAnalyzer({ language: 'eng' });
const termsOf = (text: string) => analyzer.terms(text, 'eng');

const REFERENCE = [
  { text: 'Glaciers are melting in Greenland and the ice sheet loses mass every summer.' },
  { text: 'Sea level rise follows the melting of glaciers; coastal cities face flooding.' },
  { text: 'Arctic sea ice reached a record low; glaciers retreat as the climate warms.' },
];

test('the topic vector sums the reference documents and ranks their shared terms first', () => {
  const df = new DocumentFrequencies();
  const { vector, topTerms } = buildTopicVector(REFERENCE, [], [], { termsOf, documentFrequencies: df, topN: 5 });
  assert.equal(df.documentCount, 3, 'reference documents teach the document frequencies');
  assert.ok(topTerms.length === 5);
  assert.ok(topTerms.some((t) => t.term === 'glacier'), JSON.stringify(topTerms));
  assert.ok((vector.get('glacier') ?? 0) > (vector.get('summer') ?? 0));
  assert.equal(vector.has('the'), false, 'stop words never enter the vector');
});

test('keywords and topics add their (stemmed) terms with their weights', () => {
  const base = buildTopicVector(REFERENCE, [], [], { termsOf });
  const withKeywords = buildTopicVector(REFERENCE, [{ term: 'Permafrost', weight: 2 }, { term: 'ice', weight: 1 }], ['ocean warming'], { termsOf });
  assert.equal(base.vector.has('permafrost'), false);
  const strongest = Math.max(...base.vector.values());
  assert.ok(Math.abs(withKeywords.vector.get('permafrost')! - 2 * strongest) < 1e-9);
  assert.ok(withKeywords.vector.get('ice')! > base.vector.get('ice')!);
  assert.ok(withKeywords.vector.has('ocean') && withKeywords.vector.has('warm'));
  assert.equal(withKeywords.topTerms[0]!.term, 'permafrost');
});

test('keywords alone make a topic vector when there is no reference crawl', () => {
  const { vector } = buildTopicVector([], [{ term: 'lighthouse keepers', weight: 1 }], [], { termsOf });
  assert.deepEqual([...vector], [['lighthous', 0.5], ['keeper', 0.5]]);
});

test('term review removes and adds terms, stemming what the archivist types', () => {
  const { vector } = buildTopicVector(REFERENCE, [], [], { termsOf });
  assert.ok(vector.has('citi'));
  const reviewed = applyTermReview(vector, { remove: ['citi', 'Summers'], add: [{ term: 'Icebergs', weight: 0.9 }, { term: 'glacier', weight: 0 }] }, termsOf);
  assert.equal(reviewed.has('citi'), false);
  assert.equal(reviewed.has('summer'), false);
  assert.equal(reviewed.get('iceberg'), 0.9);
  assert.equal(reviewed.has('glacier'), false, 'weight 0 removes');
  assert.ok(vector.has('citi'), 'the input vector is not modified');
  assert.deepEqual(topicVectorFromRecord(topicVectorToRecord(reviewed)), reviewed);
});
