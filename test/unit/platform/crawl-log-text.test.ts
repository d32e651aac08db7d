import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRAWL_LOG_COLUMNS, crawlLogHeader, crawlLogLine, requestFigures } from '../../../worker/store/crawl-log-text';

test('a crawl-log entry is one tab-separated line, its time in UTC', () => {
  assert.equal(crawlLogHeader(), 'at\tstatus\toutcome\tsize\tduration_ms\tretries\turl\tmessage\tnot_requested\n');
  const line = crawlLogLine({ at: '2026-11-28T23:30:00.250+00:00', status: 200, outcome: 'ok', size: 4096, durationMs: 12, retries: 0, url: 'http://a.test/', message: null, notRequested: 0 });
  assert.equal(line, '2026-11-28T23:30:00.250Z\t200\tok\t4096\t12\t0\thttp://a.test/\t\t0\n');
  assert.equal(line.split('\t').length, CRAWL_LOG_COLUMNS.length);
});

test('no field breaks its line or its columns: control characters become spaces; no response leaves the status empty', () => {
  const line = crawlLogLine({ at: new Date(Date.UTC(2026, 10, 28)), status: null, outcome: 'connection-reset', size: 0, durationMs: 3, retries: 2, url: 'http://a.test/x\ty', message: 'socket hang up\r\nat line 2\u0000', notRequested: false });
  assert.equal(line, '2026-11-28T00:00:00.000Z\t\tconnection-reset\t0\t3\t2\thttp://a.test/x y\tsocket hang up  at line 2 \t0\n');
  assert.equal(line.split('\n').length, 2);
});

// Found by an exploratory session: the file had no notRequested column, and an entry whose URL was
// never requested (its host's robots.txt unanswered) read "0" ms and 0 retries, as if fetched.
test('an entry whose URL was never requested says so, its duration and retries empty: not applicable', () => {
  const row = { at: '2026-11-28T23:30:00.000+00:00', status: null, outcome: 'connect-refused', size: 0, durationMs: 0, retries: 0, url: 'http://a.test/p', message: 'no connection to the host for robots.txt; the URL was not requested', notRequested: 1 };
  assert.equal(crawlLogLine(row), '2026-11-28T23:30:00.000Z\t\tconnect-refused\t0\t\t\thttp://a.test/p\tno connection to the host for robots.txt; the URL was not requested\t1\n');
  assert.deepEqual(requestFigures(row), { durationMs: null, retries: null });
  assert.deepEqual(requestFigures({ ...row, notRequested: false, durationMs: 0, retries: 0 }), { durationMs: 0, retries: 0 }, 'a request of no time is still one');
});
