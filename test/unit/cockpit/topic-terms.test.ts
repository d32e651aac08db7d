import { test } from 'node:test';
import assert from 'node:assert/strict';
import { MAX_TOPIC_TERM_WEIGHT, icdSchema } from '../../../worker/icd/schema';
import { formValuesFromIcd, validateForm } from '../../../app/icds/icd-form-model';
import { startCrawlPlan } from '../../../app/icds/start-crawl-plan';
import { recordFromTerms, sameTerms, termsFromRecord, typedTermWeight, withAddedStems, withTopicTerms, withoutTerm } from '../../../app/icds/topic-terms';

const stored = icdSchema.parse({
  name: 'Tides',
  seeds: ['https://tides.example.org/'],
  focus: { enabled: true, keywords: [{ term: 'tide', weight: 1 }], topicTerms: { tide: 0.9, estuari: 0.5, bake: 0.2 } },
});

test('the stored record lists strongest first and goes back to the same record', () => {
  const terms = termsFromRecord({ bake: 0.2, tide: 0.9, estuari: 0.5 });
  assert.deepEqual(terms.map((t) => t.term), ['tide', 'estuari', 'bake']);
  assert.deepEqual(recordFromTerms(terms), { tide: 0.9, estuari: 0.5, bake: 0.2 });
  assert.deepEqual(termsFromRecord(undefined), []);
});

test('terms are the same as the stored record whatever their order, and differ by one term or one weight', () => {
  const record = { tide: 0.9, estuari: 0.5 };
  assert.equal(sameTerms([{ term: 'estuari', weight: 0.5 }, { term: 'tide', weight: 0.9 }], record), true);
  assert.equal(sameTerms([{ term: 'tide', weight: 0.9 }], record), false, 'one removed');
  assert.equal(sameTerms([...termsFromRecord(record), { term: 'moonris', weight: 1 }], record), false, 'one added');
  assert.equal(sameTerms([{ term: 'tide', weight: 0.9 }, { term: 'estuari', weight: 1 }], record), false, 'a weight changed');
  assert.equal(sameTerms([{ term: 'tide', weight: 0.9 }, { term: 'toString', weight: 1 }], { tide: 0.9, estuari: 0.5 }), false);
  assert.equal(sameTerms([], undefined), true, 'no terms stored and none shown');
});

test('a typed term\'s stems are added at its weight, replacing the same stems, strongest first; a removed term goes', () => {
  const terms = termsFromRecord({ tide: 0.9, estuari: 0.5 });
  assert.deepEqual(withAddedStems(terms, ['estuari', 'moonris'], 1), [
    { term: 'estuari', weight: 1 },
    { term: 'moonris', weight: 1 },
    { term: 'tide', weight: 0.9 },
  ]);
  assert.deepEqual(withoutTerm(terms, 'tide'), [{ term: 'estuari', weight: 0.5 }]);
  assert.equal(terms.length, 2, 'the list given is left as it is');
});

test('form edits and reviewed terms saved together both end up in the one definition saved', () => {
  const values = formValuesFromIcd(stored);
  values.keywords = [...values.keywords, { term: 'estuary', weight: '2' }];
  const reviewed = recordFromTerms(withAddedStems(withoutTerm(termsFromRecord(stored.focus.topicTerms), 'bake'), ['moonris'], 1));
  const { icd, errors } = validateForm(values, stored);
  assert.deepEqual(errors, {});
  const saved = icdSchema.parse(withTopicTerms(icd, reviewed));
  assert.deepEqual(saved.focus.keywords, [{ term: 'tide', weight: 1 }, { term: 'estuary', weight: 2 }]);
  assert.deepEqual(saved.focus.topicTerms, { moonris: 1, tide: 0.9, estuari: 0.5 });
  assert.deepEqual({ ...saved, focus: { ...saved.focus, keywords: [], topicTerms: {} } }, { ...stored, focus: { ...stored.focus, keywords: [], topicTerms: {} } }, 'nothing else changed');
});

test('terms saved on their own are kept by a later save of the form, whose base is the stored definition', () => {
  const values = { ...formValuesFromIcd(stored), maxPages: '77' };
  const afterTerms = withTopicTerms(stored, { tide: 0.9 });
  const { icd } = validateForm(values, afterTerms);
  assert.deepEqual(icd.focus?.topicTerms, { tide: 0.9 });
  assert.equal(icd.scope?.maxPages, 77);
});

test('the start button saves what holds unsaved edits first, and says so', () => {
  const plan = (formEdited: boolean, termsUnsaved: boolean, mayDesign = true) => startCrawlPlan({ formEdited, termsUnsaved, mayDesign });
  assert.deepEqual(plan(false, false), { saveForm: false, saveTerms: false, label: 'Start a crawl' });
  assert.deepEqual(plan(true, false), { saveForm: true, saveTerms: false, label: 'Save and start a crawl' });
  assert.deepEqual(plan(false, true), { saveForm: false, saveTerms: true, label: 'Save topic terms and start a crawl' });
  assert.deepEqual(plan(true, true), { saveForm: true, saveTerms: true, label: 'Save the definition and topic terms, then start a crawl' });
  // A role that may run but not design starts the stored definition, and is told.
  assert.deepEqual(plan(true, true, false), { saveForm: false, saveTerms: false, label: 'Start a crawl (of the saved definition)' });
  assert.deepEqual(plan(false, false, false), { saveForm: false, saveTerms: false, label: 'Start a crawl' });
});

test('the add box takes a weight the server would save and refuses, with a message, one it would not', () => {
  assert.deepEqual(typedTermWeight('1'), { weight: 1 });
  assert.deepEqual(typedTermWeight(' 0.25 '), { weight: 0.25 });
  assert.deepEqual(typedTermWeight(String(MAX_TOPIC_TERM_WEIGHT)), { weight: MAX_TOPIC_TERM_WEIGHT });
  const tooHeavy = { error: 'A topic term weighs at most 1,000,000' };
  assert.deepEqual(typedTermWeight(String(MAX_TOPIC_TERM_WEIGHT + 1)), tooHeavy);
  assert.deepEqual(typedTermWeight('1e155'), tooHeavy, 'the weight that made the topic vector Infinity');
  assert.deepEqual(typedTermWeight('1,5'), { error: 'Not a number: use digits, and a point for decimals' });
  assert.deepEqual(typedTermWeight('Infinity'), { error: 'A number' });
  assert.deepEqual(typedTermWeight('  '), { error: 'Required' }, 'not read as 0');
  // What the form lets through, the save accepts.
  const added = withTopicTerms(stored, recordFromTerms(withAddedStems(termsFromRecord(stored.focus.topicTerms), ['moonris'], MAX_TOPIC_TERM_WEIGHT)));
  assert.equal(icdSchema.safeParse(added).success, true);
});
