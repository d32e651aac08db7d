import type Database from 'better-sqlite3';
import { tableExists } from '../store/sqlite';
import type { RoundReport } from './recrawl-round';

/**
 * The reports of a crawl's finished recrawl rounds, kept for the cockpit (the engine itself needs
 * only the last round, engine_recrawl). Written by RecrawlState.finishRound in the transaction that
 * ends the round, so a round is listed exactly when it counts as finished.
 */

/** What one round did and when it ended (wall-clock ms). */
export type RoundRecord = RoundReport & { finishedAt: number };

/** Rounds kept a crawl: a crawl recrawled every minute for a year would otherwise keep 525,600. */
export const KEPT_ROUNDS = 200;

export const RECRAWL_HISTORY_DDL = `
CREATE TABLE IF NOT EXISTS engine_recrawl_round (
  crawl_id INTEGER NOT NULL,
  round INTEGER NOT NULL,
  finished_at INTEGER NOT NULL,
  pages INTEGER NOT NULL,
  due INTEGER NOT NULL,
  fetched INTEGER NOT NULL,
  changed INTEGER NOT NULL,
  parents_fetched INTEGER NOT NULL,
  new_links INTEGER NOT NULL,
  parent_threshold REAL NOT NULL,
  PRIMARY KEY (crawl_id, round)
) WITHOUT ROWID;
`;

/** Stores a finished round's report and forgets rounds older than the last KEPT_ROUNDS. Call it inside the round's transaction. */
export function saveRound(db: Database.Database, crawlId: number, r: RoundRecord): void {
  db.prepare(
    `INSERT OR REPLACE INTO engine_recrawl_round (crawl_id, round, finished_at, pages, due, fetched, changed, parents_fetched, new_links, parent_threshold)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(crawlId, r.round, r.finishedAt, r.pages, r.due, r.fetched, r.changed, r.parentsFetched, r.newLinks, r.parentThreshold);
  db.prepare('DELETE FROM engine_recrawl_round WHERE crawl_id = ? AND round <= ?').run(crawlId, r.round - KEPT_ROUNDS);
}

/** What the cockpit reads of a crawl's recrawls: the last finished round (0: the initial crawl) and the latest reports. */
export interface StoredRecrawlState {
  last: { round: number; finishedAt: number; parentThreshold: number } | null;
  /** Newest first, at most `limit`. */
  rounds: RoundRecord[];
}

/** A crawl's recrawl state, for reading by the cockpit; creates nothing (no tables: nothing ran yet). */
export function readRecrawlState(db: Database.Database, crawlId: number, limit: number): StoredRecrawlState {
  const lastRow = tableExists(db, 'engine_recrawl')
    ? (db.prepare('SELECT round, finished_at, parent_threshold FROM engine_recrawl WHERE crawl_id = ?').get(crawlId) as { round: number; finished_at: number; parent_threshold: number } | undefined)
    : undefined;
  const last = lastRow ? { round: lastRow.round, finishedAt: lastRow.finished_at, parentThreshold: lastRow.parent_threshold } : null;
  if (!tableExists(db, 'engine_recrawl_round')) return { last, rounds: [] };
  const rows = db
    .prepare(
      `SELECT round, finished_at AS finishedAt, pages, due, fetched, changed, parents_fetched AS parentsFetched, new_links AS newLinks, parent_threshold AS parentThreshold
       FROM engine_recrawl_round WHERE crawl_id = ? ORDER BY round DESC LIMIT ?`,
    )
    .all(crawlId, limit) as RoundRecord[];
  return { last, rounds: rows };
}
