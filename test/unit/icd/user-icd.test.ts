/**
 * Focus settings that are valid one by one but can never work: refused when a person writes them
 * (the form, the API, the CLI), still read from a stored crawl's definition so it resumes.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ZodError } from 'zod';
import { parseIcd } from '../../../worker/icd/schema';
import { parseUserIcd } from '../../../worker/icd/user-icd';
import { focusSettingProblems } from '../../../worker/icd/focus-settings';
import { keywordsWithoutTerms } from '../../../worker/icd/keyword-terms';
import { formValuesFromIcd, validateForm } from '../../../app/icds/icd-form-model';

const base = { name: 'Focus', seeds: ['https://a.example.org/'] };
const ZERO_WEIGHTS = { text: 0, urlPattern: 0, spam: 0, entity: 0, aah: 0 };
const issuesOf = (input: unknown) => {
  try {
    parseUserIcd(input);
    return [];
  } catch (err) {
    assert.ok(err instanceof ZodError, String(err));
    return err.issues.map((i) => `${i.path.join('.')}: ${i.message}`);
  }
};

test('every module weight 0 with focus on: refused at the first weight, saying the crawl would not be focused', () => {
  const icd = { ...base, focus: { enabled: true, keywords: [{ term: 'harbour' }], moduleWeights: ZERO_WEIGHTS } };
  assert.deepEqual(issuesOf(icd), ['focus.moduleWeights.text: Give at least one module a weight above 0: with all at 0 every link gets priority 0 and the crawl is not focused']);
  // One weight above 0 is enough; with focus off nothing is asked.
  assert.deepEqual(issuesOf({ ...icd, focus: { ...icd.focus, moduleWeights: { ...ZERO_WEIGHTS, entity: 0.1 } } }), []);
  assert.deepEqual(issuesOf({ ...icd, focus: { ...icd.focus, enabled: false } }), []);
  // A stored crawl's definition is read as it was accepted: the crawl resumes.
  assert.deepEqual(parseIcd(icd).focus.moduleWeights, ZERO_WEIGHTS);
});

test('a relevance threshold of 1 can never be met: refused; just below it is taken', () => {
  const icd = (relevanceThreshold: number) => ({ ...base, focus: { enabled: true, keywords: [{ term: 'harbour' }], relevanceThreshold } });
  assert.deepEqual(issuesOf(icd(1)), ['focus.relevanceThreshold: Below 1: a page counts as relevant when its similarity is above the threshold, and no similarity is above 1']);
  assert.deepEqual(issuesOf(icd(0.99)), []);
  assert.deepEqual(issuesOf(icd(0)), []);
  assert.equal(parseIcd(icd(1)).focus.relevanceThreshold, 1);
});

test('keywords that give no term are refused at their line, naming the entity as the way; others are taken', () => {
  const terms = ['The Who', 'R', 'C++', '2024', 'G7', 'harbour', 'COP28', 'Über', '選挙'];
  const icd = { ...base, focus: { enabled: true, keywords: terms.map((term) => ({ term })) } };
  const refused = issuesOf(icd);
  assert.deepEqual(refused.map((i) => i.split(':')[0]), [0, 1, 2, 3, 4].map((i) => `focus.keywords.${i}.term`));
  assert.match(refused[0]!, /“The Who” gives no word the focus can match: stop words \(the, who…\), one-letter words and digits are not indexed\. To find a name as written, give it as an entity$/);
  // In a fixed language, as the crawl analyses it.
  assert.deepEqual(keywordsWithoutTerms(parseIcd({ ...base, focus: { enabled: true, language: 'fra', keywords: [{ term: 'les' }, { term: 'port' }] } }).focus).map((i) => i.path.join('.')), ['focus.keywords.0.term']);
  assert.deepEqual(keywordsWithoutTerms(parseIcd({ ...icd, focus: { ...icd.focus, enabled: false } }).focus), []);
});

test('the form refuses the weights and the threshold at their fields before saving', () => {
  const values = formValuesFromIcd({ ...base, focus: { enabled: true, keywords: [{ term: 'harbour' }], moduleWeights: ZERO_WEIGHTS, relevanceThreshold: 1 } });
  const { errors } = validateForm(values, null);
  assert.deepEqual(Object.keys(errors).sort(), ['moduleWeights.text', 'relevanceThreshold']);
  assert.deepEqual(focusSettingProblems(parseIcd({ ...base, focus: { enabled: true } }).focus), []);
});
