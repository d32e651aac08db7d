import type Database from 'better-sqlite3';

/**
 * The crawl log as a file, for the tools archivists read Heritrix's crawl.log with (awk, cut, a
 * spreadsheet): tab-separated values, a header line, then one line per entry, oldest first.
 */

export interface CrawlLogRow {
  at: string | Date;
  status: number | null;
  outcome: string;
  size: number;
  durationMs: number;
  retries: number;
  url: string;
  message: string | null;
  /** The URL was never requested: its host's robots.txt got no answer (SQLite gives 0 or 1). */
  notRequested: boolean | number;
}

/** The columns, in order; `not_requested` last, so the columns scripts read by position stay where they were. */
export const CRAWL_LOG_COLUMNS = ['at', 'status', 'outcome', 'size', 'duration_ms', 'retries', 'url', 'message', 'not_requested'] as const;

/**
 * An entry's request time and retries, or null for each when its URL was never requested (its
 * host's robots.txt got no answer): stored as 0, they are not applicable rather than a fetch of
 * no time. The crawl log's table and its file show them so.
 */
export function requestFigures(row: { durationMs: number; retries: number; notRequested?: boolean | number | null }): { durationMs: number | null; retries: number | null } {
  return row.notRequested ? { durationMs: null, retries: null } : { durationMs: row.durationMs, retries: row.retries };
}

/** A field on one line of its own column: tabs, line breaks and other control characters become spaces. */
function field(value: string): string {
  // eslint-disable-next-line no-control-regex
  return value.replace(/[\u0000-\u001f\u007f]/g, ' ');
}

/** An ISO 8601 time in UTC: the database holds ISO 8601 text with an offset (worker/store/sqlite.ts sqlDate). */
function isoTime(at: string | Date): string {
  const ms = at instanceof Date ? at.getTime() : Date.parse(at);
  return Number.isNaN(ms) ? field(String(at)) : new Date(ms).toISOString();
}

export function crawlLogHeader(): string {
  return `${CRAWL_LOG_COLUMNS.join('\t')}\n`;
}

/**
 * One entry as a line (an empty status: no response came back; an empty message: none; an empty
 * duration and retries, `not_requested` 1: the URL was never requested).
 */
export function crawlLogLine(row: CrawlLogRow): string {
  const { durationMs, retries } = requestFigures(row);
  return `${[isoTime(row.at), row.status ?? '', field(row.outcome), row.size, durationMs ?? '', retries ?? '', field(row.url), field(row.message ?? ''), row.notRequested ? 1 : 0].join('\t')}\n`;
}

/** Entries read per query: the file comes out in slices, neither held whole nor holding the database. */
export const CRAWL_LOG_SLICE = 2000;

/**
 * Crawl `crawlId`'s log as text, in pieces: the header, then the entries (those `filter` selects, an
 * SQL condition on CrawlLogEntry's columns with its parameters) a slice at a time, oldest first.
 * Entries added meanwhile come along up to the last slice.
 */
export function* crawlLogText(db: Database.Database, crawlId: number, filter: { sql: string; params: unknown[] } | null = null): Generator<string> {
  const slice = db.prepare(
    `SELECT id, at, status, outcome, size, durationMs, retries, url, message, notRequested FROM CrawlLogEntry
     WHERE crawlId = ?${filter ? ` AND ${filter.sql}` : ''} AND id > ? ORDER BY id LIMIT ${CRAWL_LOG_SLICE}`,
  );
  yield crawlLogHeader();
  let after = 0;
  for (;;) {
    const rows = slice.all(crawlId, ...(filter?.params ?? []), after) as (CrawlLogRow & { id: number })[];
    if (rows.length === 0) return;
    after = rows.at(-1)!.id;
    yield rows.map(crawlLogLine).join('');
  }
}
