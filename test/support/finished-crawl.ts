import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../worker/crawler/crawl-engine';
import type { SiteCrawl } from './site-crawl';

/**
 * Runs a crawl stored by withSiteCrawl with the engine until it finishes, WARC files in `dir/warcs`,
 * and marks it finished as the worker does, so it may be exported; returns its WARC folder.
 */
export async function crawlToTheEnd({ dir, db, icd, crawlId }: Omit<SiteCrawl, 'origin'>): Promise<string> {
  const warcDir = join(dir, 'warcs');
  assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') }).run(), 'finished');
  db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  return warcDir;
}
