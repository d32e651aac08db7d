import type Database from 'better-sqlite3';
import type { CrawlStats } from '../events/messages';
import { SqliteFrontier } from '../frontier';
import { ensureFrontierTables } from '../frontier/frontier-sql';
import { closeIntakeAs, pendingScoredUrls, settleScoredIntake, type IntakeEnd } from '../frontier/scored-intake';
import { parseIcd } from '../icd/schema';
import { withFrontierChange } from '../crawler/crawl-stats';
import { crawlFrontierConfig, crawlUpdateFunction } from '../crawler/frontier-config';
import { sqlDate } from '../store/sqlite';
import { isStorageFailure } from '../store/storage-failure';

/** How a crawl ends for good: its final status, and for a failure why. */
export interface CrawlEnd {
  status: IntakeEnd;
  error?: string;
}

/**
 * Gives the crawl its final status (finished, stopped, failed) in one immediate write transaction
 * with the settling of the URLs posted to it that still wait, the same kind as the API's check and
 * store of posted URLs (postScoredUrls): SQLite orders the two, so a URL posted before is recorded
 * here, one posted after is refused (409), and none stays in frontier_intake of a crawl that will
 * not run again. A finished crawl's engine settled them as it ended its visits (finishIntake).
 *
 * Each waiting URL new to the crawl is recorded as excluded `crawl-ended`, through a frontier opened
 * for the crawl (its engine's, if it ran, is closed), and the crawl's stored counters get the change,
 * so its excludedByReason shows them: the engine's last counters must be stored before.
 * Should the settling fail for another reason than the storage (an ICD this version no longer
 * reads), the crawl still ends, and the URLs are left, with a word in the worker's log.
 * The hosts' politeness rows the crawl no longer needs are the caller's to prune once this returns
 * (prunePolitenessRows, in short transactions of its own).
 */
export function endCrawl(db: Database.Database, crawlId: number, end: CrawlEnd, now = new Date()): void {
  ensureFrontierTables(db);
  const mark = db.prepare('UPDATE Crawl SET status = ?, finishedAt = ?, stats = COALESCE(?, stats), error = COALESCE(?, error) WHERE id = ?');
  try {
    db.transaction(() => {
      const row = db.prepare('SELECT definition, stats FROM Crawl WHERE id = ?').get(crawlId) as StoredCrawl | undefined;
      const stats = row && pendingScoredUrls(db, crawlId) > 0 ? settleWaiting(db, crawlId, row) : null;
      closeIntakeAs(db, crawlId, end.status, now.getTime());
      mark.run(end.status, sqlDate(now), stats && JSON.stringify(stats), end.error ?? null, crawlId);
    }).immediate();
  } catch (err) {
    if (isStorageFailure(err)) throw err;
    console.error(`tidemark worker: crawl ${crawlId}: the URLs posted to it that wait could not be recorded as it ended: ${(err as Error).message}`);
    mark.run(end.status, sqlDate(now), null, end.error ?? null, crawlId);
  }
}

interface StoredCrawl {
  definition: string;
  stats: string;
}

/** Records the crawl's waiting URLs as excluded `crawl-ended`; its stored counters with them. */
function settleWaiting(db: Database.Database, crawlId: number, crawl: StoredCrawl): Partial<CrawlStats> {
  const icd = parseIcd(JSON.parse(crawl.definition));
  // A frontier of the worker's own, not its shared politeness clocks: it fetches nothing.
  const frontier = new SqliteFrontier(db);
  try {
    frontier.openCrawl(crawlId, crawlFrontierConfig(icd));
    const before = frontier.counters(crawlId);
    settleScoredIntake(db, frontier, crawlId, crawlUpdateFunction(icd), 'crawl-ended');
    return withFrontierChange(JSON.parse(crawl.stats) as Partial<CrawlStats>, before, frontier.counters(crawlId));
  } finally {
    frontier.close();
  }
}
