import type Database from 'better-sqlite3';
import type { FeedMemory } from '../feeds';

/**
 * Where a crawl keeps what its feed polls taught the scheduler (FeedMemory), so that a resumed
 * crawl or a restarted worker goes on from it. FeedMonitor depends on this, not on SQLite.
 */
export interface FeedMemoryStore {
  /** Every feed's memory, by the feed's URL as the ICD names it. */
  load(): Map<string, FeedMemory>;
  save(url: string, memory: FeedMemory): void;
}

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
  }

  load(): Map<string, FeedMemory> {
    const rows = this.db.prepare('SELECT url, last_poll_at, first_poll_at, seen, published FROM engine_feed WHERE crawl_id = ?').all(this.crawlId) as FeedRow[];
    const memories = new Map<string, FeedMemory>();
    for (const r of rows) {
      const seen = parseArray(r.seen).filter((id): id is string => typeof id === 'string');
      const published = parseArray(r.published).filter((t): t is number => typeof t === 'number' && Number.isFinite(t));
      memories.set(r.url, { lastPollAt: r.last_poll_at, firstPollAt: r.first_poll_at, seen, published });
    }
    return memories;
  }

  save(url: string, m: FeedMemory): void {
    this.db
      .prepare(
        `INSERT INTO engine_feed (crawl_id, url, last_poll_at, first_poll_at, seen, published) VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (crawl_id, url) DO UPDATE SET last_poll_at = excluded.last_poll_at, first_poll_at = excluded.first_poll_at, seen = excluded.seen, published = excluded.published`,
      )
      .run(this.crawlId, url, m.lastPollAt, m.firstPollAt, JSON.stringify(m.seen), JSON.stringify(m.published));
  }
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
