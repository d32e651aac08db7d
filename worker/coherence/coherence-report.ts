import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { PrismaClient } from '../store/prisma';
import type { CoherenceSummary } from './metrics';
import { certificateAsServed, summaryAsRead } from './legacy-summary';
import { visitedAfterReference } from './visit-set';
import { diffWords, rateHistogram, toGraphML, type CoherencePageRow, type CrawlCoherenceState, type DiffSegment, type HistogramBin } from './coherence-view';
import { runInReadTransaction } from '../store/sqlite';

/** The cockpit's read side of a visit–revisit capture (its queries live here, not in routes). */

export interface CoherenceReport {
  crawlId: number;
  /** The crawl's status and coherence mode (from its ICD copy), and its error: what an empty view says depends on them. */
  crawl: CrawlCoherenceState;
  run: { referenceTime: string; startedAt: string; finishedAt: string | null } | null;
  summary: CoherenceSummary | null;
  /** Pages visited, and revisited so far. */
  pages: number;
  revisited: number;
  /** Of `pages`, those visited after the run's reference time: outside its certificate, never revisited in it (tree status `after-reference`). */
  afterReference: number;
  histogram: HistogramBin[];
  certificateAvailable: boolean;
  /** Changes whenever the report does (see coherenceVersion): the route's ETag. */
  version: string;
}

export const CERTIFICATE_NAME = 'coherence-certificate.json';

/**
 * The columns the tree, the histogram and GraphML need, in visit order, through the SQLite driver
 * and from the index CoherencePage_tree_idx alone (the table's rows hold kilobytes of text): for
 * 100,000 pages the report took 1.1–1.8 s with Prisma's findMany of the same columns, 0.73–0.94 s
 * with the driver, 0.39–0.47 s with the index.
 */
function pageRows(db: Database.Database, crawlId: number): CoherencePageRow[] {
  return db.prepare(PAGE_ROWS_SQL).all(crawlId) as CoherencePageRow[];
}

/** pageRows' query (exported for the test that it reads the index only). */
export const PAGE_ROWS_SQL = 'SELECT id, url, parentUrl, depth, mime, status, changeRate FROM CoherencePage WHERE crawlId = ? ORDER BY id';

/** The rows of one page of the tree: pageRows' columns after a row id, from the same index. */
export const TREE_PAGE_SQL = 'SELECT id, url, parentUrl, depth, mime, status, changeRate FROM CoherencePage WHERE crawlId = ? AND id > ? ORDER BY id LIMIT ?';

/**
 * The ids, among the pages without a status, of those visited after the run's reference time (see
 * visitedAfterReference); `ids` bounds them to a range of row ids. From the (crawlId, status) index:
 * visitedAt is not in the tree's covering index, so a finished run reads a few rows.
 */
function pagesAfterReference(db: Database.Database, crawlId: number, run: Pick<RunRow, 'referenceTime'> | undefined, ids = { after: 0, upTo: Number.MAX_SAFE_INTEGER }): Set<number> {
  if (!run) return new Set();
  const referenceAt = new Date(run.referenceTime).getTime();
  const rows = db.prepare('SELECT id, visitedAt FROM CoherencePage WHERE crawlId = ? AND status IS NULL AND id > ? AND id <= ?').all(crawlId, ids.after, ids.upTo) as { id: number; visitedAt: string | number }[];
  return new Set(rows.filter((r) => visitedAfterReference(new Date(r.visitedAt).getTime(), referenceAt)).map((r) => r.id));
}

/** pageRows with each page visited after the run's reference time marked so. */
function treeRows(db: Database.Database, crawlId: number, run: Pick<RunRow, 'referenceTime'> | undefined): CoherencePageRow[] {
  return markedAfterReference(pageRows(db, crawlId), pagesAfterReference(db, crawlId, run));
}

/** `rows`, those whose id is in `after` marked as visited after the reference time. */
function markedAfterReference(rows: CoherencePageRow[], after: Set<number>): CoherencePageRow[] {
  return after.size ? rows.map((r) => (after.has(r.id) ? { ...r, afterReference: true } : r)) : rows;
}

const isoOf = (stored: string | number) => new Date(stored).toISOString();

