import { test } from 'node:test';
import assert from 'node:assert/strict';
import { exportFailureReason } from '../../../worker/export/export-job';

const withCode = (message: string, code: string) => Object.assign(new Error(message), { code });

test('a storage failure says what happened and what to do', () => {
  assert.equal(
    exportFailureReason(withCode('ENOSPC: no space left on device, write', 'ENOSPC')),
    'The disk is full (ENOSPC: no space left on device, write): make room, then export again',
  );
  assert.equal(exportFailureReason(withCode('database or disk is full', 'SQLITE_FULL')), 'The disk is full (database or disk is full): make room, then export again');
  assert.equal(exportFailureReason(withCode('read-only file system', 'EROFS')), 'The disk is read-only (read-only file system): repair the storage, then export again');
});

test('any other failure keeps its own message', () => {
  assert.equal(exportFailureReason(new Error('No capture matches the selection (hosts a.example)')), 'No capture matches the selection (hosts a.example)');
  assert.equal(exportFailureReason(withCode('ENOENT: no such file or directory', 'ENOENT')), 'ENOENT: no such file or directory');
  assert.equal(exportFailureReason('plain'), 'plain');
});
