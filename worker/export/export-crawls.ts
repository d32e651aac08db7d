import type Database from 'better-sqlite3';
import { exportRefusal } from '../process/crawl-control';

/**
 * The crawls an export takes. An export is started from one crawl (Export.crawlId) and may take
 * other crawls of the same ICD besides (ExportCrawl rows): a schedule's successive crawls, or a
 * crawl and its later re-crawls, exported as one collection in which each capture keeps its date.
 */

/** At most this many crawls besides the one an export is started from (a daily schedule's year). */
export const MAX_OTHER_CRAWLS = 400;

/** The ids of every crawl the export takes, the one it was started from included, oldest first (by id). */
export function exportCrawlIds(db: Database.Database, exportId: number): number[] {
  return db
    .prepare('SELECT crawlId FROM Export WHERE id = ? UNION SELECT crawlId FROM ExportCrawl WHERE exportId = ? ORDER BY 1')
    .pluck()
    .all(exportId, exportId) as number[];
}

/** A crawl an export takes besides its own, as the API shows it: its name, or null once it was deleted. */
export interface OtherCrawl {
  id: number;
  name: string | null;
}

/** The crawls each export of `exportIds` takes besides its own, by export id (an export taking none is absent). */
export function otherCrawlsOf(db: Database.Database, exportIds: readonly number[]): Map<number, OtherCrawl[]> {
  const byExport = new Map<number, OtherCrawl[]>();
  if (!exportIds.length) return byExport;
  const rows = db
    .prepare('SELECT e.exportId, e.crawlId AS id, c.name FROM ExportCrawl e LEFT JOIN Crawl c ON c.id = e.crawlId WHERE e.exportId IN (SELECT value FROM json_each(?)) ORDER BY e.exportId, e.crawlId')
    .all(JSON.stringify(exportIds)) as { exportId: number; id: number; name: string | null }[];
  for (const r of rows) {
    const list = byExport.get(r.exportId) ?? [];
    list.push({ id: r.id, name: r.name });
    byExport.set(r.exportId, list);
  }
  return byExport;
}

/**
 * Why `others` are not other crawls of `crawlId`'s ICD, or null: a collection takes crawls of one
 * ICD (a preview of one is refused the same way).
 */
export function notOtherCrawlsOfIcd(db: Database.Database, crawlId: number, others: readonly number[]): string | null {
  if (others.length > MAX_OTHER_CRAWLS) return `An export takes at most ${MAX_OTHER_CRAWLS} crawls besides its own`;
  const icdOf = db.prepare('SELECT icdId FROM Crawl WHERE id = ?').pluck();
  const own = icdOf.get(crawlId) as number | undefined;
  for (const id of others) {
    if (id === crawlId) return `Crawl ${id} is the crawl the export is started from: list only the others`;
    const icd = icdOf.get(id) as number | undefined;
    if (icd === undefined) return `Crawl ${id} does not exist`;
    if (icd !== own) return `Crawl ${id} is a crawl of another ICD: a collection takes crawls of one ICD`;
  }
  return null;
}

/**
 * Why an export of `crawlId` may not take the crawls `others` besides, or null: each must be
 * another crawl of the same ICD (notOtherCrawlsOfIcd), and one that may be exported now
 * (exportRefusal: no worker writes it nor is about to). Read in the request's write transaction,
 * so none starts meanwhile.
 */
export function otherCrawlsRefusal(db: Database.Database, crawlId: number, others: readonly number[]): string | null {
  const problem = notOtherCrawlsOfIcd(db, crawlId, others);
  if (problem) return problem;
  const stateOf = db.prepare('SELECT status, desired FROM Crawl WHERE id = ?');
  for (const id of others) {
    const other = stateOf.get(id) as { status: string; desired: string };
    const refusal = exportRefusal(other.status, other.desired);
    if (refusal) return `Crawl ${id}: ${refusal.replace(/^The crawl/, 'it')}`;
  }
  return null;
}

/** Another crawl of a crawl's ICD, as the export form offers it. */
export interface CrawlOfIcd {
  id: number;
  name: string;
  status: string;
  startedAt: string | null;
  finishedAt: string | null;
  /** Why it cannot be taken into an export now (it is running…), or null. */
  exportRefusal: string | null;
}

/** The other crawls of `crawlId`'s ICD (a schedule's earlier and later crawls), newest first, at most MAX_OTHER_CRAWLS. */
export function otherCrawlsOfIcd(db: Database.Database, crawlId: number): CrawlOfIcd[] {
  const rows = db
    .prepare('SELECT id, name, status, desired, startedAt, finishedAt FROM Crawl WHERE icdId = (SELECT icdId FROM Crawl WHERE id = ?) AND id != ? ORDER BY id DESC LIMIT ?')
    .all(crawlId, crawlId, MAX_OTHER_CRAWLS) as { id: number; name: string; status: string; desired: string; startedAt: string | number | null; finishedAt: string | number | null }[];
  return rows.map((c) => ({
    id: c.id, name: c.name, status: c.status, startedAt: isoDate(c.startedAt), finishedAt: isoDate(c.finishedAt), exportRefusal: exportRefusal(c.status, c.desired),
  }));
}

/** A stored date as ISO 8601 (Prisma and the worker store DATETIME as text or as milliseconds). */
function isoDate(value: string | number | null): string | null {
  if (value === null) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date.toISOString();
}

/** Stores the crawls an export takes besides its own (in the request's transaction). */
export function storeOtherCrawls(db: Database.Database, exportId: number, others: readonly number[]): void {
  const insert = db.prepare('INSERT OR IGNORE INTO ExportCrawl (exportId, crawlId) VALUES (?, ?)');
  for (const id of others) insert.run(exportId, id);
}
