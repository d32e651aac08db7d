import type Database from 'better-sqlite3';

/** Captures of one media type (null: without one) and their payloads' bytes. */
export interface MimeTypeReportRow {
  mime: string | null;
  captures: number;
  bytes: number;
}

/** Captures of one WARC record type: their payloads' bytes and the bytes their records take in the WARC files. */
export interface RecordReportRow {
  recordType: string;
  captures: number;
  bytes: number;
  warcBytes: number;
}

export interface CapturesReport {
  /** Most captures first, then by media type (null first). */
  mimeTypes: MimeTypeReportRow[];
  /** By record type, descending (revisit before response, as the report always listed them): what deduplication saved shows. */
  records: RecordReportRow[];
}

/**
 * The crawl report's mimeTypes and records, from the crawl's capture tallies (CaptureTally, which
 * triggers keep as captures are stored: a few rows per media type, where grouping the captures read
 * all of a crawl's, seconds at each poll at 1,000,000). mime '' there counts the captures without one.
 */
export function readCapturesReport(db: Database.Database, crawlId: number): CapturesReport {
  const mimeTypes = db
    .prepare("SELECT NULLIF(mime, '') AS mime, SUM(captures) AS captures, SUM(bytes) AS bytes FROM CaptureTally WHERE crawlId = ? GROUP BY mime ORDER BY captures DESC, NULLIF(mime, '')")
    .all(crawlId) as MimeTypeReportRow[];
  const records = db
    .prepare('SELECT recordType, SUM(captures) AS captures, SUM(bytes) AS bytes, SUM(warcBytes) AS warcBytes FROM CaptureTally WHERE crawlId = ? GROUP BY recordType ORDER BY recordType DESC')
    .all(crawlId) as RecordReportRow[];
  return { mimeTypes, records };
}