interface RunRow {
  referenceTime: string;
  startedAt: string;
  finishedAt: string | null;
  summary: string | null;
}

/** What says whether a report changed: the crawl's status, the run, the certificate and three counts (from an index, in milliseconds). */
function reportState(db: Database.Database, crawlId: number, warcDir: string) {
  const crawlRow = db.prepare("SELECT status, json_extract(definition, '$.coherence.mode') AS mode, error FROM Crawl WHERE id = ?").get(crawlId) as
    { status: string; mode: string | null; error: string | null } | undefined;
  const crawl: CrawlCoherenceState = { status: crawlRow?.status ?? 'created', mode: crawlRow?.mode ?? 'snapshot', error: crawlRow?.error ?? null };
  const run = db.prepare('SELECT referenceTime, startedAt, finishedAt, summary FROM CoherenceRun WHERE crawlId = ?').get(crawlId) as RunRow | undefined;
  const counts = db.prepare('SELECT COUNT(*) AS pages, COUNT(status) AS revisited, COALESCE(MAX(id), 0) AS last FROM CoherencePage WHERE crawlId = ?').get(crawlId) as
    { pages: number; revisited: number; last: number };
  const certificateAvailable = existsSync(join(warcDir, CERTIFICATE_NAME));
  // A page's row changes when it is visited (a new row: pages and last move) or revisited (once:
  // revisited moves). A visit fetched again after a crash replaces its row in place and moves none;
  // that shows with the next page visited or revisited, at the latest when the run finishes (once,
  // as it starts once; the certificate is written then).
  const version = [crawl.status, counts.pages, counts.revisited, counts.last, run ? new Date(run.startedAt).getTime() : 0, run?.finishedAt ? new Date(run.finishedAt).getTime() : 0, certificateAvailable ? 1 : 0].join('-');
  return { crawl, run, counts, certificateAvailable, version };
}

/**
 * The version of a crawl's coherence report without building it (a few milliseconds for 100,000
 * pages, against 0.4 s for the report): the cockpit asks again every few seconds while the passes
 * run, and an unchanged report is answered with a 304.
 */
export function coherenceVersion(db: Database.Database, crawlId: number, warcDir: string): string {
  return runInReadTransaction(db, () => reportState(db, crawlId, warcDir).version);
}

/**
 * Summary and change-rate histogram of a crawl's visit–revisit capture, its size the same whatever
 * the number of pages: the discovery tree's rows come a page at a time (coherenceTreePage). It held
 * the whole tree, an entry a page: 12 MB for 100,000 pages, sent again at every change while the
 * passes ran. The run and the counts are read in one transaction, so they agree with each other and
 * with `version` while the worker writes.
 */
export function coherenceReport(db: Database.Database, crawlId: number, warcDir: string): CoherenceReport {
  const { crawl, run, counts, certificateAvailable, version, rates, after } = runInReadTransaction(db, () => {
    const state = reportState(db, crawlId, warcDir);
    const rates = db.prepare('SELECT changeRate FROM CoherencePage WHERE crawlId = ? AND changeRate IS NOT NULL').pluck().all(crawlId) as number[];
    return { ...state, rates, after: pagesAfterReference(db, crawlId, state.run).size };
  });
  return {
    crawlId,
    crawl,
    run: run ? { referenceTime: isoOf(run.referenceTime), startedAt: isoOf(run.startedAt), finishedAt: run.finishedAt === null ? null : isoOf(run.finishedAt) } : null,
    summary: run?.summary ? summaryAsRead(JSON.parse(run.summary) as CoherenceSummary) : null,
    pages: counts.pages,
    revisited: counts.revisited,
    afterReference: after,
    histogram: rateHistogram(rates),
    certificateAvailable,
    version,
  };
}

/** Most rows a page of the discovery tree holds. */
export const TREE_PAGE_MAX = 2_000;

/** One page of the discovery tree's rows, and the cursor of the next (null after the last). */
export interface CoherenceTreePage {
  /** The pages after the cursor asked for, in visit order (row id), each marked when visited after the reference time. */
  items: CoherencePageRow[];
  /** The cursor (`after`) of the next page; null when no page comes after these. */
  next: number | null;
  /** Pages of the capture in all. */
  total: number;
}

