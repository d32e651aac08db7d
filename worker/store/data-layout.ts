import { isAbsolute, join, relative, sep } from 'node:path';

/** Where a crawl's WARC files, CDXJ index and coherence certificate live under the data directory. */
export function crawlWarcDir(dataDir: string, crawlId: number): string {
  return join(dataDir, 'warcs', String(crawlId));
}

/**
 * Where a crawl's fetches spool bodies too large for memory while their records are written. Nothing
 * in it outlives a run: the engine empties it when a run starts (a crash leaves spool files behind)
 * and removes it when the run ends.
 */
export function crawlSpoolDir(dataDir: string, crawlId: number): string {
  return join(dataDir, 'spool', String(crawlId));
}

/** Where an export keeps every file it lists: what it took of the crawl, a collection's own WARC files and index, a WACZ package. */
export function exportDir(dataDir: string, exportId: number): string {
  return join(dataDir, 'exports', String(exportId));
}

/**
 * Whether `path` lies strictly inside `folder` (both absolute or both relative to the same place):
 * what a removal under the exports folder checks before it touches a path.
 */
export function isInside(folder: string, path: string): boolean {
  const rel = relative(folder, path);
  return rel !== '' && rel !== '..' && !rel.startsWith(`..${sep}`) && !isAbsolute(rel);
}
