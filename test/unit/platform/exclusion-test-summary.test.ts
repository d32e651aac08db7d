import { test } from 'node:test';
import assert from 'node:assert/strict';
import { testSummary } from '../../../app/crawls/[id]/exclusion-test-summary';

const urls = (n: number) => Array.from({ length: n }, (_, k) => `http://a.test/${k}`);
const every = (matching: number, examples: number, tested: number) => ({ matching, examples: urls(examples), tested, partial: false, waiting: tested, hosts: 3, hostsTested: 3, moreHostsAfter: null });

test('a test of a pattern in words: every waiting URL looked at', () => {
  assert.equal(testSummary(every(0, 0, 40)), 'No waiting URL matches.');
  assert.equal(testSummary(every(1, 1, 40)), '1 waiting URL matches:');
  assert.equal(testSummary(every(3, 3, 40)), '3 waiting URLs match:');
  assert.equal(testSummary(every(1234, 20, 5000)), '1,234 waiting URLs match; the first 20:');
});

test('a test that looked at only some of the waiting URLs says "at least", and which it looked at: spread over the hosts, not the first ones', () => {
  const some = { tested: 10_000, partial: true, waiting: 250_000, hosts: 40, hostsTested: 40, moreHostsAfter: null };
  assert.equal(testSummary({ ...some, matching: 0, examples: [] }), 'None matches of 10,000 of the 250,000 waiting URLs looked at: the next ones in each of the 40 hosts\' queues, shared between them.');
  assert.equal(testSummary({ ...some, matching: 1, examples: urls(1) }), 'At least 1 waiting URL matches (of 10,000 of the 250,000 waiting URLs looked at: the next ones in each of the 40 hosts\' queues, shared between them):');
  assert.equal(
    testSummary({ ...some, matching: 10_000, examples: urls(20), hosts: 25_000, hostsTested: 1_000 }),
    'At least 10,000 waiting URLs match (of 10,000 of the 250,000 waiting URLs looked at: the next ones in the queues of 1,000 hosts spread over the 25,000 with URLs queued, shared between them); the first 20:',
  );
  assert.equal(testSummary({ ...some, matching: 2, examples: urls(2), hosts: 1, hostsTested: 1 }), 'At least 2 waiting URLs match (of 10,000 of the 250,000 waiting URLs looked at: the next ones in the host\'s queue):');
});

test('a test over more hosts than it lists says up to which host it looked, and that the hosts after it were left out', () => {
  assert.equal(
    testSummary({ matching: 3, examples: urls(3), tested: 10_000, partial: true, waiting: 400_000, hosts: 5_000, hostsTested: 1_000, moreHostsAfter: 'm.example.org' }),
    'At least 3 waiting URLs match (of 10,000 of the 400,000 waiting URLs looked at: the next ones in the queues of 1,000 hosts spread over the first 5,000 with URLs queued, in name order up to m.example.org, shared between them; the hosts after it were left out):',
  );
});
