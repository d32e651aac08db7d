import type Database from 'better-sqlite3';
import { canonicalize, type QueryHandling } from '../url';
import { isImportSource } from '../extract';
import { readRecordLocation } from '../warc/read-record';
import { captureOutlinksReader } from '../warc/read-outlinks';
import { collectionSizeSql, mimeSelected, selectedCapturesSql, selectsEverything, takesRequisites, type CollectionSelection } from './collection-plan';
import { walkCollection, type CrawlReader, type WalkedCapture } from './collection-walk';

interface StoredCapture extends WalkedCapture {
  warcFile: string;
  warcOffset: number;
  warcLength: number;
}

const COLUMNS = 'id, url, status, mime, fetchedAt, recordType, payloadDigest, warcRecordId, warcFile, warcOffset, warcLength';

/** What a collection holds beyond its selected captures. */
export interface CollectionAdditions {
  /** WARC record ids of the captures added, in the order found. */
  ids: string[];
  /** Their Capture ids (the preview counts them: collectionSizeSql). */
  captureIds: number[];
  /** Payload digests of the revisits among them: the responses holding those payloads go along. */
  revisitDigests: string[];
}

/**
 * The captures a collection of `selection` holds besides the selected ones (`held`: their WARC
 * record ids), read from the crawl's database and WARC files (collection-walk.ts says which): the
 * captures its redirects lead to (each the crawl's capture of the Location, canonicalised as the
 * crawl queued it, made at or next after the redirect, else the last before it; a raw Latin-1
 * Location read as the crawl read it) and its pages' requisites when it takes them (takesRequisites:
 * the `E` out-links of each page's out-links metadata record, a revisit without its own read from
 * the response it repeats; each found as a Location is). The export writes them and the preview
 * counts them, both from here, so the two agree. An aborted `signal` stops it, throwing its reason;
 * `onProgress` hears the walk's progress 0..1 (walkCollection).
 */
export async function collectionAdditions(db: Database.Database, crawlId: number, warcDir: string, selection: CollectionSelection, queryHandling: QueryHandling, held: ReadonlySet<string>, signal?: AbortSignal, onProgress?: (fraction: number) => void): Promise<CollectionAdditions> {
  const requisites = takesRequisites(selection);
  // Only redirects lead elsewhere, and, with requisites, pages (2xx, and 304 revisits).
  const { sql, params } = selectedCapturesSql(selection, COLUMNS, `AND warcRecordId IS NOT NULL AND status BETWEEN ${requisites ? 200 : 300} AND 399`);
  // In file order (by id), as the out-links reader reads fastest.
  const start = (db.prepare(sql).all(crawlId, ...params) as StoredCapture[]).sort((a, b) => a.id - b.id);
  // Captures of a URL: those made at or after the given time first (earliest first), then the earlier ones (latest first).
  const near = db.prepare(
    `SELECT ${COLUMNS} FROM Capture WHERE crawlId = ? AND url = ? AND recordType IN ('response', 'revisit') AND warcRecordId IS NOT NULL
     ORDER BY fetchedAt < ?, CASE WHEN fetchedAt >= ? THEN fetchedAt END, fetchedAt DESC LIMIT 1`,
  );
  const repeated = db.prepare(`SELECT ${COLUMNS} FROM Capture WHERE crawlId = ? AND payloadDigest = ? AND recordType = 'response' AND warcRecordId IS NOT NULL ORDER BY id LIMIT 1`);
  const canonical = (url: string, base?: string) => canonicalize(url, base, { queryHandling });
  const outlinks = captureOutlinksReader(warcDir);
  const outlinksOf = (c: StoredCapture) => outlinks.read(c.warcFile, c.warcOffset, c.warcLength, c.warcRecordId);
  const crawl: CrawlReader<StoredCapture> = {
    captureNear(url, at) {
      const target = canonical(url);
      return target ? (near.get(crawlId, target, at, at) as StoredCapture | undefined) : undefined;
    },
    async locationOf(c) {
      const location = await readRecordLocation(warcDir, c.warcFile, c.warcOffset, c.warcLength);
      return location ? canonical(location, c.url) : null;
    },
    async embedsOf(c) {
      let links = await outlinksOf(c);
      // A revisit the crawl wrote without out-links (a 304, a revisit pass's) embeds what the response it repeats embeds.
      if (!links.length && c.recordType === 'revisit' && c.payloadDigest) {
        const original = repeated.get(crawlId, c.payloadDigest) as StoredCapture | undefined;
        if (original) links = await outlinksOf(original);
      }
      return links.filter((l) => l.hop === 'E').map((l) => ({ url: l.url, part: isImportSource(l.tag ?? '') }));
    },
  };
  const admitsRequisite = (c: StoredCapture) => !selection.mimeTypes.length || mimeSelected(c.mime, selection.mimeTypes);
  let added: StoredCapture[];
  try {
    added = await walkCollection(start, crawl, { requisites, admitsRequisite }, held, signal, onProgress);
  } finally {
    await outlinks.close();
  }
  return {
    ids: added.map((c) => c.warcRecordId),
    captureIds: added.map((c) => c.id),
    revisitDigests: added.filter((c) => c.recordType === 'revisit' && c.payloadDigest).map((c) => c.payloadDigest!),
  };
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
 * bytes: the selected ones, the ones collectionAdditions adds, and the responses their revisits
 * repeat, as the export writes them. Null for a crawl that does not exist.
 */
export async function collectionSize(db: Database.Database, crawlId: number, warcDir: string, selection: CollectionSelection, signal?: AbortSignal): Promise<{ captures: number; bytes: number } | null> {
  const definition = db.prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(crawlId) as string | undefined;
  if (definition === undefined) return null;
  let added: number[] = [];
  // The whole crawl is its own files: nothing to add.
  if (!selectsEverything(selection)) {
    const { sql, params } = selectedCapturesSql(selection, 'warcRecordId', 'AND warcRecordId IS NOT NULL');
    const held = new Set(db.prepare(sql).pluck().all(crawlId, ...params) as string[]);
    added = (await collectionAdditions(db, crawlId, warcDir, selection, queryHandlingOf(definition), held, signal)).captureIds;
  }
  const { sql, bind } = collectionSizeSql(selection);
  return db.prepare(sql).get(...bind(crawlId, added)) as { captures: number; bytes: number };
}
