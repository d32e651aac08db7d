import type Database from 'better-sqlite3';
import { tableExists, runInTransaction } from '../store/sqlite';
import { addPoll, type FeedMemory, type FeedPoll, type FeedPollOutcome, type FeedPollSummary } from '../feeds';

/**
 * Where a crawl keeps what its feed polls taught the scheduler (FeedMemory), so that a resumed
 * crawl or a restarted worker goes on from it, and what the polls found (for the cockpit).
 * FeedMonitor depends on this, not on SQLite.
 */
export interface FeedMemoryStore {
  /** Every feed's memory, by the feed's URL as the ICD names it. */
  load(): Map<string, FeedMemory>;
  /** The feed's memory after `poll`, and the poll itself (added to the feed's poll summary). */
  save(url: string, memory: FeedMemory, poll: FeedPoll): void;
  /**
   * The feeds whose last recorded poll was found excluded (an earlier run recorded it), each with
   * the excluded address it had moved to (null: the pattern matched the feed itself).
   */
  excludedFeeds?(): Map<string, string | null>;
}

// What the cockpit's plan of the next polls reads of each feed (readFeedStates), without seen: the
// item ids come before published in a row and make most of it (200 ids or more, 15-30 kB), so
// reading published from the table read every feed's ids too (9,124 pages for 1,000 feeds).
const FEED_PLAN_INDEX = 'CREATE INDEX IF NOT EXISTS engine_feed_plan ON engine_feed (crawl_id, url, last_poll_at, first_poll_at, published)';

// Times are wall-clock ms. One row a feed, rewritten after each of its polls: the item ids are
// bounded (FeedScheduler keeps max(200, twice a poll's items)), the publication times by the
// estimate's history (14 days).
const DDL = `
CREATE TABLE IF NOT EXISTS engine_feed (
  crawl_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  last_poll_at REAL NOT NULL,
  first_poll_at REAL NOT NULL,
  -- JSON array of the remembered item ids, least recently listed first.
  seen TEXT NOT NULL,
  -- JSON array of the publication times kept for the posting-rate estimate.
  published TEXT NOT NULL,
  PRIMARY KEY (crawl_id, url)
) WITHOUT ROWID;
${FEED_PLAN_INDEX};
-- What the feed's polls found (FeedPollSummary), one row a feed, for the cockpit; the scheduler
-- does not read it. A table of its own: engine_feed rows written before it existed stay as they are.
CREATE TABLE IF NOT EXISTS engine_feed_poll (
  crawl_id INTEGER NOT NULL,
  url TEXT NOT NULL,
  polls INTEGER NOT NULL,
  failed_polls INTEGER NOT NULL,
  articles_new INTEGER NOT NULL,
  last_at REAL NOT NULL,
  last_outcome TEXT NOT NULL,
  last_status INTEGER,
  last_detail TEXT,
  last_listed INTEGER NOT NULL,
  last_new INTEGER NOT NULL,
  -- JSON array of the last polls' new articles, oldest first.
  recent_new TEXT NOT NULL,
  -- A last poll found excluded for the address the feed moved to: that address (FeedPoll.movedTo).
  last_moved_to TEXT,
  PRIMARY KEY (crawl_id, url)
) WITHOUT ROWID;
`;

interface FeedRow {
  url: string;
  last_poll_at: number;
  first_poll_at: number;
  seen: string;
  published: string;
}

/** The crawl's feed memories in its database, in an engine-owned table (removed with the crawl). */
export class SqliteFeedMemoryStore implements FeedMemoryStore {
  constructor(private readonly db: Database.Database, private readonly crawlId: number) {
    db.exec(DDL);
    // A table created before the column existed (its feeds then recorded no moved-to address).
    const columns = (db.prepare('PRAGMA table_info(engine_feed_poll)').all() as { name: string }[]).map((c) => c.name);
    if (!columns.includes('last_moved_to')) db.exec('ALTER TABLE engine_feed_poll ADD COLUMN last_moved_to TEXT');
  }

  load(): Map<string, FeedMemory> {
    const rows = this.db.prepare('SELECT url, last_poll_at, first_poll_at, seen, published FROM engine_feed WHERE crawl_id = ?').all(this.crawlId) as FeedRow[];
    const memories = new Map<string, FeedMemory>();
    for (const r of rows) {
      const seen = parseArray(r.seen).filter((id): id is string => typeof id === 'string');
      memories.set(r.url, { lastPollAt: r.last_poll_at, firstPollAt: r.first_poll_at, seen, published: parsePublished(r.published) });
    }
    return memories;
  }

  excludedFeeds(): Map<string, string | null> {
    return new Map([...readPollSummaries(this.db, this.crawlId)].filter(([, s]) => s.last.outcome === 'excluded').map(([url, s]) => [url, s.last.movedTo ?? null]));
  }

