import type Database from 'better-sqlite3';
import { columnExists, tableExists } from '../store/sqlite';
import type { RoundReport } from './recrawl-round';

/**
 * The reports of a crawl's finished recrawl rounds, kept for the cockpit (the engine itself needs
 * only the last round, engine_recrawl). Written by RecrawlState.finishRound in the transaction that
 * ends the round, so a round is listed exactly when it counts as finished. Beside them, the rounds'
 * failures (RecrawlState.fail, from IncrementalDriver): the cockpit's, and the engine's retry time.
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
  -- Due pages the round set out to refetch; backed_off: due pages of hosts in back-off, left out.
  due INTEGER NOT NULL,
  backed_off INTEGER NOT NULL DEFAULT 0,
  fetched INTEGER NOT NULL,
  changed INTEGER NOT NULL,
  parents_fetched INTEGER NOT NULL,
  new_links INTEGER NOT NULL,
  parent_threshold REAL NOT NULL,
  PRIMARY KEY (crawl_id, round)
) WITHOUT ROWID;
-- Rounds that failed (an error thrown out of the round), one row a round, rewritten at each of its
-- failures and kept once it finishes (its row above then says it did). A table of its own, so a
-- database whose engine_recrawl_round was made before it gets it by this statement alone.
CREATE TABLE IF NOT EXISTS engine_recrawl_failure (
  crawl_id INTEGER NOT NULL,
  round INTEGER NOT NULL,
  failures INTEGER NOT NULL,
  first_failed_at INTEGER NOT NULL,
  -- The last failure: when, its error's message (at most MAX_FAILURE_MESSAGE characters), the page
  -- the round was refetching then (null: between pages), and when the round may run again (null:
  -- when the crawl is resumed, for a failure that paused it).
  failed_at INTEGER NOT NULL,
  message TEXT NOT NULL,
  url TEXT,
  retry_at INTEGER,
  PRIMARY KEY (crawl_id, round)
) WITHOUT ROWID;
`;

/** Stores a finished round's report and forgets rounds older than the last KEPT_ROUNDS. Call it inside the round's transaction. */
export function saveRound(db: Database.Database, crawlId: number, r: RoundRecord): void {
  db.prepare(
    `INSERT OR REPLACE INTO engine_recrawl_round (crawl_id, round, finished_at, pages, due, backed_off, fetched, changed, parents_fetched, new_links, parent_threshold)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).run(crawlId, r.round, r.finishedAt, r.pages, r.due, r.backedOff, r.fetched, r.changed, r.parentsFetched, r.newLinks, r.parentThreshold);
  db.prepare('DELETE FROM engine_recrawl_round WHERE crawl_id = ? AND round <= ?').run(crawlId, r.round - KEPT_ROUNDS);
  db.prepare('DELETE FROM engine_recrawl_failure WHERE crawl_id = ? AND round <= ?').run(crawlId, r.round - KEPT_ROUNDS);
}

/** A recrawl round that failed, as stored (engine_recrawl_failure). Times: wall-clock ms. */
export interface RoundFailure {
  round: number;
  /** Times the round failed. */
  failures: number;
  firstFailedAt: number;
  /** The last failure. */
  failedAt: number;
  message: string;
  /** The page the round was refetching when it failed; null: between pages. */
  url: string | null;
  /** Not run again before then; null: when the crawl is resumed (the failure paused it). */
  retryAt: number | null;
}

/** Longest error message stored: an error may quote a whole page or statement. */
export const MAX_FAILURE_MESSAGE = 500;

/** An error's message for people, on one line and at most MAX_FAILURE_MESSAGE characters. */
export function failureMessage(err: unknown): string {
  const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();
  const line = (err instanceof Error ? oneLine(err.message) || oneLine(err.name) : oneLine(String(err))) || 'unknown error';
  const chars = Array.from(line);
  return chars.length <= MAX_FAILURE_MESSAGE ? line : `${chars.slice(0, MAX_FAILURE_MESSAGE - 1).join('')}…`;
}

const SELECT_FAILURE = `SELECT round, failures, first_failed_at AS firstFailedAt, failed_at AS failedAt, message, url, retry_at AS retryAt FROM engine_recrawl_failure`;

/** Stores one more failure of `f.round` and returns the round's failure record. */
export function saveFailure(db: Database.Database, crawlId: number, f: { round: number; at: number; message: string; url: string | null; retryAt: number | null }): RoundFailure {
  db.prepare(
    `INSERT INTO engine_recrawl_failure (crawl_id, round, failures, first_failed_at, failed_at, message, url, retry_at) VALUES (?, ?, 1, ?, ?, ?, ?, ?)
     ON CONFLICT (crawl_id, round) DO UPDATE SET failures = failures + 1, failed_at = excluded.failed_at, message = excluded.message, url = excluded.url, retry_at = excluded.retry_at`,
  ).run(crawlId, f.round, f.at, f.at, f.message, f.url, f.retryAt);
  return db.prepare(`${SELECT_FAILURE} WHERE crawl_id = ? AND round = ?`).get(crawlId, f.round) as RoundFailure;
}

/** The failure of the round after `lastRound` (the one under way, not finished), if it failed. */
export function pendingFailure(db: Database.Database, crawlId: number, lastRound: number): RoundFailure | null {
  if (!tableExists(db, 'engine_recrawl_failure')) return null;
  return (db.prepare(`${SELECT_FAILURE} WHERE crawl_id = ? AND round > ? ORDER BY round DESC LIMIT 1`).get(crawlId, lastRound) as RoundFailure | undefined) ?? null;
}

/**
 * The crawl-log outcome of a round's failure. No fetch of its URL (the page the round was at, else
 * the first seed) failed, so the crawl's counts of failed URLs and the hosts report leave it out.
 */
export const ROUND_FAILED_OUTCOME = 'recrawl-round-failed';

/** The crawl-log outcome of a round that finished after failing (round-failure-log.ts). */
export const ROUND_RECOVERED_OUTCOME = 'recrawl-round-recovered';

/**
 * The crawl-log outcome of a host a recrawl round got no answer from, put into back-off or kept in
 * it, or that answered again after one (recrawl-host-backoff.ts). Its pages' own failures are logged
 * as theirs.
 */
export const HOST_BACKOFF_OUTCOME = 'recrawl-host-backoff';

/** The crawl-log outcomes of recrawl rounds, not of a URL's fetch: no failure counter nor host counts them. */
export const ROUND_OUTCOMES = [ROUND_FAILED_OUTCOME, ROUND_RECOVERED_OUTCOME, HOST_BACKOFF_OUTCOME] as const;

const iso = (ms: number) => new Date(ms).toISOString();

/** When a failed round runs again, in a crawl-log message. */
const retryWords = (f: RoundFailure) => (f.retryAt === null ? 'the crawl pauses; the round runs again when it is resumed' : `tried again from ${iso(f.retryAt)}`);

/**
 * The message of the crawl-log entry (ROUND_FAILED_OUTCOME) of `inARow` failures of the round in a
 * row with the same error, the last of them `f`.
 */
export function roundFailedLogMessage(f: RoundFailure, inARow: number): string {
  const times = inARow === 1 ? '' : ` ${inARow} times in a row, the last at ${iso(f.failedAt)}`;
  const ofRound = f.failures === inARow ? '' : inARow === 1 ? ` (failure ${f.failures} of this round)` : ` (${f.failures} failures of this round)`;
  const retry = retryWords(f);
  return `recrawl round ${f.round} failed${times}${ofRound}: ${f.message}; ${retry}`;
}

/** Words that mark a ROUND_FAILED_OUTCOME entry counting failures of changing errors (roundFailedMixedLogMessage). */
export const CHANGING_ERRORS = 'with changing errors';

/**
 * The message of the last crawl-log entry a round may add (round-failure-log.ts), once it counts
 * `count` failures whose errors changed, the last of them `f`.
 */
export function roundFailedMixedLogMessage(f: RoundFailure, count: number): string {
  const retry = retryWords(f);
  return `recrawl round ${f.round} failed ${count} times ${CHANGING_ERRORS}, the last at ${iso(f.failedAt)} (${f.failures} failures of this round): ${f.message}; ${retry}`;
}

/** The message of the crawl-log entry (ROUND_RECOVERED_OUTCOME) of a round that finished after its failures `f`. */
export function roundRecoveredLogMessage(f: RoundFailure): string {
  const when = f.failures === 1 ? `at ${iso(f.failedAt)}; its error` : `the first at ${iso(f.firstFailedAt)}, the last at ${iso(f.failedAt)}; the last error`;
  return `recrawl round ${f.round} finished after ${f.failures} failed attempt${f.failures === 1 ? '' : 's'} (${when}: ${f.message})`;
}

/** What the cockpit reads of a crawl's recrawls: the last finished round (0: the initial crawl) and the latest reports. */
export interface StoredRecrawlState {
  last: { round: number; finishedAt: number; parentThreshold: number } | null;
  /** Newest first, at most `limit`. */
  rounds: RoundRecord[];
  /** The rounds' failures, newest round first, at most `limit + 1` (the round under way's, then the listed rounds'). */
  failures: RoundFailure[];
}

/** A crawl's recrawl state, for reading by the cockpit; creates nothing (no tables: nothing ran yet). */
export function readRecrawlState(db: Database.Database, crawlId: number, limit: number): StoredRecrawlState {
  const lastRow = tableExists(db, 'engine_recrawl')
    ? (db.prepare('SELECT round, finished_at, parent_threshold FROM engine_recrawl WHERE crawl_id = ?').get(crawlId) as { round: number; finished_at: number; parent_threshold: number } | undefined)
    : undefined;
  const last = lastRow ? { round: lastRow.round, finishedAt: lastRow.finished_at, parentThreshold: lastRow.parent_threshold } : null;
  if (!tableExists(db, 'engine_recrawl_round')) return { last, rounds: [], failures: [] };
  // A table made before back-offs were counted apart (the engine adds the column when it next runs a round).
  const backedOff = columnExists(db, 'engine_recrawl_round', 'backed_off') ? 'backed_off' : '0';
  const rows = db
    .prepare(
      `SELECT round, finished_at AS finishedAt, pages, due, ${backedOff} AS backedOff, fetched, changed, parents_fetched AS parentsFetched, new_links AS newLinks, parent_threshold AS parentThreshold
       FROM engine_recrawl_round WHERE crawl_id = ? ORDER BY round DESC LIMIT ?`,
    )
    .all(crawlId, limit) as RoundRecord[];
  // Made with engine_recrawl_round by the same statements, but a database of an older Tidemark has that one alone.
  const failures = tableExists(db, 'engine_recrawl_failure')
    ? (db.prepare(`${SELECT_FAILURE} WHERE crawl_id = ? ORDER BY round DESC LIMIT ?`).all(crawlId, limit + 1) as RoundFailure[])
    : [];
  return { last, rounds: rows, failures };
}
