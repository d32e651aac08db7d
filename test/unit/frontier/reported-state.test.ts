import { test } from 'node:test';
import assert from 'node:assert/strict';
import { reportedState } from '../../../worker/frontier/frontier-sql';

// Found by an exploratory session: the seeds report and "Look up a URL" said "failed: robots-disallowed"
// of a URL the counters and the crawl log count as excluded, outcome robots.
test('a URL robots.txt refused is reported excluded with the crawl log\'s outcome; other states as stored', () => {
  assert.deepEqual(reportedState('failed', 'robots-disallowed'), { state: 'excluded', reason: 'robots' });
  assert.deepEqual(reportedState('failed', 'robots-unavailable'), { state: 'excluded', reason: 'robots-unavailable' });
  assert.deepEqual(reportedState('failed', 'connect-refused'), { state: 'failed', reason: 'connect-refused' });
  assert.deepEqual(reportedState('excluded', 'max-depth'), { state: 'excluded', reason: 'max-depth' });
  assert.deepEqual(reportedState('done', null), { state: 'done', reason: null });
});
