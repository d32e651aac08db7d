import type Database from 'better-sqlite3';
import { existsSync, rmSync, statSync } from 'node:fs';
import { basename, join } from 'node:path';
import { sqlDate } from '../store/sqlite';
import { INDEX_NAME, verifyCdxj, verifyWarcFile } from '../warc';
import { CERTIFICATE_NAME } from '../coherence/coherence-report';
import { writeCollection } from './collection-export';
import { collectionAdditions, queryHandlingOf, type CollectionAdditions } from './collection-additions';
import { collectionSelectionSchema, describeSelection, selectedCapturesSql, selectionSql, selectsEverything, type CollectionSelection } from './collection-plan';
import { canonicalize, isRobotsTxtUrl, requisiteRedirectsOf, type QueryHandling } from '../url';
import { storedUrlReader } from '../frontier/frontier-sql';
import { writeWacz, type WaczPage } from './wacz-package';
import { snapshotCrawlFiles } from './crawl-snapshot';
import { sha256File } from './file-digest';
import { readStoredRecord } from '../warc/read-record';
import { decodeText, extractHtml } from '../extract';
import { closeFilesLeftOpen } from '../crawler/warc-reconcile';
import { watchCancellation } from './export-cancel';
import { exportCrawlIds } from './export-crawls';
import { exportFailureReason, readySource, writeMergedIndex, type ExportSourceCrawl, type ReadySource } from './export-sources';

export interface ExportedFile {
  name: string;
  bytes: number;
  sha256: string;
}

/**
 * The id of an export still to be made from the crawl's files as they are (pending or running),
 * one started from the crawl or one taking it besides its own (ExportCrawl), or null: the crawl is
 * neither resumed nor deleted under it.
 */
export function exportUnderWay(db: Database.Database, crawlId: number): number | null {
  const id = db
    .prepare("SELECT id FROM Export WHERE (crawlId = ? OR id IN (SELECT exportId FROM ExportCrawl WHERE crawlId = ?)) AND status IN ('pending', 'running') ORDER BY id LIMIT 1")
    .pluck()
    .get(crawlId, crawlId) as number | undefined;
  return id ?? null;
}

export { exportableFiles, exportFailureReason } from './export-sources';

/** A stored selection, or null for the whole crawl; an unreadable one fails the export, saying so. */
function selectionOf(text: string | null): CollectionSelection | null {
  if (!text) return null;
  let selection: CollectionSelection;
  try {
    selection = collectionSelectionSchema.parse(JSON.parse(text));
  } catch (err) {
    throw new Error(`The stored selection cannot be read: ${(err as Error).message}`);
  }
  return selectsEverything(selection) ? null : selection;
}

/**
 * Verifies each file (WARC records and their digests, or the CDXJ index), checksums it and lists it;
 * progress 0..1 by bytes read: the index's own, and the records it points at, which its check
 * reads again (as many bytes as the WARC files listed with it). An aborted `signal` stops it where it
 * is, within a file too, throwing its reason.
 */
