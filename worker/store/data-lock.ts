import Database from 'better-sqlite3';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * One Tidemark process per data folder (the server's, or the CLI's `--out`): a second one would
 * run the same crawls into the same WARC files and cut the first one's open files as "torn" when
 * it starts. The lock is SQLite's exclusive lock on a small file, held for the life of the process:
 * the operating system drops it when the process ends, however it ends, so a restart after a crash
 * never waits for a stale lock to age (as lock files judged by age do) and two starters cannot both
 * take it over. Who holds it is written beside it, for the message.
 */

export const LOCK_FILE = 'tidemark.lock';
const HOLDER_FILE = 'tidemark.lock.holder.json';

export interface LockHolder {
  pid: number;
  since: string;
  /** What holds it, e.g. "the cockpit on port 3000" or "a tidemark crawl". */
  what: string;
}

/** The message when `dir` is locked; `holder` as its file says, when it can be read. */
export function lockHeldMessage(dir: string, holder: LockHolder | null): string {
  const who = holder ? `${holder.what} (process ${holder.pid}, since ${holder.since})` : 'another Tidemark process';
  return `${dir} is in use by ${who}: two Tidemark processes on one data folder would write over each other's crawls. Stop that one first, or use another folder`;
}

/** Refused: another process holds the folder. */
export class DataLockedError extends Error {}

// Held open for the life of the process: closing the database would release the lock.
const held = new Map<string, Database.Database>();

/** Locks `dir` for this process until it exits, or throws DataLockedError. */
export function holdDataLock(dir: string, what: string): void {
  if (held.has(dir)) return;
  mkdirSync(dir, { recursive: true });
  // timeout 0: a held lock is an answer at once, not a wait.
  const db = new Database(join(dir, LOCK_FILE), { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataLockedError(lockHeldMessage(dir, readHolder(dir)));
    throw err;
  }
  held.set(dir, db);
  const holder: LockHolder = { pid: process.pid, since: new Date().toISOString(), what };
  writeFileSync(join(dir, HOLDER_FILE), JSON.stringify(holder) + '\n');
}

function readHolder(dir: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(join(dir, HOLDER_FILE), 'utf8')) as LockHolder;
  } catch {
    return null;
  }
}
