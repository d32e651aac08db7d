/**
 * The ICD's focus weights are bounded so that no weight the schema accepts can make a page's
 * priority, or its similarity with the topic, NaN or Infinity.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ICD_LIMITS, MAX_MODULE_WEIGHT, MAX_TOPIC_TERM_WEIGHT, icdSchema } from '../../../worker/icd/schema';
import { aggregateScores } from '../../../worker/analyze/aggregate';
import { compileUrlPatterns } from '../../../worker/analyze/url-pattern-module';
import { topicVectorFromRecord } from '../../../worker/analyze/topic-vector';
import { cosineTo } from '../../../worker/text';
import { formValuesFromIcd, validateForm } from '../../../app/icds/icd-form-model';

const base = { name: 'Weights', seeds: ['https://a.example.org/'] };
const focusIssues = (focus: unknown) => {
  const parsed = icdSchema.safeParse({ ...base, focus });
  return parsed.success ? [] : parsed.error.issues.map((i) => ({ path: i.path.join('.'), message: i.message }));
};
const MODULES = ['text', 'urlPattern', 'spam', 'entity', 'aah'] as const;

test('a module weight of 1e308 is refused with a message that says why; 1,000 is taken', () => {
  assert.deepEqual(focusIssues({ moduleWeights: { text: 1e308, entity: 1e308 } }), [
    { path: 'focus.moduleWeights.text', message: 'At most 1,000: the weights count only relative to each other' },
    { path: 'focus.moduleWeights.entity', message: 'At most 1,000: the weights count only relative to each other' },
  ]);
  assert.deepEqual(focusIssues({ moduleWeights: Object.fromEntries(MODULES.map((m) => [m, MAX_MODULE_WEIGHT])) }), []);
});

test('any module weights the schema takes give a finite priority in [0, 1], whatever the scores', () => {
  const extremes = [0, Number.MIN_VALUE, 1e-300, 0.3, MAX_MODULE_WEIGHT];
  const scoreSets = [{ text: 1, urlPattern: 1, spam: 1, entity: 1, aah: 1 }, { text: 0, urlPattern: 1, spam: 0.5, entity: 0, aah: 1 }, { text: 0.2 }];
  for (const high of extremes) {
    for (const low of extremes) {
      const weights = icdSchema.parse({ ...base, focus: { moduleWeights: { text: high, urlPattern: low, spam: high, entity: high, aah: low } } }).focus.moduleWeights;
      for (const scores of scoreSets) {
        const { priority } = aggregateScores(scores, weights);
        assert.ok(Number.isFinite(priority) && priority >= 0 && priority <= 1, `${JSON.stringify(weights)} ${JSON.stringify(scores)} → ${priority}`);
      }
    }
  }
});

test('the ICD editor shows a too large module weight on its field, as the schema words it', () => {
  const values = formValuesFromIcd(base);
  const { errors } = validateForm({ ...values, moduleWeights: { ...values.moduleWeights, text: '1e308', entity: '1001' } }, null);
  assert.deepEqual(errors, {
    'moduleWeights.text': ['At most 1,000: the weights count only relative to each other'],
    'moduleWeights.entity': ['At most 1,000: the weights count only relative to each other'],
  });
});

test('a topic term weight of 1e308 is refused; at the bound, a full topic vector still gives finite similarities', () => {
  assert.deepEqual(focusIssues({ topicTerms: { harbour: 1e308, quay: 0.5 } }), [{ path: 'focus.topicTerms.harbour', message: 'A topic term weighs at most 1,000,000' }]);
  const full = Object.fromEntries(Array.from({ length: ICD_LIMITS.topicTerms }, (_, i) => [`term${i}`, MAX_TOPIC_TERM_WEIGHT]));
  assert.deepEqual(focusIssues({ topicTerms: full }), []);
  const similarity = cosineTo(topicVectorFromRecord(full));
  for (const page of [new Map([['term0', 1]]), new Map([['term1', 50], ['other', 1e6]]), new Map(Object.entries(full))]) {
    const c = similarity(page);
    assert.ok(Number.isFinite(c) && c >= 0 && c <= 1, `${c}`);
  }
});

test('keyword and URL-pattern weights stay bounded, so the URL-pattern score of the most patterns is within [0, 1]', () => {
  assert.deepEqual(focusIssues({ keywords: [{ term: 'harbour', weight: 1e308 }], urlPatterns: [{ pattern: '/a/', weight: 1e308 }] }), [
    { path: 'focus.keywords.0.weight', message: 'Too big: expected number to be <=10' },
    { path: 'focus.urlPatterns.0.weight', message: 'Too big: expected number to be <=1' },
  ]);
  for (const weight of [1, -1]) {
    const scorer = compileUrlPatterns(Array.from({ length: ICD_LIMITS.patterns }, () => ({ pattern: 'a', weight })));
    assert.equal(scorer.score('https://a.example.org/a'), weight > 0 ? 1 : 0);
  }
});
