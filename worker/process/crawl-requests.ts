import type Database from 'better-sqlite3';
import { exportUnderWay } from '../export/export-job';
import { otherCrawlsRefusal, storeOtherCrawls } from '../export/export-crawls';
import { onRowInWriteTransaction, sqlDate } from '../store/sqlite';
import { revisitsBegun } from '../crawler/coherence-store';
import { intakeClosedAs, queueScoredUrls, type QueuedScoredUrls, type ScoredUrl } from '../frontier/scored-intake';
import { deleteRefusal, desiredAfter, exclusionRefusal, exportRefusal, intakeRefusal, type CrawlAction } from './crawl-control';
import { withExcludePattern, withoutExcludePattern } from '../icd/add-exclude-pattern';
import { refusedFields } from '../icd/stored-icd-repair';
import { resumeRefusal } from './stored-icd-replacement';

/**
 * The archivist's requests on a crawl that check its row and then write: control, export, delete,
 * posted URLs, live exclusions.
 * Each check and its write are one immediate write transaction on the driver. Read with Prisma and
 * written after an await, as the routes did, a pause arriving just after a DELETE of the crawl
 * updated a row that was gone (500), and an export racing a DELETE failed on the foreign key (500)
 * or was stored and then deleted with the crawl (201 for an export that never came).
 */

/** What a request came to: done (with its result), refused (409, why), or no such crawl (404). */
export type CrawlRequestOutcome<T> = { done: T } | { refused: string } | 'missing';

type CrawlState = { status: string; desired: string };

function inWriteTransaction<T>(db: Database.Database, crawlId: number, body: (crawl: CrawlState) => CrawlRequestOutcome<T>): CrawlRequestOutcome<T> {
  return onRowInWriteTransaction(db, () => db.prepare('SELECT status, desired FROM Crawl WHERE id = ?').get(crawlId) as CrawlState | undefined, body);
}

/**
 * Sets the crawl's `desired` for `action` (desiredAfter's rules; a resume waits for the crawl's
 * exports, and is refused while its stored ICD has settings this version refuses: resumeRefusal).
 */
export function controlCrawl(db: Database.Database, crawlId: number, action: CrawlAction): CrawlRequestOutcome<'run' | 'pause' | 'stop'> {
  return inWriteTransaction<'run' | 'pause' | 'stop'>(db, crawlId, (crawl) => {
    const next = desiredAfter(crawl.status, action, action === 'resume' ? exportUnderWay(db, crawlId) : null);
    if ('error' in next) return { refused: next.error };
    const refusal = action === 'resume' ? resumeRefusal(refusedFields(storedDefinition(db, crawlId)), crawlId) : null;
    if (refusal) return { refused: refusal };
    db.prepare('UPDATE Crawl SET desired = ? WHERE id = ?').run(next.desired, crawlId);
    return { done: next.desired };
  });
}

/** An export asked of a crawl, as the Export row stores it. */
export interface ExportRequest {
  requestedById: number;
  /** JSON of the collection selection; null for the whole crawl. */
  selection: string | null;
  format: string;
  pageText: boolean;
  /** Other crawls of the same ICD the export takes besides this one (export-crawls.ts). */
  otherCrawlIds?: readonly number[];
}

/** A pending export as it was stored (the worker may take it up as soon as the transaction ends). */
export interface StoredExport {
  id: number; crawlId: number; requestedById: number; status: 'pending'; progress: number; files: string; selection: string | null; format: string; pageText: boolean;
  error: null; createdAt: Date; finishedAt: null;
}

/**
 * Stores a pending export of the crawl, when no worker writes it nor is about to (canExport); the
 * row as stored. Read back after the commit, it could already be the worker's (running, even done).
 */
