import type Database from 'better-sqlite3';
import { canonicalize, type QueryHandling } from '../url';
import { readRecordLocation } from '../warc/read-record';
import { selectedCapturesSql, type CollectionSelection } from './collection-plan';

/** Redirects followed from a selected one at most: the crawl itself gives up on longer chains. */
const MAX_HOPS = 20;

interface CaptureRef {
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

const COLUMNS = 'url, status, fetchedAt, recordType, payloadDigest, warcRecordId, warcFile, warcOffset, warcLength';

/**
 * The captures the selection's redirects lead to, hop by hop (a chain of redirects to its end),
 * which the selection does not hold itself: a collection of `/old/` pages that moved would
 * otherwise hand out redirects that replay to nothing. Each target is the crawl's capture of the
 * Location, canonicalised as the crawl queued it, made at or next after the redirect (else the
 * last one before it). Returns their WARC record ids and, for revisits, the payload digests whose
 * responses the collection then needs too. An aborted `signal` stops it, throwing its reason.
 */
export async function redirectTargets(db: Database.Database, crawlId: number, warcDir: string, selection: CollectionSelection, queryHandling: QueryHandling, chosen: ReadonlySet<string>, signal?: AbortSignal): Promise<{ ids: string[]; revisitDigests: string[] }> {
  const { sql, params } = selectedCapturesSql(selection, COLUMNS, 'AND status BETWEEN 300 AND 399 AND warcRecordId IS NOT NULL');
  let redirects = db.prepare(sql).all(crawlId, ...params) as CaptureRef[];
  // Captures of a URL: those made at or after the redirect first (earliest first), then the earlier ones (latest first).
  const captureOf = db.prepare(
    `SELECT ${COLUMNS} FROM Capture WHERE crawlId = ? AND url = ? AND recordType IN ('response', 'revisit') AND warcRecordId IS NOT NULL
     ORDER BY fetchedAt < ?, CASE WHEN fetchedAt >= ? THEN fetchedAt END, fetchedAt DESC LIMIT 1`,
  );
  const ids: string[] = [];
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
      if (capture.recordType === 'revisit' && capture.payloadDigest) revisitDigests.push(capture.payloadDigest);
      if (capture.status >= 300 && capture.status < 400) next.push(capture);
    }
    redirects = next;
  }
  return { ids, revisitDigests };
}
