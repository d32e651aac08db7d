import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sameError } from '../../../worker/crawler/round-failure-log';

test('failures whose messages differ only in their numbers are the same error', () => {
  assert.ok(sameError('headers timeout after 30012 ms', 'headers timeout after 30007 ms'));
  assert.ok(sameError("EMFILE: too many open files, open '/data/crawls/12/warc/tm-20261128-00041.warc.gz.open'", "EMFILE: too many open files, open '/data/crawls/12/warc/tm-20261128-00042.warc.gz.open'"));
  assert.ok(sameError('database is locked', 'database is locked'));
});

test('failures whose words differ are different errors', () => {
  assert.ok(!sameError('first refusal', 'second refusal'));
  assert.ok(!sameError('ENOSPC: no space left on device, write', 'EACCES: permission denied, write'));
  assert.ok(!sameError('timeout after 30 ms', 'timeout after 30 s'));
});
