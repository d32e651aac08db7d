import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reviewTermsOf } from '../../../worker/focus/review-terms';
import { createTextAnalyzer } from '../../../worker/text';

test('a typed term becomes the stems that page text about it produces, so it can match', () => {
  const page = new Set(createTextAnalyzer({ language: 'eng' }).analyze('The lighthouses of the harbour, and its harbour master, keep watch.').terms);
  for (const typed of ['Lighthouses', 'lighthouse', 'harbour master']) {
    const terms = reviewTermsOf(typed, 'eng');
    assert.ok(terms.length > 0, typed);
    for (const t of terms) assert.ok(page.has(t), `${typed} → ${t}, a term of the page`);
  }
  assert.deepEqual(reviewTermsOf('Lighthouses', 'eng'), ['lighthous']);
  assert.notDeepEqual(reviewTermsOf('Lighthouses', 'eng'), ['lighthouses'], 'not stored as typed, which no page term equals');
});

test('a multi-word term gives each word once; stop words alone give nothing', () => {
  assert.deepEqual(reviewTermsOf('harbour and Harbours', 'eng'), ['harbour']);
  assert.deepEqual(reviewTermsOf('of the and', 'eng'), []);
});

test("the ICD's language decides the stemming", () => {
  assert.deepEqual(reviewTermsOf('phares', 'fra'), createTextAnalyzer({ language: 'fra' }).analyze('phares').terms);
  // French stop words and stems: 'les' dropped, 'chevaux' → 'cheval'; English keeps 'les' and 'chevaux'.
  assert.deepEqual(reviewTermsOf('les chevaux', 'fra'), ['cheval']);
  assert.deepEqual(reviewTermsOf('les chevaux', 'eng'), ['les', 'chevaux']);
});