  save(url: string, m: FeedMemory, poll: FeedPoll): void {
    runInTransaction(this.db, () => {
      this.db
        .prepare(
          `INSERT INTO engine_feed (crawl_id, url, last_poll_at, first_poll_at, seen, published) VALUES (?, ?, ?, ?, ?, ?)
           ON CONFLICT (crawl_id, url) DO UPDATE SET last_poll_at = excluded.last_poll_at, first_poll_at = excluded.first_poll_at, seen = excluded.seen, published = excluded.published`,
        )
        .run(this.crawlId, url, m.lastPollAt, m.firstPollAt, JSON.stringify(m.seen), JSON.stringify(m.published));
      const previous = readPollSummaries(this.db, this.crawlId, url).get(url) ?? null;
      const s = addPoll(previous, poll);
      this.db
        .prepare(
          `INSERT OR REPLACE INTO engine_feed_poll (crawl_id, url, polls, failed_polls, articles_new, last_at, last_outcome, last_status, last_detail, last_listed, last_new, recent_new, last_moved_to)
           VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
        )
        .run(this.crawlId, url, s.polls, s.failedPolls, s.articlesNew, s.last.at, s.last.outcome, s.last.status, s.last.detail, s.last.listed, s.last.fresh, JSON.stringify(s.recentNew), s.last.movedTo ?? null);
    });
  }
}

/**
 * Creates the index the cockpit's plan reads (engine_feed_plan) on a database whose engine_feed an
 * older Tidemark made without it; the worker runs it as it starts. Made only with the feed tables,
 * the index came once a crawl with feeds ran again, and until then the plan of a finished crawl's
 * feeds read every remembered item id. Creates nothing on a database without feeds.
 */
export function ensureFeedPlanIndex(db: Database.Database): void {
  if (tableExists(db, 'engine_feed')) db.exec(FEED_PLAN_INDEX);
}

/** What the cockpit shows of one feed: its last poll as the scheduler knows it, and its poll summary. */
export interface StoredFeedState {
  url: string;
  lastPollAt: number;
  firstPollAt: number;
  /** The publication times the scheduler estimates the feed's posting rate from (its next poll depends on them). */
  published: number[];
  /** Null for a feed polled only before summaries were kept (its crawl log may tell more). */
  summary: FeedPollSummary | null;
}

/**
 * The stored state of a crawl's feeds, for reading by the cockpit: empty when the crawl's worker
 * never created the tables (no crawl with feeds has run on this database). Creates nothing.
 */
export function readFeedStates(db: Database.Database, crawlId: number): StoredFeedState[] {
  if (!tableExists(db, 'engine_feed')) return [];
  // Not the remembered item ids: the cockpit has no use for them, and they are the bulk of a row.
  const rows = db.prepare('SELECT url, last_poll_at, first_poll_at, published FROM engine_feed WHERE crawl_id = ? ORDER BY url').all(crawlId) as Omit<FeedRow, 'seen'>[];
  const summaries = readPollSummaries(db, crawlId);
  return rows.map((r) => ({ url: r.url, lastPollAt: r.last_poll_at, firstPollAt: r.first_poll_at, published: parsePublished(r.published), summary: summaries.get(r.url) ?? null }));
}

export interface PollRow {
  url: string;
  polls: number;
  failed_polls: number;
  articles_new: number;
  last_at: number;
  last_outcome: string;
  last_status: number | null;
  last_detail: string | null;
  last_listed: number;
  last_new: number;
  recent_new: string;
  last_moved_to?: string | null;
}

const OUTCOMES: readonly string[] = ['ok', 'http-error', 'robots', 'failed', 'excluded'] satisfies FeedPollOutcome[];

/** The poll summaries of a crawl's feeds (of one feed when `url` is given), by URL. */
function readPollSummaries(db: Database.Database, crawlId: number, url?: string): Map<string, FeedPollSummary> {
  if (!tableExists(db, 'engine_feed_poll')) return new Map();
  // Every column: a table the worker created before last_moved_to existed (the cockpit reads it before the worker adds it) has none.
  const sql = `SELECT * FROM engine_feed_poll WHERE crawl_id = ?${url === undefined ? '' : ' AND url = ?'}`;
  const rows = db.prepare(sql).all(...(url === undefined ? [crawlId] : [crawlId, url])) as PollRow[];
  return new Map(rows.map((r) => [r.url, pollSummaryOfRow(r)]));
}

/** A feed's poll summary as engine_feed_poll stores it (its columns by name). */
export function pollSummaryOfRow(r: PollRow): FeedPollSummary {
  return {
    polls: r.polls,
    failedPolls: r.failed_polls,
    articlesNew: r.articles_new,
    last: {
      at: r.last_at,
      // A value this code did not write reads as a failure rather than as a success.
      outcome: (OUTCOMES.includes(r.last_outcome) ? r.last_outcome : 'failed') as FeedPollOutcome,
      status: r.last_status,
      detail: r.last_detail,
      listed: r.last_listed,
      fresh: r.last_new,
      ...(r.last_moved_to ? { movedTo: r.last_moved_to } : {}),
    },
    recentNew: parseArray(r.recent_new).filter((n): n is number => typeof n === 'number' && Number.isFinite(n)),
  };
}

/** The stored publication times, the finite numbers of them. */
function parsePublished(text: string): number[] {
  return parseArray(text).filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
}

/** A stored JSON array; anything else (a row written by hand, cut short) as empty: the feed relearns. */
function parseArray(text: string): unknown[] {
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value : [];
  } catch {
    return [];
  }
}
