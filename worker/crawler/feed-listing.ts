import type Database from 'better-sqlite3';
import { tableExists } from '../store/sqlite';
import { feedClassesOf, type FeedClass, type FeedFilter, type FeedStateInput, type FeedSummary } from '../coherence/incremental-view';
import { pollSummaryOfRow, type PollRow } from './feed-state-store';

/**
 * The cockpit's feeds of a crawl counted and paged in SQL: an ICD may name 1,000 feeds, and the
 * section is polled every 15 s while the crawl runs, so neither the counts nor a page build a row
 * object for every feed. The ICD's feeds (a JSON array, read with json_each in their order) are
 * joined to what the engine stored of them (feed-state-store.ts). Reads only; creates nothing.
 */

// A database whose engine_feed predates engine_feed_poll (until a crawl with feeds runs again): no summaries.
const NO_POLLS = '(SELECT NULL AS crawl_id, NULL AS url, NULL AS last_outcome, NULL AS articles_new WHERE 0)';

/** Each feed of the ICD with its position, class (FeedClass) and the columns `columns` names, as `listed`. */
function listedFeeds(db: Database.Database, columns: string): string {
  const polls = tableExists(db, 'engine_feed_poll') ? 'engine_feed_poll' : NO_POLLS;
  return `WITH listed AS (
    SELECT j.key AS position, j.value AS feed_url, ${columns},
      CASE WHEN f.url IS NULL THEN 'not-polled' WHEN p.url IS NULL THEN 'not-known'
        WHEN p.last_outcome = 'ok' THEN 'ok' WHEN p.last_outcome = 'robots' THEN 'refused' WHEN p.last_outcome = 'excluded' THEN 'excluded'
        ELSE 'failing' END AS feed_class
    FROM json_each(:feeds) j
    LEFT JOIN engine_feed f ON f.crawl_id = :crawlId AND f.url = j.value
    LEFT JOIN ${polls} p ON p.crawl_id = :crawlId AND p.url = j.value)`;
}

const EMPTY: FeedSummary = { ok: 0, failing: 0, refused: 0, excluded: 0, 'not-polled': 0, 'not-known': 0, articlesNew: 0 };

/** The crawl's feeds `feeds` (its ICD's, in order) counted by class, with their new articles over every poll. */
export function readFeedSummary(db: Database.Database, crawlId: number, feeds: readonly string[]): FeedSummary {
  if (!tableExists(db, 'engine_feed')) return { ...EMPTY, 'not-polled': feeds.length };
  const sql = `${listedFeeds(db, 'p.articles_new')} SELECT feed_class, count(*) AS feeds, coalesce(sum(articles_new), 0) AS articles FROM listed GROUP BY feed_class`;
  const rows = db.prepare(sql).all({ feeds: JSON.stringify(feeds), crawlId }) as { feed_class: FeedClass; feeds: number; articles: number }[];
  const summary = { ...EMPTY };
  for (const r of rows) {
    summary[r.feed_class] = r.feeds;
    summary.articlesNew += r.articles;
  }
  return summary;
}

/**
 * The feeds `filter` selects of `feeds` (the ICD's, in order), `limit` of them from `offset`, and
 * their stored states (without the publication times: a row has no use for them).
 */
export function readFeedPage(db: Database.Database, crawlId: number, feeds: readonly string[], filter: FeedFilter, offset: number, limit: number): { feeds: string[]; stored: FeedStateInput[] } {
  const classes = feedClassesOf(filter);
  if (!tableExists(db, 'engine_feed')) {
    const page = classes === null || classes.includes('not-polled') ? feeds.slice(offset, offset + limit) : [];
    return { feeds: page, stored: [] };
  }
  const where = classes === null ? '' : `WHERE feed_class IN (${classes.map((c) => `'${c}'`).join(', ')})`;
  const sql = `${listedFeeds(db, 'f.last_poll_at AS state_last_poll_at, f.first_poll_at AS state_first_poll_at, p.*')}
    SELECT * FROM listed ${where} ORDER BY position LIMIT :limit OFFSET :offset`;
  type Row = Partial<PollRow> & { feed_url: string; state_last_poll_at: number | null; state_first_poll_at: number };
  const rows = db.prepare(sql).all({ feeds: JSON.stringify(feeds), crawlId, limit, offset }) as Row[];
  const stored = rows
    .filter((r) => r.state_last_poll_at !== null)
    .map((r): FeedStateInput => ({
      url: r.feed_url,
      lastPollAt: r.state_last_poll_at!,
      firstPollAt: r.state_first_poll_at,
      published: [],
      summary: r.url == null ? null : pollSummaryOfRow(r as PollRow),
    }));
  return { feeds: rows.map((r) => r.feed_url), stored };
}
