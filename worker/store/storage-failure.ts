/**
 * Failures of the crawl's own storage (the WARC files' disk, the database, the WARC writer's
 * compression threads), told apart from a page's failures: a full disk says nothing about the page
 * being written, so its URL goes back to the queue and the crawl pauses until there is room, rather
 * than failing every page after it.
 */

/** Error codes of Node's file system and of SQLite (better-sqlite3's `code`) that mean the storage, not the page. */
const STORAGE_CODES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  SQLITE_FULL: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  // A file as large as its file system (FAT's 4 GB) or the process's limit (ulimit -f) allows.
  EFBIG: 'a WARC file reached the largest size allowed',
  EROFS: 'the disk is read-only',
  SQLITE_READONLY: 'the disk is read-only',
  EIO: 'the disk failed',
  SQLITE_IOERR: 'the disk failed',
};

/**
 * Failures whose message says what happened (warc/gzip-pool.ts CompressionThreadsFailure,
 * warc/warc-writer.ts WarcWriterFailure), and what to do about them.
 */
const SELF_EXPLAINED: Record<string, string> = {
  TIDEMARK_GZIP_THREADS: 'Free memory (or threads) for them, then resume the crawl.',
  TIDEMARK_WARC_WRITER: 'Resume the crawl: its next start recovers the WARC files.',
};

function codeOf(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  // SQLite's extended codes: SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, …
  const base = code.startsWith('SQLITE_') ? code.split('_').slice(0, 2).join('_') : code;
  return base in STORAGE_CODES || base in SELF_EXPLAINED ? base : null;
}

export function isStorageFailure(err: unknown): boolean {
  return codeOf(err) !== null;
}

/**
 * Whether SQLite refused a statement (better-sqlite3's SqliteError: a constraint, a trigger's
 * RAISE(ABORT), a lock held too long) for a reason other than the storage itself (isStorageFailure).
 */
export function isDatabaseRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_') && !isStorageFailure(err);
}

/** What a storage failure means in plain words ("the disk is full"), or null for any other error. */
export function storageProblem(err: unknown): string | null {
  const code = codeOf(err);
  return code && code in STORAGE_CODES ? STORAGE_CODES[code]! : null;
}

/** Why the crawl paused, for the archivist: what happened and what to do. */
export function storageFailureMessage(err: unknown): string {
  const code = codeOf(err) ?? '';
  const detail = err instanceof Error ? err.message : String(err);
  const lost = 'Nothing acknowledged is lost; the pages under way go back to the queue.';
  if (code in SELF_EXPLAINED) return `Paused: ${detail}. ${lost} ${SELF_EXPLAINED[code]}`;
  return `Paused: ${STORAGE_CODES[code] ?? 'the storage failed'} (${detail}). ${lost} Make room, then resume the crawl.`;
}
