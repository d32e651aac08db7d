import type Database from 'better-sqlite3';
import { lstatSync } from 'node:fs';
import { relative } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { crawlSpoolDir, crawlWarcDir, exportDir } from '../store/data-layout';
import { errnoCode, errnoMessage, folderEntries, removeEntries, type FolderEntry } from '../store/folder-removal';
import { sqlDate } from '../store/sqlite';
import { doublingDelayMs } from './backoff';
import { freeLockAfter } from './busy-retry-gap';
import { prunePolitenessRows } from './prune-politeness';

/** Rowids of one table a statement of the deletion goes through, at most. */
export const DELETE_BATCH_ROWS = 5_000;

/** How long one statement of the deletion should hold the write lock, about. */
export const DELETE_BATCH_TARGET_MS = 100;

/** The fewest rowids a statement goes through, however slow the table. */
const MIN_BATCH_ROWS = 250;

/**
 * The rowids the next statement goes through, from the last one's and how long it held the lock:
 * halved while over twice the target, doubled back up to `maxRows` while under half of it. At
 * 1,000,000 captures, batches of a fixed 5,000 held the lock up to ~0.9 s once the indexes no longer
 * fitted the page cache. Pure.
 */
export function nextBatchRows(rows: number, heldMs: number, maxRows: number, targetMs = DELETE_BATCH_TARGET_MS): number {
  if (heldMs > 2 * targetMs) return Math.max(Math.min(MIN_BATCH_ROWS, maxRows), Math.floor(rows / 2));
  if (heldMs < targetMs / 2) return Math.min(maxRows, rows * 2);
  return rows;
}

/** How many rows a deletion took, in how many statements, and the longest statement (ms). */
export interface DeletedRows {
  rows: number;
  statements: number;
  longestMs: number;
}

/**
 * What the deletion does between two statements, given how long the last one held the write lock:
 * by default it leaves the lock free long enough for a writer that waited to take it (freeLockAfter).
 */
export type BetweenBatches = (heldMs: number) => Promise<void>;

export const freeTheLock: BetweenBatches = (heldMs) => sleep(freeLockAfter(heldMs));

/** A table holding rows of a crawl, and the column naming the crawl. */
interface CrawlTable {
  name: string;
  column: string;
  withoutRowid: boolean;
}

/**
 * The tables holding a crawl's rows: those with a foreign key to Crawl (captures, log, runs, web
 * objects, annotations …), the coherence tables (crawlId, no foreign key) and the frontier's and
 * the engine's own (frontier_*, engine_*, crawl_id, no foreign key). A table another of them refers
 * to comes after it: annotations and web objects go before the captures they point at, or deleting
 * a capture would delete its annotations or set its objects' captureId one by one.
 */
function crawlTables(db: Database.Database): CrawlTable[] {
  const tables = db
    .prepare(
      `SELECT m.name, f."from" AS "column", m.sql LIKE '%WITHOUT ROWID%' AS withoutRowid
         FROM sqlite_master m JOIN pragma_foreign_key_list(m.name) f ON f."table" = 'Crawl' WHERE m.type = 'table'
       UNION ALL
       SELECT m.name, c.name, m.sql LIKE '%WITHOUT ROWID%' FROM sqlite_master m JOIN pragma_table_info(m.name) c
         WHERE m.type = 'table' AND ((m.name IN ('CoherencePage', 'CoherenceRun') AND c.name = 'crawlId') OR ((m.name LIKE 'frontier\\_%' ESCAPE '\\' OR m.name LIKE 'engine\\_%' ESCAPE '\\') AND c.name = 'crawl_id'))`,
    )
    .all() as { name: string; column: string; withoutRowid: number }[];
  const names = new Set(tables.map((t) => t.name));
  const referredTo = new Set(
    tables.flatMap((t) => (db.prepare('SELECT "table" FROM pragma_foreign_key_list(?)').pluck().all(t.name) as string[]).filter((n) => names.has(n) && n !== t.name)),
  );
  return tables
    .map((t) => ({ name: t.name, column: t.column, withoutRowid: t.withoutRowid === 1 }))
    .sort((a, b) => Number(referredTo.has(a.name)) - Number(referredTo.has(b.name)));
}

