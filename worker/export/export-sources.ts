import type Database from 'better-sqlite3';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crawlWarcId, INDEX_NAME, isWarcFileOf } from '../warc';
import { mergeSortedFiles, sortFilesInto, UnsortedSource } from '../warc/cdxj-index';
import { CERTIFICATE_NAME } from '../coherence/coherence-report';
import { noCapturesRefusal } from '../process/crawl-control';
import { storageProblem } from '../store/storage-failure';

/** The files an export offers: closed WARC files and the CDXJ index (never `.open` files). */
export function exportableFiles(warcDir: string, crawlId?: number): string[] {
  if (!existsSync(warcDir)) return [];
  return readdirSync(warcDir)
    .filter((name) => (name.endsWith('.warc.gz') && (crawlId === undefined || isWarcFileOf(crawlWarcId(crawlId), name))) || name === INDEX_NAME || name === CERTIFICATE_NAME)
    .sort();
}

/** A crawl an export takes: where its WARC files are, and how the files its last run left open are closed. */
export interface ExportSourceCrawl {
  crawlId: number;
  warcDir: string;
  closeLeftOpen: () => Promise<unknown>;
}

/** A crawl an export takes, ready to be read: its ICD copy and its closed files. */
export interface ReadySource extends ExportSourceCrawl {
  definition: string;
  /** Its exportable files (exportableFiles). */
  names: string[];
  /** The WARC files among them. */
  warcs: string[];
}

/**
 * Checks that a crawl may be exported now (it exists, no worker writes it), closes the WARC file
 * its last run left open (a full disk paused it: the database acknowledged its captures) as a
 * resume would, and lists its closed files; throws saying why it cannot be taken, naming the crawl
 * when the export takes several (`several`).
 */
export async function readySource(db: Database.Database, source: ExportSourceCrawl, several: boolean): Promise<ReadySource> {
  const refuse = (message: string) => new Error(several ? `Crawl ${source.crawlId}: ${message}` : message);
  const crawl = db.prepare('SELECT status, definition FROM Crawl WHERE id = ?').get(source.crawlId) as { status: string; definition: string } | undefined;
  if (!crawl) throw refuse('The crawl no longer exists');
  if (['running', 'pausing', 'stopping', 'created'].includes(crawl.status)) {
    throw refuse(`The crawl is ${crawl.status}: pause, stop or let it finish before exporting`);
  }
  try {
    await source.closeLeftOpen();
  } catch (err) {
    throw refuse(`The crawl's last WARC file, left open, could not be closed: ${exportFailureReason(err)}`);
  }
  const names = exportableFiles(source.warcDir);
  const warcs = names.filter((n) => n.endsWith('.warc.gz'));
  if (!warcs.length) {
    // An ended crawl that captured nothing has none and never will: "yet" sent people to wait.
    const captures = db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(source.crawlId) as number;
    throw refuse(noCapturesRefusal(crawl.status, captures) ?? 'The crawl has no closed WARC files yet');
  }
  return { ...source, definition: crawl.definition, names, warcs };
}

/**
 * Writes into `outDir` one CDXJ index of the crawls' own indexes, its lines sorted over them all
 * (replay tools binary-search it), for an export that takes several crawls' WARC files as they are:
 * their names differ (each names its crawl), so each line still names its file. Each crawl's index
 * is sorted already, so they are merged as they are read, a batch of lines of each at a time: a
 * year of daily crawls of a million captures each is never in memory. An index not in byte order
 * (an earlier version sorted in UTF-16 order) is sorted on disk first. An aborted `signal` stops it;
 * `batchBytes` is the merge's batch (mergeSortedFiles).
 */
export async function writeMergedIndex(sources: readonly ReadySource[], outDir: string, signal?: AbortSignal, batchBytes?: number): Promise<void> {
  const paths = sources.map((source) => {
    const path = join(source.warcDir, INDEX_NAME);
    if (!existsSync(path)) throw new Error(`Crawl ${source.crawlId} has WARC files but no ${INDEX_NAME}`);
    return path;
  });
  const out = join(outDir, INDEX_NAME);
  try {
    await mergeSortedFiles(paths, out, { signal, batchBytes });
  } catch (err) {
    if (!(err instanceof UnsortedSource)) throw err;
    await sortFilesInto(paths, out, outDir, { signal, batchBytes });
  }
}

/** Why an export failed, for the manager: a storage failure says what happened and what to do. */
export function exportFailureReason(err: unknown): string {
  const detail = err instanceof Error ? err.message : String(err);
  const problem = storageProblem(err);
  if (!problem) return detail;
  const remedy = /full|quota/.test(problem) ? 'make room' : 'repair the storage';
  return `${problem[0]!.toUpperCase()}${problem.slice(1)} (${detail}): ${remedy}, then export again`;
}
