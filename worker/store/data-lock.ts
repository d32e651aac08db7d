import Database from 'better-sqlite3';
import { accessSync, constants, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

/**
 * One Tidemark process per data folder (the server's, or the CLI's `--out`): a second one would
 * run the same crawls into the same WARC files and cut the first one's open files as "torn" when
 * it starts. The lock is SQLite's exclusive lock on a small file, held for the life of the process:
 * the operating system drops it when the process ends, however it ends, so a restart after a crash
 * never waits for a stale lock to age (as lock files judged by age do) and two starters cannot both
 * take it over. Who holds it is written beside it, for the message.
 */

export const LOCK_FILE = 'tidemark.lock';
/**
 * The cockpit's crawl worker's own lock. The server's lock ends with the server, but its worker
 * outlives it by the pages it finishes (up to HALT_GRACE_MS): a server started again at once
 * must not start a second worker on the folder meanwhile.
 */
export const WORKER_LOCK_FILE = 'tidemark-worker.lock';
/** Who holds `file`, written beside it for the message. */
const holderFile = (file: string) => `${file}.holder.json`;

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

/**
 * What is wrong with data folder `dir`, in words, when making or writing it failed with system
 * error `code`; null for an error that says enough itself (a full disk, say).
 */
export function dataFolderProblem(dir: string, code: string | undefined): string | null {
  switch (code) {
    case 'EEXIST': return `${dir} is a file, not a folder`;
    case 'ENOTDIR': return `${dir} cannot be a folder: a part of its path is a file`;
    case 'EACCES':
    case 'EPERM': return `${dir} cannot be written to: permission denied`;
    case 'EROFS': return `${dir} cannot be written to: the file system is read-only`;
    // mkdir's answer where a folder exists but takes no new ones (/proc, /sys).
    case 'ENOENT': return `${dir} cannot be made: its file system takes no new folders there`;
    default: return null;
  }
}

/**
 * Makes the folders of `dir` that are missing, the outermost first. Not mkdirSync's `recursive`
 * alone: Node 20's spins for ever (100% CPU) where mkdir answers ENOENT with the parent present,
 * as under /proc; made one at a time, that answer is thrown.
 */
export function makeFolders(dir: string): void {
  const missing: string[] = [];
  for (let at = resolve(dir); !existsSync(at) && dirname(at) !== at; at = dirname(at)) missing.push(at);
  for (const folder of missing.reverse()) {
    try {
      mkdirSync(folder);
    } catch (err) {
      // Made by another process meanwhile: the call below tells a folder from a file.
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
  }
  // Every folder now exists, or `dir` is a file: EEXIST then.
  mkdirSync(dir, { recursive: true });
}

/** Makes `dir` if it is missing and checks that this process may write in it; an error in words if not. */
function prepareDataFolder(dir: string): void {
  try {
    makeFolders(dir);
    // Else the lock's SQLite file fails to open, "unable to open database file".
    accessSync(dir, constants.W_OK | constants.X_OK);
  } catch (err) {
    const problem = dataFolderProblem(dir, (err as NodeJS.ErrnoException).code);
    throw problem ? new Error(problem) : err;
  }
}

/** Refused: another process holds the folder. */
export class DataLockedError extends Error {}

// Held open for the life of the process: closing the database would release the lock.
const held = new Map<string, Database.Database>();

/** Locks `dir` (its lock `file`) for this process until it exits, or throws DataLockedError. */
export function holdDataLock(dir: string, what: string, file = LOCK_FILE): void {
  const path = join(dir, file);
  if (held.has(path)) return;
  prepareDataFolder(dir);
  // timeout 0: a held lock is an answer at once, not a wait.
  const db = new Database(path, { timeout: 0 });
  try {
    db.exec('BEGIN EXCLUSIVE');
  } catch (err) {
    db.close();
    if ((err as { code?: string }).code === 'SQLITE_BUSY') throw new DataLockedError(lockHeldMessage(dir, readHolder(dir, file)));
    throw err;
  }
  held.set(path, db);
  const holder: LockHolder = { pid: process.pid, since: new Date().toISOString(), what };
  writeFileSync(join(dir, holderFile(file)), JSON.stringify(holder) + '\n');
}

/**
 * Locks `dir`'s `file` once the process holding it has ended (holdDataLock, tried every `pollMs`);
 * `onWait` is told once, with who holds it.
 */
export async function waitForDataLock(dir: string, what: string, file: string, onWait: (message: string) => void, pollMs = 200): Promise<void> {
  for (let told = false; ; told = true) {
    try {
      return holdDataLock(dir, what, file);
    } catch (err) {
      if (!(err instanceof DataLockedError)) throw err;
      if (!told) onWait(err.message);
    }
    await new Promise((r) => setTimeout(r, pollMs));
  }
}

function readHolder(dir: string, file: string): LockHolder | null {
  try {
    return JSON.parse(readFileSync(join(dir, holderFile(file)), 'utf8')) as LockHolder;
  } catch {
    return null;
  }
}