/**
 * Deletes the rows of a crawl whose Crawl row is deleted (deleteCrawlRow) from every table holding
 * them, at most `batchRows` rowids to a statement (fewer while a statement holds the lock longer
 * than DELETE_BATCH_TARGET_MS: nextBatchRows), each its own short transaction, doing `between` after
 * each: in one transaction (the cascade of deleting the Crawl row) a crawl of a million captures
 * held SQLite's write lock for the whole deletion, and the other crawls' workers and the cockpit
 * waited on their busy timeout, then failed with "database is locked". Ids are never reused
 * (AUTOINCREMENT) and nothing writes a deleted crawl's rows, so none appear meanwhile. A table
 * without rowids (an engine table of a few rows per feed or round) goes in one statement. Stops
 * quietly if the database is closed meanwhile; what is left is deleted when it is called again.
 */
export async function deleteCrawlRows(db: Database.Database, crawlId: number, between: BetweenBatches = freeTheLock, batchRows = DELETE_BATCH_ROWS): Promise<DeletedRows> {
  const deleted: DeletedRows = { rows: 0, statements: 0, longestMs: 0 };
  const timed = (statement: Database.Statement, ...params: number[]): number => {
    const start = performance.now();
    deleted.rows += statement.run(...params).changes;
    const ms = performance.now() - start;
    deleted.statements++;
    deleted.longestMs = Math.max(deleted.longestMs, ms);
    return ms;
  };
  for (const { name, column, withoutRowid } of crawlTables(db)) {
    if (!db.open) return deleted;
    if (withoutRowid) {
      await between(timed(db.prepare(`DELETE FROM "${name}" WHERE "${column}" = ?`), crawlId));
      continue;
    }
    const { lo, hi } = db.prepare(`SELECT MIN(rowid) AS lo, MAX(rowid) AS hi FROM "${name}" WHERE "${column}" = ?`).get(crawlId) as { lo: number | null; hi: number | null };
    if (lo === null || hi === null) continue;
    // By ranges of rowids, read in the table's own order: through an index on crawl_id, a batch of
    // the frontier reached the rows in the index's order (a URL's hash) and took 2.4 times as long in all.
    const batch = db.prepare(`DELETE FROM "${name}" NOT INDEXED WHERE rowid >= ? AND rowid < ? AND "${column}" = ?`);
    for (let from = lo, rows = batchRows; from <= hi; ) {
      const heldMs = timed(batch, from, from + rows, crawlId);
      from += rows;
      rows = nextBatchRows(rows, heldMs, batchRows);
      await between(heldMs);
      if (!db.open) return deleted;
    }
  }
  return deleted;
}

/** The wait before a deletion's files are tried again after their first failure, doubling with each one in a row up to FILES_RETRY_MAX_MS. */
export const FILES_RETRY_FIRST_MS = 60_000;
export const FILES_RETRY_MAX_MS = 3_600_000;

/**
 * A folder of a deleted crawl (or of one of its exports) that could not be removed whole, as
 * CrawlDeletion.stuckFiles keeps it (JSON) and GET /api/crawl-deletions shows it.
 */
export interface StuckFiles {
  /** The folder under the data folder: `warcs/7`, `spool/7`, `exports/3`; null when the deletion's list of exports is no list. */
  folder: string | null;
  /** What stopped its removal, under the data folder: a file or folder inside it, or itself; null as `folder`. */
  path: string | null;
  /** `remove`: `path` could not be removed; `read`: it could not be read; `exports-list`: the row's list of its exports is no list of ids (a hand-edited row). */
  failed: 'remove' | 'read' | 'exports-list';
  /** The system's code (EPERM, EACCES, EBUSY …); `invalid` for `exports-list`. */
  code: string;
  /** The system's words for it (`operation not permitted`), or what is wrong with the list. */
  message: string;
}

/** One StuckFiles as the server log and CrawlDeletion.filesError say it: `warcs/7/a.warc.gz could not be removed (EPERM)`. */
export function stuckFilesText(stuck: StuckFiles): string {
  return stuck.failed === 'exports-list' ? stuck.message : `${stuck.path} could not be ${stuck.failed === 'read' ? 'read' : 'removed'} (${stuck.code})`;
}

/**
 * Removes a deleted crawl's WARC and spool folders and its exports' folders (one not there is no
 * error), never following a symbolic link (one is removed as a link), and goes on past what cannot
 * be removed (an immutable file, a folder without write permission, EBUSY): returns, per folder,
 * what stopped its removal; empty when all are gone.
 */
export function removeCrawlFiles(dataDir: string, crawlId: number, exportIds: readonly number[]): StuckFiles[] {
  // The spool folder is empty unless the worker died in the crawl's last run (a paused crawl is not run again to empty it).
  const folders = [crawlWarcDir(dataDir, crawlId), crawlSpoolDir(dataDir, crawlId), ...exportIds.map((id) => exportDir(dataDir, id))];
  return folders.map((dir) => removeFolder(dataDir, dir)).filter((stuck) => stuck !== null);
}

