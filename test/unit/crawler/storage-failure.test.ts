import { test } from 'node:test';
import assert from 'node:assert/strict';
import { isStorageFailure, storageFailureMessage } from '../../../worker/store/storage-failure';
import { CompressionThreadsFailure } from '../../../worker/warc/gzip-pool';

const failure = (code: string, message = code) => Object.assign(new Error(message), { code });

test('a full, read-only or failing disk is the storage, the errors of a page are not', () => {
  for (const code of ['ENOSPC', 'EDQUOT', 'EROFS', 'EIO', 'SQLITE_FULL', 'SQLITE_IOERR', 'SQLITE_IOERR_WRITE', 'SQLITE_READONLY_DBMOVED']) assert.ok(isStorageFailure(failure(code)), code);
  for (const code of ['ECONNRESET', 'ETIMEDOUT', 'ENOTFOUND', 'SQLITE_ERROR', 'SQLITE_CONSTRAINT', 'SQLITE_BUSY', 'EMFILE']) assert.ok(!isStorageFailure(failure(code)), code);
  assert.ok(!isStorageFailure(new Error('no code')));
  assert.ok(!isStorageFailure(null));
  assert.ok(!isStorageFailure({ code: 28 }));
});

test('the pause message says what happened and what to do', () => {
  assert.equal(
    storageFailureMessage(failure('ENOSPC', 'ENOSPC: no space left on device, write')),
    'Paused: the disk is full (ENOSPC: no space left on device, write). Nothing acknowledged is lost; the pages under way go back to the queue. Make room, then resume the crawl.',
  );
  assert.match(storageFailureMessage(failure('SQLITE_READONLY_DBMOVED', 'attempt to write a readonly database')), /^Paused: the disk is read-only \(attempt to write/);
  assert.match(storageFailureMessage(failure('SQLITE_IOERR_FSYNC', 'disk I\/O error')), /^Paused: the disk failed \(disk I\/O error\)/);
});

test('compression threads that cannot start pause the crawl too, with their own message', () => {
  const err = new CompressionThreadsFailure('the WARC compression threads cannot start: 3 in a row stopped before taking a record (the last: Worker terminated due to reaching memory limit: JS heap out of memory)');
  assert.ok(isStorageFailure(err));
  assert.equal(
    storageFailureMessage(err),
    'Paused: the WARC compression threads cannot start: 3 in a row stopped before taking a record (the last: Worker terminated due to reaching memory limit: JS heap out of memory). Nothing acknowledged is lost; the pages under way go back to the queue. Free memory (or threads) for them, then resume the crawl.',
  );
});
