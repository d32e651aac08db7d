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
}

export const CRAWL_LOG_COLUMNS = ['at', 'status', 'outcome', 'size', 'duration_ms', 'retries', 'url', 'message'] as const;

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

/** One entry as a line (an empty status: no response came back; an empty message: none). */
export function crawlLogLine(row: CrawlLogRow): string {
  return `${[isoTime(row.at), row.status ?? '', field(row.outcome), row.size, row.durationMs, row.retries, field(row.url), field(row.message ?? '')].join('\t')}\n`;
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
    `SELECT id, at, status, outcome, size, durationMs, retries, url, message FROM CrawlLogEntry
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