function removeFolder(dataDir: string, dir: string): StuckFiles | null {
  const folder = relative(dataDir, dir);
  let entries: FolderEntry[];
  try {
    entries = lstatSync(dir).isDirectory() ? folderEntries(dir) : [{ path: dir, folder: false }];
  } catch (err) {
    if (errnoCode(err) === 'ENOENT') return null;
    return { folder, path: relative(dataDir, (err as NodeJS.ErrnoException).path ?? dir), failed: 'read', code: errnoCode(err), message: errnoMessage(err) };
  }
  const failure = removeEntries(entries, [], dataDir);
  return failure && { folder, ...failure, failed: 'remove' };
}

/** The export ids a CrawlDeletion row lists (deleteCrawlRow writes them); null for a list that is not one (a hand-edited row). */
function listedExportIds(json: string): number[] | null {
  try {
    const ids: unknown = JSON.parse(json);
    return Array.isArray(ids) && ids.every((id) => Number.isSafeInteger(id) && id > 0) ? (ids as number[]) : null;
  } catch {
    return null;
  }
}

/**
 * Finishes the deletions asked for (CrawlDeletion rows), one crawl after another by id: its rows
 * (deleteCrawlRows), the hosts' politeness rows no crawl needs any more, its files, and last its
 * CrawlDeletion row, so a deletion a stopped server left midway is taken up again by the next
 * start's wake(). Files that cannot all be removed keep the row, with the error and a retry time
 * (FILES_RETRY_FIRST_MS, doubling), logged, and the pass goes on with the next deletion: removing
 * files first, lowest crawl id first, the same failure stopped every later pass at that crawl, and
 * no other crawl's rows were deleted again. The server holds one (services()).
 */
export class CrawlDeletions {
  private passes: Promise<void> = Promise.resolve();
  private retryTimer: NodeJS.Timeout | null = null;

  constructor(
    private readonly opts: {
      db: Database.Database;
      dataDir: string;
      log: (line: string) => void;
      between?: BetweenBatches;
      /** The wait before files are tried again after their first failure, and the longest (FILES_RETRY_*_MS by default). */
      filesRetryMs?: { first: number; max: number };
    },
  ) {}

  /**
   * Goes through the pending deletions once the one under way is done (a pass that finds none costs
   * one query): a deletion asked for while a pass ends is never left waiting for the next start.
   * A deletion whose files wait for their retry time is passed over unless `retryFilesNow` (the
   * server's start: an admin who made them removable restarts it). Resolves when that pass is done;
   * it never rejects (a failure is logged, and retried at the next wake).
   */
  wake(opts: { retryFilesNow?: boolean } = {}): Promise<void> {
    this.passes = this.passes.then(() => this.pass(opts.retryFilesNow ?? false));
    return this.passes;
  }

  /**
   * The DELETE route's try, so that it answers with the files gone: what cannot be removed is
   * logged and kept on the deletion's row (GET /api/crawl-deletions shows it at once), and tried
   * again by the pass after the crawl's rows.
   */
  removeFilesAtOnce(crawlId: number): void {
    this.settleFiles(crawlId, false);
  }

  /**
   * "Try again now" (POST /api/crawl-deletions/:crawlId/retry): the files of deletion `crawlId`,
   * which could not all be removed, tried at once rather than at its retry time, as the pass would
   * (a deletion whose rows are still being deleted keeps its row for the pass); the retry timer is
   * set again. True when they are all removed now, false when some are still stuck, null when no
   * deletion of that crawl has files that could not be removed (none, or finished meanwhile).
   * Synchronous, as the DELETE route's try: a pass at work on the same deletion meanwhile finds its
   * row as this left it (settleFiles reads it again).
   */
  retryFilesNow(crawlId: number): boolean | null {
    const { db } = this.opts;
    const row = db.prepare('SELECT retryFilesAt FROM CrawlDeletion WHERE crawlId = ? AND (filesError IS NOT NULL OR stuckFiles IS NOT NULL)').get(crawlId) as { retryFilesAt: string | null } | undefined;
    if (!row) return null;
    const stuck = this.settleFiles(crawlId, row.retryFilesAt !== null);
    this.scheduleRetry();
    return stuck === null || stuck.length === 0;
  }