export async function listVerified(dir: string, names: readonly string[], onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ExportedFile[]> {
  const fileBytes = names.map((n) => statSync(join(dir, n)).size);
  const warcBytes = names.reduce((sum, n, i) => (n.endsWith('.warc.gz') ? sum + fileBytes[i]! : sum), 0);
  // What verifying each file reads (the index sat at its share's start until it was done: 6.4 s of a collection of 100,000 captures).
  const sizes = names.map((n, i) => (n === INDEX_NAME ? fileBytes[i]! + warcBytes : fileBytes[i]!));
  const totalBytes = sizes.reduce((sum, n) => sum + n, 0) || 1;
  let doneBytes = 0;
  // Within a file too (a WARC file of a gigabyte takes a while to read), but once a percent.
  let reported = 0;
  const within = (fraction: number) => {
    if (fraction - reported < 0.01) return;
    reported = fraction;
    onProgress(fraction);
  };
  const files: ExportedFile[] = [];
  for (const [i, name] of names.entries()) {
    signal?.throwIfAborted();
    const path = join(dir, name);
    const size = sizes[i]!;
    if (name.endsWith('.warc.gz')) {
      const check = await verifyWarcFile(path, undefined, (f) => within((doneBytes + f * size) / totalBytes), signal);
      if (check.errors.length) throw new Error(`${name}: ${check.errors.slice(0, 3).join('; ')}`);
    } else if (name === INDEX_NAME) {
      const check = await verifyCdxj(path, dir, signal, (f) => within((doneBytes + f * size) / totalBytes));
      if (check.errors.length) throw new Error(`${name}: ${check.errors.slice(0, 3).join('; ')}`);
    }
    files.push({ name, bytes: fileBytes[i]!, sha256: await sha256File(path, signal) });
    doneBytes += size;
    onProgress(doneBytes / totalBytes);
  }
  return files;
}

const EVERYTHING: CollectionSelection = collectionSelectionSchema.parse({});

/** A page's text in a WACZ is cut here: enough to find it by, bounded for pages of megabytes. */
export const PAGE_TEXT_MAX = 100_000;

interface PageRow {
  id: number;
  depth: number;
  url: string;
  title: string | null;
  fetchedAt: string;
  recordType: string;
  payloadDigest: string | null;
  /** Capture.truncated: the body's WARC-Truncated value, null when whole. */
  truncated: string | null;
  warcFile: string;
  warcOffset: number;
  warcLength: number;
}

/**
 * A captured page's visible text, read back from the crawl's WARC files (a revisit's from the
 * response it repeats). Empty when the record cannot be read: the page is still listed.
 */
async function capturedPageText(repeated: Database.Statement, warcDir: string, crawlId: number, page: PageRow): Promise<string> {
  const stored = page.recordType === 'revisit' && page.payloadDigest
    ? (repeated.get(crawlId, page.payloadDigest) as Pick<PageRow, 'warcFile' | 'warcOffset' | 'warcLength'> | undefined)
    : page;
  if (!stored) return '';
  try {
    const record = await readStoredRecord(warcDir, stored.warcFile, stored.warcOffset, stored.warcLength);
    const text = extractHtml(decodeText(record.payload, record.contentType), page.url, { markup: false }).text;
    return text.length > PAGE_TEXT_MAX ? text.slice(0, PAGE_TEXT_MAX) : text;
  } catch {
    return '';
  }
}

/** A successful HTML capture: a page a WACZ lists. */
const PAGE_SQL = "status / 100 = 2 AND (lower(mime) LIKE 'text/html%' OR lower(mime) LIKE 'application/xhtml+xml%')";

/**
 * `SELECT <columns>` over the pages of the selection, each page once: its first capture there (a
 * visit–revisit crawl captures each page twice, a recrawl again), with `also` added; `bind` gives
 * its parameters from the crawl id and `also`'s own.
 */
function pageCapturesSql(selection: CollectionSelection, columns: string, also: string): { sql: string; bind: (crawlId: number, alsoParams: readonly (string | number)[]) => (string | number)[] } {
  const { where, params } = selectionSql(selection);
  // Unqualified columns in the subquery are its own capture's (e); Capture.* the outer one's.
  const first = `AND NOT EXISTS (SELECT 1 FROM Capture AS e WHERE e.crawlId = Capture.crawlId AND e.url = Capture.url AND e.id < Capture.id AND recordType IN ('response', 'revisit') AND ${PAGE_SQL}${where})`;
  const { sql } = selectedCapturesSql(selection, columns, `AND ${PAGE_SQL} ${first} ${also}`);
  return { sql, bind: (crawlId, alsoParams) => [crawlId, ...params, ...alsoParams, ...params] };
}

/**
 * Whether an HTML capture is not a page of its own, by its frontier row's way: the crawl reached it
 * as a page requisite (a frame, an iframe, an `<object>`'s HTML) or through the redirects of one:
 * such HTML is part of the page that embeds it, and Browsertrix lists no such fragment among a
 * collection's pages; or it is a host's robots.txt fetched for its rules (no frontier row), which a
 * server may answer with an HTML page (a soft 404), listed first, ahead of the seed, until it was
 * left out. Any other URL the frontier has no row of is a page.
 */
function notAPage(db: Database.Database, crawlId: number): (url: string) => boolean {
  const read = storedUrlReader(db, crawlId);
  const way = (url: string) => {
    const r = read(url);
    return r && { kind: r.kind, viaUrl: r.viaUrl };
  };
  return (url) => {
    const own = way(url);
    if (own === null) return isRobotsTxtUrl(url);
    return requisiteRedirectsOf(own.kind, own.viaUrl, way) !== null;
  };
}

/**
 * The pages a WACZ lists: successful HTML captures (responses and revisits) of the selection, each
 * page once (its first capture, with its title), seeds first, each with its visible text when
 * `text` says where to read it; not those reached as requisites, nor a robots.txt (notAPage). Read a
 * thousand rows at a time, each batch after the last row of the one before, so no query stays open
 * while records are read (the worker's crawls share the connection).
 */
async function* waczPages(db: Database.Database, crawlId: number, selection: CollectionSelection | null, text: { warcDir: string } | null, also: readonly PageRow[] = []): AsyncGenerator<WaczPage> {
  // A batch is the rest of its depth, then the depths after it, each read in the order of the
  // (crawlId, depth, id) index from where the last batch ended: with one condition over both
  // (depth > ? OR depth = ? AND id > ?) every batch of a crawl of M captures read and sorted all of
  // them, M² / 1,000 rows in all (and a row value still read its depth from the start).
  const sameDepth = pageCapturesSql(selection ?? EVERYTHING, PAGE_COLUMNS, 'AND depth = ? AND id > ?');
  const deeper = pageCapturesSql(selection ?? EVERYTHING, PAGE_COLUMNS, 'AND depth > ?');
  const notPage = notAPage(db, crawlId);
  const batch = db.prepare(
    `SELECT * FROM (${sameDepth.sql} ORDER BY id LIMIT 1000) UNION ALL SELECT * FROM (${deeper.sql} ORDER BY depth, id LIMIT 1000) ORDER BY depth, id LIMIT 1000`,
  );
  // The response a revisit repeats, whose record holds the payload.
  const repeated = db.prepare("SELECT warcFile, warcOffset, warcLength FROM Capture WHERE crawlId = ? AND payloadDigest = ? AND recordType = 'response' ORDER BY id LIMIT 1");
  const pageOf = async (r: PageRow): Promise<WaczPage> => {
    const page: WaczPage = { url: r.url, ts: pageTs(r.fetchedAt), title: r.title, truncated: r.truncated };
    if (text) page.text = await capturedPageText(repeated, text.warcDir, crawlId, r);
    return page;
  };
  for (let after = { depth: -1, id: 0 }; ; ) {
    const rows = batch.all(...sameDepth.bind(crawlId, [after.depth, after.id]), ...deeper.bind(crawlId, [after.depth])) as PageRow[];
    for (const r of rows) if (!notPage(r.url)) yield await pageOf(r);
    if (rows.length < 1000) break;
    after = rows.at(-1)!;
  }
  for (const r of also) if (!notPage(r.url)) yield await pageOf(r);
}

const PAGE_COLUMNS = 'id, depth, url, title, fetchedAt, recordType, payloadDigest, truncated, warcFile, warcOffset, warcLength';

/**
 * The pages a collection holds beyond its selection's: the successful HTML captures among `recordIds`
 * (the captures its redirects lead to and its pages' requisites, collection-additions.ts; waczPages leaves out those reached as requisites) whose URL the selection lists no page of,
 * each URL once, by its first capture among them, as waczPages lists a page by its first capture.
 * A WACZ of a section that moved (its redirects selected) listed no page at all. One pass over the
 * crawl's HTML captures, in id order: a query per 500 ids read them all each time (14.6 s for
 * 50,000 requisites of a crawl of 100,000 captures, growing with the square of the crawl).
 * `onProgress` hears the share of the crawl's captures read, 0..1.
 */
function pagesBeyondSelection(db: Database.Database, crawlId: number, selection: CollectionSelection, recordIds: readonly string[], onProgress?: (fraction: number) => void): PageRow[] {
  const listed = pageCapturesSql(selection, '1', 'AND url = ?');
  const inSelection = db.prepare(`${listed.sql} LIMIT 1`);
  const wanted = new Set(recordIds);
  const { lo, hi } = db.prepare('SELECT MIN(id) AS lo, MAX(id) AS hi FROM Capture WHERE crawlId = ?').get(crawlId) as { lo: number | null; hi: number | null };
  const seen = new Set<string>();
  const rows: PageRow[] = [];
  // In slices by id, none left open: progress is written on this connection between two.
  const slice = db.prepare(`SELECT ${PAGE_COLUMNS}, warcRecordId FROM Capture WHERE crawlId = ? AND id > ? AND recordType IN ('response', 'revisit') AND ${PAGE_SQL} ORDER BY id LIMIT 500`);
  for (let after = 0; ; ) {
    const found = slice.all(crawlId, after) as (PageRow & { warcRecordId: string | null })[];
    for (const { warcRecordId, ...r } of found) {
      if (warcRecordId === null || !wanted.has(warcRecordId) || seen.has(r.url)) continue;
      seen.add(r.url);
      if (!inSelection.get(...listed.bind(crawlId, [r.url]))) rows.push(r);
    }
    if (found.length < 500) break;
    after = found.at(-1)!.id;
    if (lo !== null && hi !== null) onProgress?.((after - lo) / (hi - lo + 1));
  }
  onProgress?.(1);
  return rows.sort((a, b) => a.depth - b.depth || a.id - b.id);
}

/** How many pages waczPages lists (`also` besides the selection's). */
function waczPageCount(db: Database.Database, crawlId: number, selection: CollectionSelection | null, also: readonly PageRow[]): number {
  const { sql, bind } = pageCapturesSql(selection ?? EVERYTHING, 'url', '');
  const notPage = notAPage(db, crawlId);
  let n = also.filter((r) => !notPage(r.url)).length;
  for (const url of db.prepare(sql).pluck().iterate(...bind(crawlId, [])) as IterableIterator<string>) if (!notPage(url)) n++;
  return n;
}

/** A page's `ts`: its capture's date, to the second. */
const pageTs = (fetchedAt: string) => new Date(fetchedAt).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * The page replay opens on: the crawl definition's first seed, as the crawl queued it, when the
 * package lists it (captured as a successful HTML page in the selection); else undefined (the
 * first page listed).
 */
function firstSeedPage(db: Database.Database, crawlId: number, definition: string, selection: CollectionSelection | null): WaczPage | undefined {
  let seed: string | null = null;
  try {
    const icd = JSON.parse(definition) as { seeds?: unknown };
    const first = Array.isArray(icd.seeds) ? icd.seeds[0] : undefined;
    if (typeof first === 'string') seed = canonicalize(first, undefined, { queryHandling: queryHandlingOf(definition) });
  } catch {
    return undefined;
  }
  if (!seed) return undefined;
  const { sql, bind } = pageCapturesSql(selection ?? EVERYTHING, 'url, fetchedAt', 'AND url = ?');
  const row = db.prepare(`${sql} ORDER BY id LIMIT 1`).get(...bind(crawlId, [seed])) as { url: string; fetchedAt: string } | undefined;
  return row ? { url: row.url, ts: pageTs(row.fetchedAt) } : undefined;
}

/** The share of a WACZ's packaging progress that finding the pages beyond its selection takes, when it holds any (pagesBeyondSelection). */
const BEYOND_SELECTION_SHARE = 0.1;

/** One crawl whose pages a WACZ lists (packageAsWacz). */
export interface WaczCrawlPages {
  crawlId: number;
  /** Where the crawl's own WARC files are, to read each page's text from, when the pages carry it. */
  pageTextFrom?: string;
  /** Record ids of captures the collection holds beyond its selection (its redirects' targets, its pages' requisites): listed as pages when they are pages, not requisites. */
  alsoHolds?: readonly string[];
}

/**
 * Packages a crawl's verified files (`files` in `dir`: WARC files, the CDXJ index, perhaps the
 * coherence certificate) as one WACZ at `outPath`, described by `description`; returns it as a
 * listed file. The pages are the crawl's (or the selection's) 2xx HTML captures, each page once,
 * those reached as requisites (frames, iframes) left out;
 * replay opens on the first seed when it is one of them. A collection of several crawls
 * (`otherCrawls` besides `crawlId`) lists each crawl's pages in turn, oldest crawl first: a page
 * captured by two crawls is listed twice, at each capture's date.
 */
export async function packageAsWacz(db: Database.Database, opts: WaczCrawlPages & {
  dir: string;
  files: readonly ExportedFile[];
  selection: CollectionSelection | null;
  outPath: string;
  description: string;
  /** The other crawls the files hold, when they are a collection of several. */
  otherCrawls?: readonly WaczCrawlPages[];
  onProgress?: (fraction: number) => void;
  /** Stops the packaging (writeWacz): no package is left, and the call throws the signal's reason. */
  signal?: AbortSignal;
}): Promise<ExportedFile> {
  const crawl = db.prepare('SELECT name, definition FROM Crawl WHERE id = ?').get(opts.crawlId) as { name: string; definition: string };
  const index = opts.files.find((f) => f.name === INDEX_NAME);
  if (!index) throw new Error(`No ${INDEX_NAME} to package: a WACZ needs the index`);
  const inDir = (f: ExportedFile, folder: string) => ({ path: join(opts.dir, f.name), inPackage: `${folder}/${f.name}`, bytes: f.bytes, sha256: f.sha256 });
  const sorted = [opts, ...(opts.otherCrawls ?? [])].sort((a, b) => a.crawlId - b.crawlId);
  // Finding the pages among what the collection holds besides its selection takes its share of the
  // packaging's progress by the record ids looked up; the package the rest.
  const beyond = opts.selection ? sorted.reduce((n, c) => n + (c.alsoHolds?.length ?? 0), 0) : 0;
  const beyondShare = beyond ? BEYOND_SELECTION_SHARE : 0;
  let lookedUp = 0;
  const crawls = sorted.map((c) => {
    const ids = opts.selection ? (c.alsoHolds ?? []) : [];
    const also = ids.length ? pagesBeyondSelection(db, c.crawlId, opts.selection!, ids, (f) => opts.onProgress?.(beyondShare * ((lookedUp + f * ids.length) / beyond))) : [];
    lookedUp += ids.length;
    return { ...c, also };
  });
  async function* pages(): AsyncGenerator<WaczPage> {
    for (const c of crawls) yield* waczPages(db, c.crawlId, opts.selection, c.pageTextFrom ? { warcDir: c.pageTextFrom } : null, c.also);
  }
  const packed = await writeWacz({
    outPath: opts.outPath,
    warcs: opts.files.filter((f) => f.name.endsWith('.warc.gz')).map((f) => inDir(f, 'archive')),
    index: { ...inDir(index, 'indexes'), inPackage: 'indexes/index.cdx' },
    pages: pages(),
    pagesHaveText: Boolean(opts.pageTextFrom),
    // Listing the pages takes a while, their text read or not (3.3 s without it for 50,000 pages,
    // 15.7 s with it): its progress is counted by the pages, which costs a count (0.3 s for them).
    expectedPages: crawls.reduce((n, c) => n + waczPageCount(db, c.crawlId, opts.selection, c.also), 0),
    extras: opts.files.filter((f) => f.name === CERTIFICATE_NAME).map((f) => inDir(f, 'coherence')),
    description: { title: crawl.name, description: opts.description, created: new Date(), mainPage: firstSeedPage(db, opts.crawlId, crawl.definition, opts.selection) },
    onProgress: opts.onProgress && ((f) => opts.onProgress!(beyondShare + (1 - beyondShare) * f)),
    signal: opts.signal,
  });
  return { name: basename(opts.outPath), bytes: packed.bytes, sha256: packed.sha256 };
}

interface ExportJob {
  exportId: number;
  crawlId: number;
  warcDir: string;
  exportDir: string;
  /**
   * Closes the WARC files the crawl left open in `warcDir` (closeFilesLeftOpen by default). The
   * worker passes its own, which keeps it from closing them at the same time as a stop does.
   */
  closeLeftOpen?: () => Promise<unknown>;
  /**
   * Where another crawl the export takes (ExportCrawl) keeps its WARC files, and how the files it
   * left open are closed (closeFilesLeftOpen by default); needed only by an export of several crawls.
   */
  otherCrawl?: (crawlId: number) => { warcDir: string; closeLeftOpen?: () => Promise<unknown> };
  /** Told as each step begins (tests watch the progress each step records). */
  onStep?: (step: ExportStep) => void;
  /**
   * The batch of lines the CDXJ index's merge reads of each sorted source at a time (mergeSortedFiles;
   * 1 MB by default), and the rows of a selection read from the database at a time (5,000 by
   * default): a test makes them small to go through many batches with few captures.
   */
  indexBatchBytes?: number;
  selectionBatchRows?: number;
}

/** A step of an export: finding what a selection holds (its walk), writing its files, verifying them, packaging a WACZ. */
export type ExportStep = 'select' | 'write' | 'verify' | 'package';

/** The crawls the export takes, oldest first, each with its WARC folder and its closer of files left open. */
function sourceCrawlsOf(db: Database.Database, job: ExportJob): ExportSourceCrawl[] {
  return exportCrawlIds(db, job.exportId).map((crawlId) => {
    const own = crawlId === job.crawlId;
    const place = own ? { warcDir: job.warcDir, closeLeftOpen: job.closeLeftOpen } : job.otherCrawl?.(crawlId);
    if (!place) throw new Error(`The export takes crawl ${crawlId}, whose WARC files this worker was not told of`);
    return { crawlId, warcDir: place.warcDir, closeLeftOpen: place.closeLeftOpen ?? (() => closeFilesLeftOpen(db, crawlId, place.warcDir)) };
  });
}

/** Rows of a selection read at a time (selectedValues), by default. */
const SELECTED_BATCH = 5000;

/**
 * One column of the captures a selection picks of one crawl (with `also`, as selectedCapturesSql
 * takes it), its nulls left out, read `batchRows` rows at a time in id order, each batch after
 * the last row of the one before: the collection's writer stores them on disk as they come, so no
 * crawl-sized list is held, and no query stays open between two batches.
 */
function* selectedValues(db: Database.Database, crawlId: number, selection: CollectionSelection, column: 'warcRecordId' | 'payloadDigest', batchRows: number, also = ''): Generator<string> {
  const { sql, params } = selectedCapturesSql(selection, `id, ${column} AS value`, `AND ${column} IS NOT NULL ${also} AND id > ?`);
  const batch = db.prepare(`${sql} ORDER BY id LIMIT ${batchRows}`);
  for (let after = 0; ; ) {
    const rows = batch.all(crawlId, after, ...params) as { id: number; value: string }[];
    for (const r of rows) yield r.value;
    if (rows.length < batchRows) return;
    after = rows.at(-1)!.id;
  }
}

/**
 * What a collection of a selection holds of one crawl beyond its selected captures
 * (collectionAdditions, whose walk `onProgress` hears, 0..1); null when the selection picks none of
 * the crawl's captures.
 */
async function selectionAdditions(db: Database.Database, source: ReadySource, selection: CollectionSelection, batchRows: number, signal: AbortSignal, onProgress: (fraction: number) => void): Promise<CollectionAdditions | null> {
  const held = new Set(selectedValues(db, source.crawlId, selection, 'warcRecordId', batchRows));
  if (!held.size) return null;
  // The captures its redirects lead to, and its pages' requisites: found within the same crawl.
  return collectionAdditions(db, source.crawlId, source.warcDir, selection, queryHandlingOf(source.definition), held, signal, onProgress);
}

/** What the export's warcinfo records and package say it is. */
function describeExport(sources: readonly ReadySource[], exportId: number, selection: CollectionSelection | null): string {
  const crawls = sources.length > 1 ? `crawls ${sources.map((c) => c.crawlId).join(', ')}` : `crawl ${sources[0]!.crawlId}`;
  return `Tidemark ${crawls}, export ${exportId}: ${selection ? describeSelection(selection) : sources.length > 1 ? 'every capture of each' : 'the whole crawl'}`;
}

/**
 * A collection's progress (before packaging) as its steps end: the walk that finds what the selection
 * holds besides its own captures (which reads every selected page's out-links: 8.5 s of 68 s for
 * 100,000 captures), then writing its files (scan and copy), then verifying them.
 */
const WALK_SHARE = 0.15;
const WRITTEN_AT = 0.8;

/**
 * Prepares a crawl's export and records progress 0..1. A WARC file the crawl left open (a full disk
 * paused it) is closed first, as a resume would close it. Every file it lists is in `exportDir`, so a
 * finished export does not change when the crawl is resumed. Without a selection: takes the crawl's
 * closed WARC files, index and certificate into `exportDir` (crawl-snapshot.ts: hard links, or
 * streamed copies across file systems), verifies every
 * WARC record's digests there (a corrupt file fails the export with its name rather than being
 * handed out) and checksums each file. With one (`Export.selection`): writes the collection's own
 * WARC files and index into `exportDir` (collection-export.ts), then verifies and checksums those.
 * As a WACZ (`Export.format`), the verified files are then packaged into one file in `exportDir`,
 * and the loose files removed.
 * An export that takes other crawls of the ICD besides its own (ExportCrawl) is one collection of
 * them all: the selection applied to each crawl, each page's requisites found in its own crawl,
 * their records in one set of WARC files (or, without a selection, each crawl's files as they are)
 * with one CDXJ index sorted over all and one page list, each capture at its own date; coherence
 * certificates are left out then (one per crawl, none for the whole).
 * An export cancelled meanwhile (export-cancel.ts: its row says so) is stopped where it is within
 * about CANCEL_POLL_MS, in the middle of a file too; its folder is removed and its row left as the
 * cancel wrote it.
 */
export async function runExport(db: Database.Database, job: ExportJob): Promise<void> {
  const setProgress = db.prepare("UPDATE Export SET progress = ? WHERE id = ? AND status = 'running'");
  // A collection reports each record it scans and copies: stored once a percent, not once a record.
  const progress = throttledProgress((f) => setProgress.run(f, job.exportId));
  // Cancelled between the worker's pick and now: not begun.
  if (db.prepare("UPDATE Export SET status = 'running' WHERE id = ? AND status = 'pending'").run(job.exportId).changes === 0) return;
  const cancel = watchCancellation(db, job.exportId);
  const { signal } = cancel;
  try {
    // What an interrupted attempt at this export left behind (the worker died mid-way) is not reused.
    rmSync(job.exportDir, { recursive: true, force: true });
    const crawls = sourceCrawlsOf(db, job);
    const several = crawls.length > 1;
    const sources: ReadySource[] = [];
    for (const c of crawls) sources.push(await readySource(db, c, several));
    const row = db.prepare('SELECT selection, format, pageText FROM Export WHERE id = ?').get(job.exportId) as { selection: string | null; format: string; pageText: number };
    const selection = selectionOf(row.selection);
    const wacz = row.format === 'wacz';
    // Progress: verifying and writing first, then packaging (which copies every byte once more).
    const share = wacz ? 0.5 : 1;
    let files: ExportedFile[];
    // What the collection holds beyond the selection in each crawl (the captures its redirects lead to, its pages' requisites).
    const alsoHolds = new Map<number, string[]>();
    if (!selection) {
      // Several crawls: their WARC files as they are (each names its crawl), one index of them all.
      const taken = sources.map((c) => ({ dir: c.warcDir, names: several ? c.warcs : c.names }));
      const names = taken.flatMap((t) => t.names);
      // What is copied rather than linked (another file system) is read twice, copied then verified:
      // progress counts both, so it moves while a large copy runs.
      const verifyBytes = taken.reduce((n, t) => t.names.reduce((m, name) => m + statSync(join(t.dir, name)).size, n), 0);
      let copyBytes = 0;
      let copiedBefore = 0;
      const part = (done: number) => progress(share * (done / ((copyBytes + verifyBytes) || 1)));
      job.onStep?.('write');
      for (const t of taken) {
        let toCopyHere = 0;
        await snapshotCrawlFiles(t.dir, job.exportDir, t.names, {
          onProgress: (copied, toCopy) => {
            copyBytes += toCopy - toCopyHere;
            toCopyHere = toCopy;
            part(copiedBefore + copied);
          },
          signal,
        });
        copiedBefore += toCopyHere;
      }
      if (several) {
        await writeMergedIndex(sources, job.exportDir, signal, job.indexBatchBytes);
        names.push(INDEX_NAME);
      }
      job.onStep?.('verify');
      files = await listVerified(job.exportDir, names, (f) => part(copyBytes + f * verifyBytes), signal);
    } else {
      const added = new Map<number, CollectionAdditions>();
      const batchRows = job.selectionBatchRows ?? SELECTED_BATCH;
      job.onStep?.('select');
      for (const [k, source] of sources.entries()) {
        // Each crawl's walk an equal part of the walk's share.
        const found = await selectionAdditions(db, source, selection, batchRows, signal, (f) => progress(share * WALK_SHARE * ((k + f) / sources.length)));
        if (found) added.set(source.crawlId, found);
        alsoHolds.set(source.crawlId, found?.ids ?? []);
      }
      if (!added.size) throw new Error(`No capture ${several ? 'of these crawls ' : ''}matches the selection (${describeSelection(selection)})`);
      // Read again from the database as the writer stores them, crawl by crawl: not held here.
      function* chosen(): Generator<string> {
        for (const c of sources) {
          yield* selectedValues(db, c.crawlId, selection!, 'warcRecordId', batchRows);
          yield* added.get(c.crawlId)?.ids ?? [];
        }
      }
      function* revisitDigests(): Generator<string> {
        for (const c of sources) {
          yield* selectedValues(db, c.crawlId, selection!, 'payloadDigest', batchRows, "AND recordType = 'revisit'");
          yield* added.get(c.crawlId)?.revisitDigests ?? [];
        }
      }
      job.onStep?.('write');
      const written = await writeCollection({
        sources: sources.map((c) => ({ dir: c.warcDir, files: c.warcs })), outDir: job.exportDir, prefix: `collection-${job.crawlId}-${job.exportId}`,
        chosen: chosen(), revisitDigests: revisitDigests(),
        description: describeExport(sources, job.exportId, selection),
        indexBatchBytes: job.indexBatchBytes,
        onProgress: (f) => progress(share * (WALK_SHARE + (WRITTEN_AT - WALK_SHARE) * f)),
        signal,
      });
      // Pages picked by their coherence: the crawl's certificate says which were proved unchanged.
      if (!several && selection.coherence.length && existsSync(join(job.warcDir, CERTIFICATE_NAME))) {
        await snapshotCrawlFiles(job.warcDir, job.exportDir, [CERTIFICATE_NAME], { signal });
        written.push(CERTIFICATE_NAME);
      }
      job.onStep?.('verify');
      files = await listVerified(job.exportDir, written, (f) => progress(share * (WRITTEN_AT + (1 - WRITTEN_AT) * f)), signal);
    }
    if (wacz) {
      // Capture rows point into the crawl's own files, a collection's too.
      const pagesOf = (c: ReadySource): WaczCrawlPages => ({ crawlId: c.crawlId, pageTextFrom: row.pageText ? c.warcDir : undefined, alsoHolds: alsoHolds.get(c.crawlId) });
      const own = sources.find((c) => c.crawlId === job.crawlId)!;
      job.onStep?.('package');
      const packed = await packageAsWacz(db, {
        ...pagesOf(own), dir: job.exportDir, files, selection,
        otherCrawls: sources.filter((c) => c !== own).map(pagesOf),
        outPath: join(job.exportDir, `tidemark-${job.crawlId}-${job.exportId}.wacz`),
        description: `${describeExport(sources, job.exportId, selection)}.`,
        onProgress: (f) => progress(0.5 + 0.5 * f),
        signal,
      });
      // The files are in the package now: keep one copy, not two.
      for (const f of files) rmSync(join(job.exportDir, f.name), { force: true });
      files = [packed];
    }
    signal.throwIfAborted();
    // Cancelled after the last look: its files are not offered, and removed below.
    const finished = db.prepare("UPDATE Export SET status = 'done', progress = 1, files = ?, finishedAt = ? WHERE id = ? AND status = 'running'").run(JSON.stringify(files), sqlDate(new Date()), job.exportId);
    if (finished.changes === 0) rmSync(job.exportDir, { recursive: true, force: true });
  } catch (err) {
    // A collection that failed (a file that does not verify, say) leaves none of its files behind.
    try {
      rmSync(job.exportDir, { recursive: true, force: true });
    } catch {
      // Not listed (the export is failed): what is left is removed when the export is made again or its crawl deleted.
    }
    // Cancelled: the row says so already, who and when.
    if (signal.aborted || isCancelled(db, job.exportId)) return;
    const reason = exportFailureReason(err);
    try {
      recordExportFailure(db, job.exportId, reason);
    } catch (refused) {
      throw new ExportFailureNotRecorded(reason, refused);
    }
  } finally {
    cancel.stop();
  }
}

/** Whether the export's row says it was cancelled (a cancel after the last look, which an error overtook). */
function isCancelled(db: Database.Database, exportId: number): boolean {
  try {
    return db.prepare('SELECT status FROM Export WHERE id = ?').pluck().get(exportId) === 'cancelled';
  } catch {
    return false;
  }
}

/**
 * `write` called with a progress fraction only once it has moved up by `step` since the last one
 * written (and always for the end, 1): the caller may report it thousands of times a second. A
 * fraction below the last written is not written: progress never goes back.
 */
export function throttledProgress(write: (fraction: number) => void, step = 0.01): (fraction: number) => void {
  let last = Number.NEGATIVE_INFINITY;
  return (fraction) => {
    if (fraction - last < step && !(fraction >= 1 && last < 1)) return;
    last = fraction;
    write(fraction);
  };
}

/** Marks a pending or running export failed with `reason` (throws when the database refuses the write). */
export function recordExportFailure(db: Database.Database, exportId: number, reason: string): void {
  db.prepare("UPDATE Export SET status = 'failed', error = ?, finishedAt = ? WHERE id = ? AND status IN ('pending', 'running')").run(reason, sqlDate(new Date()), exportId);
}

/**
 * An export failed and the database refused to record it (a full disk fills both): the caller
 * keeps `reason` and records it later (recordExportFailure), rather than the worker ending on it.
 */
export class ExportFailureNotRecorded extends Error {
  constructor(readonly reason: string, cause: unknown) {
    super(`Export failed (${reason}), and the failure could not be stored: ${(cause as Error).message}`, { cause });
  }
}
