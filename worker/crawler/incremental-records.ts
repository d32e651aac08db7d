import type Database from 'better-sqlite3';
import { FEEDS_PER_PAGE, feedSection, feedsPolled, hasFeedsOrRecrawls, nextPolls, recrawlSection, type FeedFilter, type IncrementalSettings, type IncrementalView } from '../coherence/incremental-view';
import { readFeedPage, readFeedSummary } from './feed-listing';
import { readFeedStates } from './feed-state-store';
import { readRecrawlState } from './recrawl-history';
import { runInReadTransaction } from '../store/sqlite';

/** Recrawl rounds the cockpit lists. */
export const ROUNDS_SHOWN = 10;

/** Which feeds the view lists: page `page` (from 1) of `pageSize` of those `filter` selects. */
export interface FeedPageRequest {
  filter: FeedFilter;
  page: number;
  pageSize: number;
}

const FIRST_PAGE: FeedPageRequest = { filter: 'all', page: 1, pageSize: FEEDS_PER_PAGE };

/**
 * The "Feeds and recrawls" view of a crawl: reads what the engine stored of its feed polls and
 * recrawl rounds and shapes it (../coherence/incremental-view.ts): every feed counted, the rows of
 * one page of them (`feedPage`). Reads only; a crawl that never ran has empty parts. `minuteMs`:
 * the engine's minute (CrawlEngine's option; tests shorten it).
 */
export function readIncrementalView(
  db: Database.Database,
  crawlId: number,
  settings: IncrementalSettings,
  crawlStatus: string,
  now: number,
  minuteMs = 60_000,
  feedPage: FeedPageRequest = FIRST_PAGE,
): IncrementalView {
  if (!hasFeedsOrRecrawls(settings)) return { feeds: null, recrawl: null };
  let feeds: IncrementalView['feeds'] = null;
  if (settings.feeds.length) {
    const { filter, page, pageSize } = feedPage;
    // One read transaction: the counts and the page agree though the worker writes polls meanwhile.
    feeds = runInReadTransaction(db, () => {
      const summary = readFeedSummary(db, crawlId, settings.feeds);
      const listed = readFeedPage(db, crawlId, settings.feeds, filter, (page - 1) * pageSize, pageSize);
      // The plan of a page's feeds depends on every feed's polls, so it reads them all; only while the crawl runs.
      const next = feedsPolled(crawlStatus) ? nextPolls(settings, readFeedStates(db, crawlId), now) : null;
      return feedSection(settings, summary, { filter, page, pageSize, ...listed }, next);
    });
  }
  let recrawl: IncrementalView['recrawl'] = null;
  if (settings.recrawlIntervalMinutes > 0) {
    const { last, rounds, failures } = readRecrawlState(db, crawlId, ROUNDS_SHOWN);
    recrawl = recrawlSection(settings.recrawlIntervalMinutes, last, rounds, crawlStatus, now, failures, minuteMs);
  }
  return { feeds, recrawl };
}
