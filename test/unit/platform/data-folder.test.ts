import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dataFolderProblem, makeFolders } from '../../../worker/store/data-lock';

// Before, a folder that could not be written was "unable to open database file" (SQLite's words
// about the lock file), a file in the way "EEXIST: file already exists, mkdir …".
test('what is wrong with a data folder, in words', () => {
  assert.equal(dataFolderProblem('/d/out', 'EEXIST'), '/d/out is a file, not a folder');
  assert.equal(dataFolderProblem('/d/out', 'ENOTDIR'), '/d/out cannot be a folder: a part of its path is a file');
  assert.equal(dataFolderProblem('/d/out', 'EACCES'), '/d/out cannot be written to: permission denied');
  assert.equal(dataFolderProblem('/d/out', 'EPERM'), '/d/out cannot be written to: permission denied');
  assert.equal(dataFolderProblem('/d/out', 'EROFS'), '/d/out cannot be written to: the file system is read-only');
  assert.equal(dataFolderProblem('/d/out', 'ENOENT'), '/d/out cannot be made: its file system takes no new folders there');
  assert.equal(dataFolderProblem('/d/out', 'ENOSPC'), null);
});

test('makeFolders makes the missing folders, refuses a file in the way, and ends under /proc (mkdirSync recursive spun for ever there)', { timeout: 20_000 }, () => {
  const base = mkdtempSync(join(tmpdir(), 'tm-folders-'));
  try {
    makeFolders(join(base, 'a/b/c'));
    assert.ok(statSync(join(base, 'a/b/c')).isDirectory());
    makeFolders(join(base, 'a/b/c')); // already there: nothing to do
    writeFileSync(join(base, 'f'), '');
    assert.throws(() => makeFolders(join(base, 'f')), { code: 'EEXIST' });
    assert.throws(() => makeFolders(join(base, 'f/g')), { code: 'ENOTDIR' });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
  // Linux refuses new folders under /proc with ENOENT.
  assert.throws(() => makeFolders('/proc/tidemark-no-such/out'), { code: 'ENOENT' });
});
