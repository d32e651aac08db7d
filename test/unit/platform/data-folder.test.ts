import { test } from 'node:test';
import assert from 'node:assert/strict';
import { dataFolderProblem } from '../../../worker/store/data-lock';

// Before, a folder that could not be written was "unable to open database file" (SQLite's words
// about the lock file), a file in the way "EEXIST: file already exists, mkdir …".
test('what is wrong with a data folder, in words', () => {
  assert.equal(dataFolderProblem('/d/out', 'EEXIST'), '/d/out is a file, not a folder');
  assert.equal(dataFolderProblem('/d/out', 'ENOTDIR'), '/d/out cannot be a folder: a part of its path is a file');
  assert.equal(dataFolderProblem('/d/out', 'EACCES'), '/d/out cannot be written to: permission denied');
  assert.equal(dataFolderProblem('/d/out', 'EPERM'), '/d/out cannot be written to: permission denied');
  assert.equal(dataFolderProblem('/d/out', 'EROFS'), '/d/out cannot be written to: the file system is read-only');
  assert.equal(dataFolderProblem('/d/out', 'ENOSPC'), null);
});
