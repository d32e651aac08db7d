import { test } from 'node:test';
import assert from 'node:assert/strict';
import { addInto, cosine, cosineTo, DocumentFrequencies, norm, normalize, sumVectors, termFrequencies, topTerms } from '../../../worker/text';

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

test('cosineOfWeighted is cosineTo(fixed)(weigh(tf)) to the last bit, whichever vector is smaller', () => {
  const df = new DocumentFrequencies();
  df.addDocument(['ice', 'glacier', 'sea']);
  df.addDocument(['ice', 'bread']);
  const small = new Map([['ice', 0.7], ['glacier', 0.31]]);
  const large = new Map([['ice', 0.7], ['glacier', 0.31], ['melt', 0.2], ['sea', 0.13], ['greenland', 0.05], ['fjord', 0.01]]);
  const texts: Map<string, number>[] = [
    new Map([['ice', 3], ['glacier', 1], ['sea', 2], ['bread', 7]]),
    new Map([['ice', 1]]),
    new Map([['bread', 2], ['toast', 1]]),
    new Map([['ice', 2], ['zero', 0]]),
  ];
  for (const fixed of [small, large]) {
    for (const tf of texts) {
      const expected = cosineTo(fixed)(df.weigh(tf));
      assert.equal(df.cosineOfWeighted(tf, fixed, norm(fixed)), expected, `${[...tf.keys()]} against ${fixed.size} terms`);
    }
  }
  // Equal sizes: cosineTo sums over the fixed vector's order; these weights round differently in the text's order.
  const abc = new DocumentFrequencies();
  abc.addDocument(['a', 'b']);
  abc.addDocument(['c']);
  const tie = new Map([['a', 0.8148854618184117], ['b', 0.6225529320269508], ['c', 0.4075350656318707]]);
  const cba = new Map([['c', 2], ['b', 1], ['a', 1]]);
  assert.equal(abc.cosineOfWeighted(cba, tie, norm(tie)), cosineTo(tie)(abc.weigh(cba)), 'same order as cosineTo when sizes tie');
  assert.equal(df.cosineOfWeighted(new Map(), small, norm(small)), undefined, 'no term: no similarity');
  assert.equal(df.cosineOfWeighted(new Map([['ice', 0]]), small, norm(small)), undefined, 'only zero counts: no term');
  assert.equal(df.cosineOfWeighted(new Map([['ice', 1]]), new Map(), 0), 0, 'an empty topic: 0, as cosineTo gives');
});
