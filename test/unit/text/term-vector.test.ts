import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addInto, cosine, DocumentFrequencies, norm, normalize, sumVectors, termFrequencies, topTerms } from '../../../worker/text';

test('term frequencies, norm, cosine', () => {
  const a = termFrequencies(['sea', 'sea', 'ice']);
  assert.deepEqual([...a], [['sea', 2], ['ice', 1]]);
  assert.equal(norm(a), Math.sqrt(5));
  assert.ok(Math.abs(cosine(a, a) - 1) < 1e-12);
  assert.equal(cosine(a, termFrequencies(['bread'])), 0);
  assert.equal(cosine(a, new Map()), 0);
  const b = termFrequencies(['sea', 'bread']);
  assert.ok(Math.abs(cosine(a, b) - 2 / (Math.sqrt(5) * Math.sqrt(2))) < 1e-12);
});

test('normalize, addInto and sumVectors', () => {
  const v = normalize(new Map([['a', 3], ['b', 4]]));
  assert.deepEqual([...v], [['a', 0.6], ['b', 0.8]]);
  const t = addInto(new Map([['a', 1]]), new Map([['a', 1], ['c', 2]]), 0.5);
  assert.deepEqual([...t], [['a', 1.5], ['c', 1]]);
  const s = sumVectors([new Map([['x', 10]]), new Map([['y', 1]])], { normalizeEach: true });
  assert.deepEqual([...s], [['x', 1], ['y', 1]]);
  assert.deepEqual(topTerms(new Map([['b', 1], ['a', 1], ['c', 3]]), 2), [{ term: 'c', weight: 3 }, { term: 'a', weight: 1 }]);
});

test('document frequencies learnt online make common terms weigh less', () => {
  const df = new DocumentFrequencies();
  df.addDocument(['sea', 'the', 'the']);
  df.addDocument(['ice', 'the']);
  df.addDocument(['bread', 'the']);
  assert.equal(df.documentCount, 3);
  assert.equal(df.frequency('the'), 3);
  assert.ok(df.idf('sea') > df.idf('the'));
  assert.ok(df.idf('never-seen') > df.idf('sea'));
  const w = df.weigh(termFrequencies(['sea', 'the']));
  assert.ok(w.get('sea')! > w.get('the')!);
  const copy = DocumentFrequencies.fromJSON(JSON.parse(JSON.stringify(df.toJSON())));
  assert.equal(copy.idf('sea'), df.idf('sea'));
  copy.addDocument(['sea']);
  assert.notEqual(copy.idf('sea'), df.idf('sea'), 'a copy learns independently');
});

test('TF-IDF weights are (1 + ln tf) × idf, for small, large and fractional frequencies', () => {
  const df = new DocumentFrequencies();
  for (let k = 0; k < 5000; k++) df.addDocument(k % 7 ? ['sea'] : ['sea', 'ice']);
  const tf = new Map([['sea', 1], ['ice', 3], ['tide', 5000], ['fog', 2.5], ['none', 0]]);
  const w = df.weigh(tf);
  assert.deepEqual([...w.keys()], ['sea', 'ice', 'tide', 'fog'], 'terms that do not occur get no weight');
  for (const [t, f] of tf) if (f > 0) assert.ok(Math.abs(w.get(t)! - (1 + Math.log(f)) * df.idf(t)) < 1e-12, t);
});