  private async pass(retryFilesNow: boolean): Promise<void> {
    const { db, log } = this.opts;
    const next = (after: number) =>
      db.open
        ? (db.prepare('SELECT crawlId FROM CrawlDeletion WHERE crawlId > ? AND (? OR retryFilesAt IS NULL OR retryFilesAt <= ?) ORDER BY crawlId LIMIT 1')
            .pluck().get(after, Number(retryFilesNow), sqlDate(new Date())) as number | undefined)
        : undefined;
    for (let crawlId = next(0); crawlId !== undefined; crawlId = next(crawlId)) {
      try {
        if (!(await this.finish(crawlId))) return;
      } catch (err) {
        log(`deleting crawl ${crawlId} stopped (taken up again at the next deletion or start; the next deletion goes on): ${err instanceof Error ? err.message : String(err)}`);
      }
    }
    this.scheduleRetry();
  }

  /** One deletion, its files last; false when the database was closed meanwhile (the server stops). */
  private async finish(crawlId: number): Promise<boolean> {
    const { db } = this.opts;
    await deleteCrawlRows(db, crawlId, this.opts.between);
    if (!db.open) return false;
    await prunePolitenessRows(db);
    if (!db.open) return false;
    this.settleFiles(crawlId, true);
    return true;
  }

  /**
   * Removes the files of deletion `crawlId` (its exports' folders as its row lists them) and writes
   * the outcome on its row, read now (a try of the route's or of the pass may have changed it):
   * all removed, the row is deleted once the crawl's rows are (`rowsDeleted`), else its error is
   * cleared; something stuck is kept (`filesError`, `stuckFiles`) and logged, and once the rows are
   * deleted counted as a failure in a row with the time of the next try (FILES_RETRY_*, doubling).
   * What is stuck ([] when nothing), or null when the row is gone (finished meanwhile).
   */
  private settleFiles(crawlId: number, rowsDeleted: boolean): StuckFiles[] | null {
    const { db, dataDir, log } = this.opts;
    const row = db.prepare('SELECT exportIds, filesFailures FROM CrawlDeletion WHERE crawlId = ?').get(crawlId) as { exportIds: string; filesFailures: number } | undefined;
    if (!row) return null;
    const listed = listedExportIds(row.exportIds);
    const stuck = removeCrawlFiles(dataDir, crawlId, listed ?? []);
    if (listed === null) {
      stuck.push({ folder: null, path: null, failed: 'exports-list', code: 'invalid', message: `its exports' ids (${JSON.stringify(row.exportIds)}) are not a list of ids: their folders were not removed` });
    }
    const error = stuck.length ? stuck.map(stuckFilesText).join('; ') : null;
    const stuckJson = stuck.length ? JSON.stringify(stuck) : null;
    if (!rowsDeleted) {
      db.prepare('UPDATE CrawlDeletion SET filesError = ?, stuckFiles = ? WHERE crawlId = ?').run(error, stuckJson, crawlId);
      if (error) log(`crawl ${crawlId} is deleted, but not all its files could be removed from ${dataDir} (tried again once its rows are deleted): ${error}`);
      return stuck;
    }
    if (!error) {
      db.prepare('DELETE FROM CrawlDeletion WHERE crawlId = ?').run(crawlId);
      return stuck;
    }
    const { first, max } = this.opts.filesRetryMs ?? { first: FILES_RETRY_FIRST_MS, max: FILES_RETRY_MAX_MS };
    const inARow = row.filesFailures + 1;
    const retryAt = new Date(Date.now() + doublingDelayMs(inARow, first, max));
    db.prepare('UPDATE CrawlDeletion SET filesError = ?, stuckFiles = ?, filesFailures = ?, retryFilesAt = ? WHERE crawlId = ?').run(error, stuckJson, inARow, sqlDate(retryAt), crawlId);
    log(`crawl ${crawlId}'s rows are deleted, but not all its files could be removed from ${dataDir} (${inARow} time${inARow === 1 ? '' : 's'} in a row; tried again at ${retryAt.toISOString()}): ${error}`);
    return stuck;
  }

  /** A pass at the soonest retry time of the deletions whose files wait (none: no timer); it keeps no process alive. */
  private scheduleRetry(): void {
    const { db } = this.opts;
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = null;
    const soonest = db.open ? (db.prepare('SELECT MIN(retryFilesAt) FROM CrawlDeletion').pluck().get() as string | null) : null;
    if (soonest === null) return;
    const waitMs = Math.min(Math.max(0, Date.parse(soonest) - Date.now()), 2 ** 31 - 1);
    this.retryTimer = setTimeout(() => void this.wake(), waitMs).unref();
  }
}
