import type Database from 'better-sqlite3';
import { sqlDate } from './sqlite';
import type { HttpExchange } from '../capture';

export interface CaptureRow {
  url: string;
  status: number;
  mime: string | null;
  size: number;
  payloadDigest: string | null;
  /** The body's WARC-Truncated value when it was cut short (HttpExchange.truncated), else null. */
  truncated: HttpExchange['truncated'];
  recordType: 'response' | 'revisit';
  warcFile: string;
  warcOffset: number;
  warcLength: number;
  warcRecordId: string | null;
  depth: number;
  score: number | null;
  scoreBreakdown: string | null;
  similarity: number | null;
  /** An HTML page's title. */
  title: string | null;
  fetchedAt: Date;
  durationMs: number;
}

/**
 * What a crawl-log entry is about when it is not a URL of the crawl: 'robots', a robots.txt request
 * (archived, or one that got no answer), which the pages it let in or kept out have entries of their own for.
 */
export type LogSubject = 'robots';

export interface LogRow {
  url: string;
  status: number | null;
  outcome: string;
  message: string | null;
  size: number;
  durationMs: number;
  retries: number;
  at: Date;
  /** Null or left out: the entry of a URL of the crawl (a page, a requisite, a feed poll). */
  subject?: LogSubject | null;
  /** A URL of the crawl never requested (a page, a revisit, a recrawl, a feed poll): its host's robots.txt got no answer. No fetch of its host. */
  notRequested?: boolean;
}

export interface WebObjectRow {
  captureId: number | null;
  url: string;
  host: string;
  type: string;
  application: string;
  rule: string;
  fields: Record<string, string>;
}

/**
 * Writes the crawl's captures, crawl-log entries and Web objects with the SQLite driver and
 * prepared statements (Prisma is ~50× too slow for this path). Callers group writes in one
 * transaction with the frontier's state change, so a capture is acknowledged exactly once.
 */
export class CaptureStore {
  private readonly insertCapture;
  private readonly insertLog;
  private readonly insertObject;

  constructor(private readonly db: Database.Database, private readonly crawlId: number) {
    this.insertCapture = db.prepare(
      `INSERT INTO Capture (crawlId, url, status, mime, size, payloadDigest, truncated, recordType, warcFile, warcOffset, warcLength, warcRecordId, depth, score, scoreBreakdown, similarity, title, fetchedAt, durationMs)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    );
    this.insertLog = db.prepare(
      'INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, message, size, durationMs, retries, at, subject, notRequested) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
    this.insertObject = db.prepare(
      'INSERT INTO WebObject (crawlId, captureId, url, host, type, application, rule, fields, createdAt) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    );
  }

  /** Inserts a capture row and returns its id. */
  addCapture(c: CaptureRow): number {
    const result = this.insertCapture.run(
      this.crawlId, c.url, c.status, c.mime, c.size, c.payloadDigest, c.truncated, c.recordType, c.warcFile, c.warcOffset, c.warcLength, c.warcRecordId,
      c.depth, c.score, c.scoreBreakdown, c.similarity, c.title, sqlDate(c.fetchedAt), Math.round(c.durationMs),
    );
    return Number(result.lastInsertRowid);
  }

  addLog(l: LogRow): void {
    this.insertLog.run(this.crawlId, l.url, l.status, l.outcome, l.message, l.size, Math.round(l.durationMs), l.retries, sqlDate(l.at), l.subject ?? null, l.notRequested ? 1 : 0);
  }

  /** The crawl's latest crawl-log entry with `outcome`, if any. */
  latestLog(outcome: string): { id: number; retries: number; message: string | null } | null {
    const row = this.db.prepare('SELECT id, retries, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = ? ORDER BY id DESC LIMIT 1').get(this.crawlId, outcome);
    return (row as { id: number; retries: number; message: string | null } | undefined) ?? null;
  }

  /** How many of the crawl's crawl-log entries with `outcome` have a message starting with `prefix`. */
  countLogs(outcome: string, prefix: string): number {
    const like = `${prefix.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    return this.db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome = ? AND message LIKE ? ESCAPE '\\'").pluck().get(this.crawlId, outcome, like) as number;
  }

  /** Rewrites an entry's message and retries: failures in a row logged as one entry (crawler/round-failure-log.ts). */
  updateLog(id: number, message: string, retries: number): void {
    this.db.prepare('UPDATE CrawlLogEntry SET message = ?, retries = ? WHERE id = ? AND crawlId = ?').run(message, retries, id, this.crawlId);
  }

  /** Id of the latest capture of a URL in this crawl, or null. */
  latestCaptureId(url: string): number | null {
    const row = this.db.prepare('SELECT id FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id DESC LIMIT 1').get(this.crawlId, url) as { id: number } | undefined;
    return row?.id ?? null;
  }

  addObject(o: WebObjectRow): void {
    this.insertObject.run(this.crawlId, o.captureId, o.url, o.host, o.type, o.application, o.rule, JSON.stringify(o.fields), sqlDate(new Date()));
  }

  /** Number of captures per URL: the crash tests check every page is captured exactly once. */
  capturesPerUrl(): Map<string, number> {
    const rows = this.db.prepare('SELECT url, COUNT(*) AS n FROM Capture WHERE crawlId = ? GROUP BY url').all(this.crawlId) as { url: string; n: number }[];
    return new Map(rows.map((r) => [r.url, r.n]));
  }
}

/** The similarity of every analysed capture of a crawl, in crawl order (the relevance chart's input). */
export function storedSimilarities(db: Database.Database, crawlId: number): number[] {
  return db.prepare('SELECT similarity FROM Capture WHERE crawlId = ? AND similarity IS NOT NULL ORDER BY id').pluck().all(crawlId) as number[];
}
