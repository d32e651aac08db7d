import { join } from 'node:path';

/** Where a crawl's WARC files, CDXJ index and coherence certificate live under the data directory. */
export function crawlWarcDir(dataDir: string, crawlId: number): string {
  return join(dataDir, 'warcs', String(crawlId));
}

/** Where an export keeps every file it lists: what it took of the crawl, a collection's own WARC files and index, a WACZ package. */
export function exportDir(dataDir: string, exportId: number): string {
  return join(dataDir, 'exports', String(exportId));
}
