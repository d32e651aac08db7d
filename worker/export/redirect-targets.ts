import type Database from 'better-sqlite3';
import { canonicalize, type QueryHandling } from '../url';
import { readRecordLocation } from '../warc/read-record';
import { collectionSizeSql, selectedCapturesSql, selectsEverything, type CollectionSelection } from './collection-plan';

/** Redirects followed from a selected one at most: the crawl itself gives up on longer chains. */
const MAX_HOPS = 20;

interface CaptureRef {
  id: number;
  url: string;
  status: number;
  fetchedAt: string;
  recordType: string;
  payloadDigest: string | null;
  warcRecordId: string;
  warcFile: string;
  warcOffset: number;
  warcLength: number;
}

const COLUMNS = 'id, url, status, fetchedAt, recordType, payloadDigest, warcRecordId, warcFile, warcOffset, warcLength';

/**
 * The captures the selection's redirects lead to, hop by hop (a chain of redirects to its end),
 * which the selection does not hold itself: a collection of `/old/` pages that moved would
 * otherwise hand out redirects that replay to nothing. Each target is the crawl's capture of the
 * Location, canonicalised as the crawl queued it, made at or next after the redirect (else the
 * last one before it). Returns their WARC record ids, their Capture ids (the preview counts them:
 * collectionSize) and, for revisits, the payload digests whose responses the collection then needs
 * too. An aborted `signal` stops it, throwing its reason.
 */
export async function redirectTargets(db: Database.Database, crawlId: number, warcDir: string, selection: CollectionSelection, queryHandling: QueryHandling, chosen: ReadonlySet<string>, signal?: AbortSignal): Promise<{ ids: string[]; captureIds: number[]; revisitDigests: string[] }> {
  const { sql, params } = selectedCapturesSql(selection, COLUMNS, 'AND status BETWEEN 300 AND 399 AND warcRecordId IS NOT NULL');
  let redirects = db.prepare(sql).all(crawlId, ...params) as CaptureRef[];
  // Captures of a URL: those made at or after the redirect first (earliest first), then the earlier ones (latest first).
  const captureOf = db.prepare(
    `SELECT ${COLUMNS} FROM Capture WHERE crawlId = ? AND url = ? AND recordType IN ('response', 'revisit') AND warcRecordId IS NOT NULL
     ORDER BY fetchedAt < ?, CASE WHEN fetchedAt >= ? THEN fetchedAt END, fetchedAt DESC LIMIT 1`,
  );
  const ids: string[] = [];
  const captureIds: number[] = [];
  const revisitDigests: string[] = [];
  const taken = new Set(chosen);
  for (let hop = 0; hop < MAX_HOPS && redirects.length; hop++) {
    const next: CaptureRef[] = [];
    for (const r of redirects) {
      signal?.throwIfAborted();
      const location = await readRecordLocation(warcDir, r.warcFile, r.warcOffset, r.warcLength);
      const target = location ? canonicalize(location, r.url, { queryHandling }) : null;
      const capture = target ? (captureOf.get(crawlId, target, r.fetchedAt, r.fetchedAt) as CaptureRef | undefined) : undefined;
      if (!capture || taken.has(capture.warcRecordId)) continue;
      taken.add(capture.warcRecordId);
      ids.push(capture.warcRecordId);
      captureIds.push(capture.id);
      if (capture.recordType === 'revisit' && capture.payloadDigest) revisitDigests.push(capture.payloadDigest);
      if (capture.status >= 300 && capture.status < 400) next.push(capture);
    }
    redirects = next;
  }
  return { ids, captureIds, revisitDigests };
}

/** How the crawl canonicalised the query strings of the URLs it queued (its ICD copy's `scope.queryHandling`). */
export function queryHandlingOf(definition: string): QueryHandling {
  try {
    return (JSON.parse(definition) as { scope?: { queryHandling?: QueryHandling } }).scope?.queryHandling ?? 'keep';
  } catch {
    return 'keep';
  }
}

/**
 * How many captures (responses and revisits) an export of `selection` holds, and their payload
 * bytes: the selected ones, those its redirects lead to (redirectTargets, found as the export finds
 * them) and the responses their revisits repeat, as the export writes them. Null for a crawl that
 * does not exist.
 */
export async function collectionSize(db: Database.Database, crawlId: number, warcDir: string, selection: CollectionSelection, signal?: AbortSignal): Promise<{ captures: number; bytes: number } | null> {
  const definition = db.prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(crawlId) as string | undefined;
  if (definition === undefined) return null;
  let added: number[] = [];
  // The whole crawl is its own files: nothing to add.
  if (!selectsEverything(selection)) {
    const { sql, params } = selectedCapturesSql(selection, 'warcRecordId', 'AND warcRecordId IS NOT NULL');
    const held = new Set(db.prepare(sql).pluck().all(crawlId, ...params) as string[]);
    added = (await redirectTargets(db, crawlId, warcDir, selection, queryHandlingOf(definition), held, signal)).captureIds;
  }
  const { sql, bind } = collectionSizeSql(selection);
  return db.prepare(sql).get(...bind(crawlId, added)) as { captures: number; bytes: number };
}
