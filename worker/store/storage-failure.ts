/**
 * Failures of the crawl's own storage (the WARC files' disk, the database), told apart from a
 * page's failures: a full disk says nothing about the page being written, so its URL goes back to
 * the queue and the crawl pauses until there is room, rather than failing every page after it.
 */

/** Error codes of Node's file system and of SQLite (better-sqlite3's `code`) that mean the storage, not the page. */
const STORAGE_CODES: Record<string, string> = {
  ENOSPC: 'the disk is full',
  SQLITE_FULL: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  EROFS: 'the disk is read-only',
  SQLITE_READONLY: 'the disk is read-only',
  EIO: 'the disk failed',
  SQLITE_IOERR: 'the disk failed',
};

function codeOf(err: unknown): string | null {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return null;
  // SQLite's extended codes: SQLITE_IOERR_WRITE, SQLITE_READONLY_DBMOVED, …
  const base = code.startsWith('SQLITE_') ? code.split('_').slice(0, 2).join('_') : code;
  return base in STORAGE_CODES ? base : null;
}

export function isStorageFailure(err: unknown): boolean {
  return codeOf(err) !== null;
}

/** Why the crawl paused, for the archivist: what happened and what to do. */
export function storageFailureMessage(err: unknown): string {
  const what = STORAGE_CODES[codeOf(err) ?? ''] ?? 'the storage failed';
  const detail = err instanceof Error ? err.message : String(err);
  return `Paused: ${what} (${detail}). Nothing acknowledged is lost; the pages under way go back to the queue. Make room, then resume the crawl.`;
}
