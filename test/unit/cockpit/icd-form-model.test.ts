import { test } from 'node:test';
import assert from 'node:assert/strict';
import { icdSchema, parseIcd } from '../../../worker/icd/schema';
import { fieldErrors, formValuesFromIcd, icdFromFormValues, validateForm } from '../../../app/icds/icd-form-model';

test('a new form starts from the schema defaults and an empty name and seed list', () => {
  const v = formValuesFromIcd(null);
  assert.equal(v.name, '');
  assert.equal(v.seeds, '');
  assert.equal(v.maxDepth, '20');
  assert.equal(v.respectRobots, true);
  assert.equal(v.updateFunction, 'AVG');
  assert.equal(v.relevanceThreshold, '0.333');
});

test('form values round-trip through the ICD, keeping what the form does not show', () => {
  const stored = icdSchema.parse({
    name: 'Elections',
    seeds: ['https://news.example.org/', 'https://b.example.org/'],
    scope: { allowedHosts: ['media.example.org'], exclude: ['/login'], maxDepth: 5 },
    politeness: { minDelayMs: 500, maxDelayMs: 9000 },
    focus: {
      enabled: true,
      keywords: [{ term: 'election', weight: 2 }],
      entities: [{ name: 'Electoral Commission', type: 'organisation', aliases: ['EC', 'the Commission'] }],
      urlPatterns: [{ pattern: '/politics/', weight: 0.5 }],
      topicTerms: { elect: 0.9 },
      batch: { enabled: true, bl: 5 },
    },
    warc: { gzipLevel: 6 },
    coherence: { mode: 'visit-revisit' },
  });
  const again = icdSchema.parse(icdFromFormValues(formValuesFromIcd(stored), stored));
  assert.deepEqual(again, stored);
});

test('the shared schema\'s issues land on the field that caused them, list items named by line', () => {
  const v = { ...formValuesFromIcd(null), name: 'x', seeds: 'https://ok.example.org/\nnot a url', exclude: '(' };
  v.keywords = [{ term: '', weight: '2' }];
  v.minDelayMs = '5000';
  v.maxDelayMs = '10';
  const { errors } = validateForm(v, null);
  assert.deepEqual(errors.seeds, ['Line 2: Not a valid http(s) URL']);
  assert.deepEqual(errors.exclude, ['Line 1: Not a valid regular expression']);
  assert.equal(errors['keywords.0.term']?.length, 1);
  assert.deepEqual(errors.maxDelayMs, ['Max delay must be at least the min delay']);
  assert.equal(errors.name, undefined);
});

test('a valid form has no errors; empty number fields fall back to the defaults', () => {
  const v = { ...formValuesFromIcd(null), name: 'Demo', seeds: 'http://127.0.0.1:3001/', maxPages: '' };
  const { icd, errors } = validateForm(v, null);
  assert.deepEqual(errors, {});
  assert.equal(icdSchema.parse(icd).scope.maxPages, 10_000);
});

test('server issues (400 bodies) are grouped the same way; unknown paths go to the form', () => {
  const errors = fieldErrors([
    { path: ['seeds', 0], message: 'Not a valid http(s) URL' },
    { path: ['focus', 'moduleWeights', 'text'], message: 'Too small' },
    { path: ['limits', 'maxRetries'], message: 'Too big' },
  ]);
  assert.deepEqual(errors, { seeds: ['Line 1: Not a valid http(s) URL'], 'moduleWeights.text': ['Too small'], form: ['Too big'] });
});

test('the language field sets focus.language, lower-cased; emptied, it clears the stored one', () => {
  const base = parseIcd({ name: 'Langue', seeds: ['https://a.example/'], focus: { language: 'fra' } });
  const values = formValuesFromIcd(base);
  assert.equal(values.language, 'fra');
  assert.equal(icdFromFormValues({ ...values, language: 'DEU' }, base).focus?.language, 'deu');
  assert.equal('language' in icdFromFormValues({ ...values, language: ' ' }, base).focus!, false);
});
