import { test } from 'node:test';
import assert from 'node:assert/strict';
import { CRAWL_LOG_COLUMNS, crawlLogHeader, crawlLogLine } from '../../../worker/store/crawl-log-text';

test('a crawl-log entry is one tab-separated line, its time in UTC', () => {
  assert.equal(crawlLogHeader(), 'at\tstatus\toutcome\tsize\tduration_ms\tretries\turl\tmessage\n');
  const line = crawlLogLine({ at: '2026-11-28T23:30:00.250+00:00', status: 200, outcome: 'ok', size: 4096, durationMs: 12, retries: 0, url: 'http://a.test/', message: null });
  assert.equal(line, '2026-11-28T23:30:00.250Z\t200\tok\t4096\t12\t0\thttp://a.test/\t\n');
  assert.equal(line.split('\t').length, CRAWL_LOG_COLUMNS.length);
});

test('no field breaks its line or its columns: control characters become spaces; no response leaves the status empty', () => {
  const line = crawlLogLine({ at: new Date(Date.UTC(2026, 10, 28)), status: null, outcome: 'connection-reset', size: 0, durationMs: 3, retries: 2, url: 'http://a.test/x\ty', message: 'socket hang up\r\nat line 2\u0000' });
  assert.equal(line, '2026-11-28T00:00:00.000Z\t\tconnection-reset\t0\t3\t2\thttp://a.test/x y\tsocket hang up  at line 2 \n');
  assert.equal(line.split('\n').length, 2);
});
