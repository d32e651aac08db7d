import type Database from 'better-sqlite3';
import { feedSection, hasFeedsOrRecrawls, recrawlSection, type IncrementalSettings, type IncrementalView } from '../coherence/incremental-view';
import { readFeedStates } from './feed-state-store';
import { readRecrawlState } from './recrawl-history';

/** Recrawl rounds the cockpit lists. */
export const ROUNDS_SHOWN = 10;

/**
 * The "Feeds and recrawls" view of a crawl: reads what the engine stored of its feed polls and
 * recrawl rounds and shapes it (../coherence/incremental-view.ts). Reads only; a crawl that never
 * ran has empty parts. `minuteMs`: the engine's minute (CrawlEngine's option; tests shorten it).
 */
export function readIncrementalView(db: Database.Database, crawlId: number, settings: IncrementalSettings, crawlStatus: string, now: number, minuteMs = 60_000): IncrementalView {
  if (!hasFeedsOrRecrawls(settings)) return { feeds: null, recrawl: null };
  let feeds: IncrementalView['feeds'] = null;
  if (settings.feeds.length) feeds = feedSection(settings, readFeedStates(db, crawlId), crawlStatus, now);
  let recrawl: IncrementalView['recrawl'] = null;
  if (settings.recrawlIntervalMinutes > 0) {
    const { last, rounds, failures } = readRecrawlState(db, crawlId, ROUNDS_SHOWN);
    recrawl = recrawlSection(settings.recrawlIntervalMinutes, last, rounds, crawlStatus, now, failures, minuteMs);
  }
  return { feeds, recrawl };
}