export function requestExport(db: Database.Database, crawlId: number, request: ExportRequest): CrawlRequestOutcome<StoredExport> {
  return inWriteTransaction<StoredExport>(db, crawlId, (crawl) => {
    const others = [...new Set(request.otherCrawlIds ?? [])];
    const refusal = exportRefusal(crawl.status, crawl.desired) ?? otherCrawlsRefusal(db, crawlId, others);
    if (refusal) return { refused: refusal };
    const createdAt = new Date();
    const insert = db.prepare("INSERT INTO Export (crawlId, requestedById, status, selection, format, pageText, createdAt) VALUES (?, ?, 'pending', ?, ?, ?, ?)");
    const id = Number(insert.run(crawlId, request.requestedById, request.selection, request.format, request.pageText ? 1 : 0, sqlDate(createdAt)).lastInsertRowid);
    storeOtherCrawls(db, id, others);
    return { done: { id, crawlId, requestedById: request.requestedById, status: 'pending', progress: 0, files: '[]', selection: request.selection, format: request.format, pageText: request.pageText, error: null, createdAt, finishedAt: null } };
  });
}

/**
 * Deletes the crawl's row when no worker writes it (canDelete) and no export of it, nor one taking
 * it, is being made; with it, its exports' rows and a CrawlDeletion row naming them. From then on
 * the cockpit knows no such crawl (lists, details, its sub-routes, resume and export are 404s).
 * Its other rows (captures, log, runs, web objects, the frontier's …) are deleted afterwards in
 * short transactions (CrawlDeletions): the foreign keys are off for this transaction, since their
 * ON DELETE CASCADE deleted all of them in it, holding SQLite's write lock seconds to minutes for a
 * large crawl, while every other writer waited and failed with "database is locked".
 * An export started from another crawl that took this one is kept, its files too: they are copies,
 * and the export still names the crawl (ExportCrawl has no foreign key to it). The ids of the exports
 * deleted, whose files the caller removes.
 */
export function deleteCrawlRow(db: Database.Database, crawlId: number): CrawlRequestOutcome<number[]> {
  // A pragma, so set outside the transaction; the connection's own, and nothing else runs on it meanwhile.
  const foreignKeys = db.pragma('foreign_keys', { simple: true }) as number;
  db.pragma('foreign_keys = OFF');
  try {
    return inWriteTransaction<number[]>(db, crawlId, (crawl) => {
      const refusal = deleteRefusal(crawl.status, crawl.desired);
      if (refusal) return { refused: refusal };
      const exporting = exportUnderWay(db, crawlId);
      if (exporting !== null) return { refused: `Export ${exporting} of this crawl is under way: delete the crawl once it is done or failed` };
      const exportIds = db.prepare('SELECT id FROM Export WHERE crawlId = ?').pluck().all(crawlId) as number[];
      // The exports go at once (GET /api/exports/:id reads them without their crawl), and what their cascade would delete.
      db.prepare('DELETE FROM ExportCrawl WHERE exportId IN (SELECT id FROM Export WHERE crawlId = ?)').run(crawlId);
      db.prepare('DELETE FROM Export WHERE crawlId = ?').run(crawlId);
      // Its name too, for the cockpit's notice of files that could not be removed (GET /api/crawl-deletions).
      db.prepare('INSERT INTO CrawlDeletion (crawlId, crawlName, exportIds, requestedAt) VALUES (?, (SELECT name FROM Crawl WHERE id = ?), ?, ?)')
        .run(crawlId, crawlId, JSON.stringify(exportIds), sqlDate(new Date()));
      db.prepare('DELETE FROM Crawl WHERE id = ?').run(crawlId);
      return { done: exportIds };
    });
  } finally {
    db.pragma(`foreign_keys = ${foreignKeys ? 'ON' : 'OFF'}`);
  }
}

/**
 * Stores scored URLs posted for the crawl (queueScoredUrls) unless it takes no more (intakeRefusal):
 * it has ended or is stopping, its intake is closed (the engine finished its visits), or its visit
 * set is closed (`visitSetCloses` of its ICD and its revisit pass begun).
 * The check and the store are one immediate write transaction, as each closing of the crawl's
 * intake is (the engine's closeVisitSet and finishIntake, the worker's endCrawl): SQLite orders
 * them, so a URL is either stored before, and settled by the closing (visited, or recorded as
 * excluded), or refused here. `stored` false: over the crawl's bound of waiting URLs.
 */