/**
 * The discovery tree's rows after row id `after`, at most `limit` of them, in visit order: paged by
 * row id, so a page visited while the cockpit pages through is on a later page, and each page on
 * exactly one. The cockpit builds the tree (buildDiscoveryTree) of the rows it has read.
 */
export function coherenceTreePage(db: Database.Database, crawlId: number, after: number, limit: number): CoherenceTreePage {
  return runInReadTransaction(db, () => {
    const rows = db.prepare(TREE_PAGE_SQL).all(crawlId, after, limit + 1) as CoherencePageRow[];
    const more = rows.length > limit;
    const items = rows.slice(0, limit);
    const run = db.prepare('SELECT referenceTime FROM CoherenceRun WHERE crawlId = ?').get(crawlId) as Pick<RunRow, 'referenceTime'> | undefined;
    const late = items.length ? pagesAfterReference(db, crawlId, run, { after, upTo: items[items.length - 1]!.id }) : new Set<number>();
    const total = (db.prepare('SELECT COUNT(*) FROM CoherencePage WHERE crawlId = ?').pluck().get(crawlId) as number);
    return { items: markedAfterReference(items, late), next: more ? items[items.length - 1]!.id : null, total };
  });
}

export interface CoherencePageDetail {
  url: string;
  status: string | null;
  /** Visited after the run's reference time: outside its certificate, not revisited in this run (status stays null). */
  afterReference: boolean;
  /** The run's reference time, null before the revisit pass began. */
  referenceTime: string | null;
  evidence: string | null;
  similarity: number | null;
  visitedAt: string;
  revisitedAt: string | null;
  linksAdded: string[];
  linksRemoved: string[];
  visitText: string;
  revisitText: string | null;
  diff: DiffSegment[];
}

/** One page's visit and revisit side by side, with the word diff of their main texts; the page by its row id or its URL. */
export async function coherencePageDetail(prisma: PrismaClient, crawlId: number, page: { id: number } | { url: string }): Promise<CoherencePageDetail | null> {
  const p = 'id' in page
    ? await prisma.coherencePage.findUnique({ where: { id: page.id } })
    : await prisma.coherencePage.findUnique({ where: { crawlId_url: { crawlId, url: page.url } } });
  if (!p || p.crawlId !== crawlId) return null;
  const run = await prisma.coherenceRun.findUnique({ where: { crawlId }, select: { referenceTime: true } });
  const verdict = p.verdict ? (JSON.parse(p.verdict) as { linksAdded?: string[]; linksRemoved?: string[] }) : {};
  return {
    url: p.url, status: p.status, evidence: p.evidence, similarity: p.similarity,
    afterReference: p.status === null && run !== null && visitedAfterReference(p.visitedAt.getTime(), run.referenceTime.getTime()),
    referenceTime: run?.referenceTime.toISOString() ?? null,
    visitedAt: p.visitedAt.toISOString(), revisitedAt: p.revisitedAt?.toISOString() ?? null,
    linksAdded: verdict.linksAdded ?? [], linksRemoved: verdict.linksRemoved ?? [],
    visitText: p.visitText, revisitText: p.revisitText,
    diff: p.revisitText === null ? [] : diffWords(p.visitText, p.revisitText),
  };
}

/** The discovery tree as GraphML. */
export function coherenceGraphml(db: Database.Database, crawlId: number): string {
  return runInReadTransaction(db, () => {
    const run = db.prepare('SELECT referenceTime FROM CoherenceRun WHERE crawlId = ?').get(crawlId) as Pick<RunRow, 'referenceTime'> | undefined;
    return toGraphML(treeRows(db, crawlId, run));
  });
}

/**
 * The certificate written beside the WARC files, or null before the revisit pass finished; one
 * written before stop 35 for a run over no page reads null coherence (certificateAsServed).
 */
export function readCertificate(warcDir: string): string | null {
  const path = join(warcDir, CERTIFICATE_NAME);
  return existsSync(path) ? certificateAsServed(readFileSync(path, 'utf8')) : null;
}
