/**
 * A file that cannot be removed, the way a disk keeps one: `chattr +i` (e2fsprogs, which .ci/run
 * installs) set by root, as CI runs. Always undo it (makeRemovable) in a finally, or the test's
 * temporary folder cannot be cleaned.
 */
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** Fails plainly when chattr +i cannot be set here, rather than the test passing unrun. `dir`: where to try, on the test's file system. */
export function assertCanMakeImmutable(dir: string): void {
  const probe = join(mkdtempSync(join(dir, 'probe-')), 'p');
  writeFileSync(probe, '');
  try {
    execFileSync('chattr', ['+i', probe], { stdio: 'pipe' });
    execFileSync('chattr', ['-i', probe], { stdio: 'pipe' });
  } catch (err) {
    assert.fail(`this test makes a file immutable with chattr +i (e2fsprogs, as root): ${err instanceof Error ? err.message : String(err)}`);
  }
}

export const makeImmutable = (path: string): void => void execFileSync('chattr', ['+i', path]);
export const makeRemovable = (path: string): void => void execFileSync('chattr', ['-i', path]);
