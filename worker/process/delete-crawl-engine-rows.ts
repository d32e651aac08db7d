import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';

/** Rowids of one table a statement of the deletion goes through, at most. */
export const DELETE_BATCH_ROWS = 5_000;

/** How many rows a deletion took, and in how many statements. */
export interface DeletedRows {
  rows: number;
  statements: number;
}

/**
 * Deletes a deleted crawl's rows of the frontier's and the engine's own tables (frontier_*, engine_*,
 * keyed by crawl_id, with no foreign key to Crawl), `batchRows` rowids to a statement, yielding to
 * the event loop between them: in one statement, a crawl of 550,000 frontier URLs held SQLite's write
 * lock 6.1 s, and the server's thread with it, so every request to the cockpit and every write of a
 * running crawl waited. Call it once the Crawl row is deleted: ids are never reused (AUTOINCREMENT),
 * so no crawl gains rows meanwhile. A table without rowids (an engine table of a few rows per feed
 * or round) goes in one statement. Stops quietly if the database is closed meanwhile.
 */
export async function deleteCrawlEngineRows(db: Database.Database, crawlId: number, batchRows = DELETE_BATCH_ROWS): Promise<DeletedRows> {
  const tables = db
    .prepare("SELECT name, sql LIKE '%WITHOUT ROWID%' AS withoutRowid FROM sqlite_master WHERE type = 'table' AND (name LIKE 'frontier_%' OR name LIKE 'engine_%')")
    .all() as { name: string; withoutRowid: number }[];
  const deleted: DeletedRows = { rows: 0, statements: 0 };
  for (const { name, withoutRowid } of tables) {
    if (!db.open) return deleted;
    const hasCrawlId = (db.prepare(`PRAGMA table_info("${name}")`).all() as { name: string }[]).some((c) => c.name === 'crawl_id');
    if (!hasCrawlId) continue;
    if (withoutRowid) {
      deleted.rows += db.prepare(`DELETE FROM "${name}" WHERE crawl_id = ?`).run(crawlId).changes;
      deleted.statements++;
      continue;
    }
    const { lo, hi } = db.prepare(`SELECT MIN(rowid) AS lo, MAX(rowid) AS hi FROM "${name}" WHERE crawl_id = ?`).get(crawlId) as { lo: number | null; hi: number | null };
    if (lo === null || hi === null) continue;
    // By ranges of rowids, read in the table's own order: through an index on crawl_id, a batch
    // reached the rows in the index's order (a URL's hash) and took 2.4 times as long in all.
    const batch = db.prepare(`DELETE FROM "${name}" NOT INDEXED WHERE rowid >= ? AND rowid < ? AND crawl_id = ?`);
    for (let from = lo; from <= hi; from += batchRows) {
      deleted.rows += batch.run(from, from + batchRows, crawlId).changes;
      deleted.statements++;
      if (from + batchRows > hi) break;
      await nextTurn();
      if (!db.open) return deleted;
    }
  }
  return deleted;
}
