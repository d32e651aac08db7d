import type Database from 'better-sqlite3';
import { feedSection, hasFeedsOrRecrawls, recrawlSection, type IncrementalSettings, type IncrementalView, type LoggedPoll } from '../coherence/incremental-view';
import { readFeedStates } from './feed-state-store';
import { readRecrawlState } from './recrawl-history';

/** Recrawl rounds the cockpit lists. */
export const ROUNDS_SHOWN = 10;

/**
 * The "Feeds and recrawls" view of a crawl: reads what the engine stored of its feed polls and
 * recrawl rounds (and, for feeds polled before poll records were kept, the crawl log) and shapes
 * it (../coherence/incremental-view.ts). Reads only; a crawl that never ran has empty parts.
 */
export function readIncrementalView(db: Database.Database, crawlId: number, settings: IncrementalSettings, crawlStatus: string, now: number): IncrementalView {
  if (!hasFeedsOrRecrawls(settings)) return { feeds: null, recrawl: null };
  let feeds: IncrementalView['feeds'] = null;
  if (settings.feeds.length) {
    const stored = readFeedStates(db, crawlId);
    const unrecorded = stored.filter((s) => !s.summary).map((s) => s.url);
    feeds = feedSection(settings, stored, lastLoggedPolls(db, crawlId, unrecorded), crawlStatus, now);
  }
  let recrawl: IncrementalView['recrawl'] = null;
  if (settings.recrawlIntervalMinutes > 0) {
    const { last, rounds, failures } = readRecrawlState(db, crawlId, ROUNDS_SHOWN);
    recrawl = recrawlSection(settings.recrawlIntervalMinutes, last, rounds, crawlStatus, now, failures);
  }
  return { feeds, recrawl };
}

/**
 * The crawl log's last 'feed poll' entry of each of `urls`. Read only for feeds polled before poll
 * records were kept, so at most once per such feed until its next poll.
 */
function lastLoggedPolls(db: Database.Database, crawlId: number, urls: string[]): Map<string, LoggedPoll> {
  const found = new Map<string, LoggedPoll>();
  // SQLite's default limit of bound parameters is 32,766; the ICD allows 1,000 feeds.
  for (let i = 0; i < urls.length; i += 500) {
    const part = urls.slice(i, i + 500);
    const rows = db
      .prepare(
        `SELECT e.url AS url, e.status AS status, e.outcome AS outcome, e.at AS at FROM CrawlLogEntry e
         JOIN (SELECT MAX(id) AS id FROM CrawlLogEntry WHERE crawlId = ? AND message = 'feed poll' AND url IN (${part.map(() => '?').join(', ')}) GROUP BY url) m ON e.id = m.id`,
      )
      .all(crawlId, ...part) as { url: string; status: number | null; outcome: string; at: string }[];
    for (const r of rows) found.set(r.url, { status: r.status, outcome: r.outcome, at: r.at });
  }
  return found;
}
