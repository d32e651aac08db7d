import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testSummary } from '../../../app/crawls/[id]/exclusion-test-summary';

const urls = (n: number) => Array.from({ length: n }, (_, k) => `http://a.test/${k}`);

test('a test of a pattern in words: every waiting URL looked at', () => {
  assert.equal(testSummary({ matching: 0, examples: [], tested: 40, partial: false }), 'No waiting URL matches.');
  assert.equal(testSummary({ matching: 1, examples: urls(1), tested: 40, partial: false }), '1 waiting URL matches:');
  assert.equal(testSummary({ matching: 3, examples: urls(3), tested: 40, partial: false }), '3 waiting URLs match:');
  assert.equal(testSummary({ matching: 1234, examples: urls(20), tested: 5000, partial: false }), '1,234 waiting URLs match; the first 20:');
});

test('a test that looked at only some of the waiting URLs says "at least"', () => {
  assert.equal(testSummary({ matching: 0, examples: [], tested: 10_000, partial: true }), 'None of the first 10,000 waiting URLs looked at matches; more wait.');
  assert.equal(testSummary({ matching: 1, examples: urls(1), tested: 10_000, partial: true }), 'At least 1 waiting URL matches (of the first 10,000 looked at; more wait):');
  assert.equal(testSummary({ matching: 10_000, examples: urls(20), tested: 10_000, partial: true }), 'At least 10,000 waiting URLs match (of the first 10,000 looked at; more wait); the first 20:');
});
