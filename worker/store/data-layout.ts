import { join } from 'node:path';

/** Where a crawl's WARC files, CDXJ index and coherence certificate live under the data directory. */
export function crawlWarcDir(dataDir: string, crawlId: number): string {
  return join(dataDir, 'warcs', String(crawlId));
}
