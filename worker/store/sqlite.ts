import Database from 'better-sqlite3';
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { readableUrl } from '../url/readable-url';
import { UNICODE_LOWER, URL_TEXT } from './text-search-sql';

/**
 * Opens the SQLite database the way every Tidemark process must: WAL (the server reads while the
 * worker writes), a busy timeout (the two processes wait for each other instead of failing),
 * foreign keys on.
 */
export function openSqlite(path: string): Database.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  db.pragma('journal_mode = WAL');
  db.pragma('busy_timeout = 10000');
  // NORMAL in WAL mode: a committed transaction survives a process crash (SIGKILL); only a power
  // loss can roll back the last commits.
  db.pragma('synchronous = NORMAL');
  db.pragma('foreign_keys = ON');
  // Fewer, larger checkpoints: measured +20–40% frontier link-adds/s (bench/frontier-speed.ts). The
  // crawl processes checkpoint from a thread of their own (wal-checkpointer.ts): this is their fallback.
  db.pragma('wal_autocheckpoint = 10000');
  // SQLite's lower() folds ASCII letters only: the lists' text search folds other letters with it
  // (store/text-search-sql.ts), so "élan" finds "Élan".
  db.function(UNICODE_LOWER, { deterministic: true }, (text: unknown) => (typeof text === 'string' ? text.toLowerCase() : text));
  // Stored URLs write other letters percent-encoded: the same search matches them as read (text-search-sql.ts).
  db.function(URL_TEXT, { deterministic: true }, (url: unknown) => (typeof url === 'string' ? readableUrl(url) : url));
  return db;
}

/** Transaction wrappers per connection, write and read: each runs whatever body it is given. */
const transactionRunners = new WeakMap<Database.Database, { write: <T>(body: () => T) => T; read: <T>(body: () => T) => T }>();

function runnersOf(db: Database.Database): { write: <T>(body: () => T) => T; read: <T>(body: () => T) => T } {
  let runners = transactionRunners.get(db);
  if (!runners) {
    const wrapper = db.transaction((inner: () => unknown) => inner());
    runners = { write: wrapper.immediate as <U>(body: () => U) => U, read: wrapper.deferred as <U>(body: () => U) => U };
    transactionRunners.set(db, runners);
  }
  return runners;
}

/**
 * `body` in a write transaction (in a savepoint when one is open), committed when it returns and
 * rolled back when it throws: `db.transaction(body).immediate()` without its cost. better-sqlite3
 * builds four wrapper functions at each `db.transaction` call (~6 µs here, against ~1.7 µs for the
 * transaction itself), and a crawl's hot paths (leases, links, group commits) open several a page.
 * IMMEDIATE takes the write lock first, waiting for it as busy_timeout says: a deferred transaction
 * that read first, then wrote after the other process (the server, another worker) had committed,
 * failed at once with "database is locked" (SQLITE_BUSY_SNAPSHOT, which no wait cures), and a crawl
 * starting as the cockpit wrote failed so.
 */
export function runInTransaction<T>(db: Database.Database, body: () => T): T {
  return runnersOf(db).write(body);
}

/** `body`'s reads from one snapshot of the database, taking no write lock (a report of several queries). */
export function runInReadTransaction<T>(db: Database.Database, body: () => T): T {
  return runnersOf(db).read(body);
}

export { UNICODE_LOWER, URL_TEXT };

/** Timestamps as the Prisma adapter writes them (ISO 8601 with an explicit UTC offset). */
export function sqlDate(date: Date): string {
  return date.toISOString().replace('Z', '+00:00');
}

/** Whether the database has the table: the engine creates its own (engine_*) when a crawl first needs them. */
export function tableExists(db: Database.Database, name: string): boolean {
  return db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?").get(name) !== undefined;
}

/** Whether the table has the column (an engine table made by an older Tidemark may lack it). */
export function columnExists(db: Database.Database, table: string, column: string): boolean {
  return (db.prepare(`PRAGMA table_info(${table})`).all() as { name: string }[]).some((c) => c.name === column);
}

/** Adds a column to an engine table made before it (SQLite has no ADD COLUMN IF NOT EXISTS). */
export function addMissingColumn(db: Database.Database, table: string, column: string, definition: string): void {
  if (!columnExists(db, table, column)) db.exec(`ALTER TABLE ${table} ADD COLUMN ${column} ${definition}`);
}

/**
 * `body` on the row `read` finds, both in one immediate write transaction (the check and the write
 * it decides cannot be split by another connection's write); 'missing' when there is no row.
 */
export function onRowInWriteTransaction<R, T>(db: Database.Database, read: () => R | undefined, body: (row: R) => T): T | 'missing' {
  return db
    .transaction((): T | 'missing' => {
      const row = read();
      return row === undefined ? 'missing' : body(row);
    })
    .immediate();
}