export function postScoredUrls(
  db: Database.Database, crawlId: number, urls: readonly ScoredUrl[], visitSetCloses: boolean,
): CrawlRequestOutcome<QueuedScoredUrls> {
  return inWriteTransaction<QueuedScoredUrls>(db, crawlId, (crawl) => {
    const refusal = intakeRefusal(crawl.status, visitSetCloses && revisitsBegun(db, crawlId), intakeClosedAs(db, crawlId));
    return refusal ? { refused: refusal } : { done: queueScoredUrls(db, crawlId, urls) };
  });
}

/** An exclude pattern added to a crawl while it runs, as CrawlExclusion stores it. */
export interface LiveExclusion {
  id: number;
  pattern: string;
  addedAt: Date;
}

/**
 * Adds `pattern` to the crawl's exclude patterns (a validated regular expression, excludePatternSchema)
 * while it runs: into its own ICD copy (Crawl.definition, `scope.exclude`), so a paused, resumed or
 * restarted crawl keeps it, and as a CrawlExclusion row, which its worker applies to the frontier
 * (worker/crawler/live-exclusions.ts). Refused once the crawl has ended or is being stopped
 * (exclusionRefusal), when it excludes the pattern already, or past the ICD's limit of patterns.
 * The check and both writes are one immediate transaction: a worker ending the crawl meanwhile
 * comes before or after, never between.
 */
export function addLiveExclusion(db: Database.Database, crawlId: number, pattern: string, addedById: number | null): CrawlRequestOutcome<LiveExclusion> {
  return inWriteTransaction<LiveExclusion>(db, crawlId, (crawl) => {
    const refusal = exclusionRefusal(crawl.status, crawl.desired) ?? rewriteDefinition(db, crawlId, (stored) => withExcludePattern(stored, pattern));
    if (refusal) return { refused: refusal };
    const addedAt = new Date();
    const id = Number(db.prepare('INSERT INTO CrawlExclusion (crawlId, pattern, addedById, addedAt) VALUES (?, ?, ?, ?)').run(crawlId, pattern, addedById, sqlDate(addedAt)).lastInsertRowid);
    return { done: { id, pattern, addedAt } };
  });
}

/**
 * Takes `pattern` out of the crawl's exclude patterns while it runs, one added live or one of the
 * ICD it was created from: out of its ICD copy and, if added live, its CrawlExclusion row. Its worker
 * drops it from the crawl's scope within a second (live-exclusions.ts): links found from then on
 * that match it are taken again; the URLs it excluded stay excluded. Refused once the crawl has ended
 * or is being stopped, and when the crawl does not exclude the pattern. One immediate transaction,
 * as addLiveExclusion's.
 */
export function removeLiveExclusion(db: Database.Database, crawlId: number, pattern: string): CrawlRequestOutcome<{ pattern: string }> {
  return inWriteTransaction<{ pattern: string }>(db, crawlId, (crawl) => {
    const refusal = exclusionRefusal(crawl.status, crawl.desired, 'remove') ?? rewriteDefinition(db, crawlId, (stored) => withoutExcludePattern(stored, pattern));
    if (refusal) return { refused: refusal };
    db.prepare('DELETE FROM CrawlExclusion WHERE crawlId = ? AND pattern = ?').run(crawlId, pattern);
    return { done: { pattern } };
  });
}

/** The crawl's ICD copy as stored; null when it is not JSON (refusedFields then names the whole definition). */
function storedDefinition(db: Database.Database, crawlId: number): unknown {
  try {
    return JSON.parse(db.prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(crawlId) as string) as unknown;
  } catch {
    return null;
  }
}

/** Stores the crawl's ICD copy as `change` makes it; or why not (nothing written). */
function rewriteDefinition(db: Database.Database, crawlId: number, change: (stored: string) => { definition: string } | { error: string }): string | null {
  const next = change(db.prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(crawlId) as string);
  if ('error' in next) return next.error;
  db.prepare('UPDATE Crawl SET definition = ? WHERE id = ?').run(next.definition, crawlId);
  return null;
}
