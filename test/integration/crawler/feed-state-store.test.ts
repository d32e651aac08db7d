/**
 * The feed state store on a real SQLite database: the excluded address a feed moved to is kept with
 * its last poll (a resumed crawl does not request the feed again), and a database whose
 * engine_feed_poll was created before that column existed is read by the cockpit and then upgraded;
 * an engine_feed made before the plan's index gets it when the worker starts.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openSqlite } from '../../../worker/store/sqlite';
import { readFeedStates, SqliteFeedMemoryStore } from '../../../worker/crawler/feed-state-store';
import { withTempDir } from '../../support/temp-dir';
import { migratedDatabase } from '../../support/crawl-rows';
import { CrawlManager } from '../../../worker/process/crawl-manager';

const memory = { lastPollAt: 1_000, firstPollAt: 1_000, seen: [], published: [] };
const moved = { at: 1_000, outcome: 'excluded' as const, status: null, detail: "the crawl's exclude pattern /private/ matches the address it moved to, http://a.test/private/feed", listed: 0, fresh: 0 };

test('a feed excluded for the address it moved to is told with that address; one excluded itself, without', async () => {
  await withTempDir('tm-feed-store-', async (dir) => {
    const db = openSqlite(join(dir, 'state.db'));
    try {
      const store = new SqliteFeedMemoryStore(db, 1);
      store.save('http://a.test/moved', memory, { ...moved, movedTo: 'http://a.test/private/feed' });
      store.save('http://a.test/private/own', memory, { ...moved, detail: "the crawl's exclude pattern /private/ matches it" });
      store.save('http://a.test/ok', memory, { at: 1_000, outcome: 'ok', status: 200, detail: null, listed: 1, fresh: 1 });
      assert.deepEqual(new SqliteFeedMemoryStore(db, 1).excludedFeeds(), new Map([['http://a.test/moved', 'http://a.test/private/feed'], ['http://a.test/private/own', null]]));
      // Polled again (the pattern removed): no longer excluded, the address forgotten.
      store.save('http://a.test/moved', memory, { at: 2_000, outcome: 'ok', status: 200, detail: null, listed: 0, fresh: 0 });
      assert.deepEqual([...store.excludedFeeds().keys()], ['http://a.test/private/own']);
    } finally {
      db.close();
    }
  });
});

test('an engine_feed_poll table from before last_moved_to: the cockpit reads it, the worker adds the column', async () => {
  await withTempDir('tm-feed-store-old-', async (dir) => {
    const db = openSqlite(join(dir, 'state.db'));
    try {
      db.exec(`CREATE TABLE engine_feed (crawl_id INTEGER NOT NULL, url TEXT NOT NULL, last_poll_at REAL NOT NULL, first_poll_at REAL NOT NULL, seen TEXT NOT NULL, published TEXT NOT NULL, PRIMARY KEY (crawl_id, url)) WITHOUT ROWID;
        CREATE TABLE engine_feed_poll (crawl_id INTEGER NOT NULL, url TEXT NOT NULL, polls INTEGER NOT NULL, failed_polls INTEGER NOT NULL, articles_new INTEGER NOT NULL, last_at REAL NOT NULL, last_outcome TEXT NOT NULL, last_status INTEGER, last_detail TEXT, last_listed INTEGER NOT NULL, last_new INTEGER NOT NULL, recent_new TEXT NOT NULL, PRIMARY KEY (crawl_id, url)) WITHOUT ROWID;
        INSERT INTO engine_feed VALUES (1, 'http://a.test/feed', 1000, 1000, '[]', '[]');
        INSERT INTO engine_feed_poll VALUES (1, 'http://a.test/feed', 1, 0, 2, 1000, 'ok', 200, NULL, 2, 2, '[2]');`);
      assert.equal(readFeedStates(db, 1)[0]!.summary!.last.outcome, 'ok');
      const store = new SqliteFeedMemoryStore(db, 1);
      store.save('http://a.test/moved', memory, { ...moved, movedTo: 'http://a.test/private/feed' });
      assert.deepEqual(store.excludedFeeds(), new Map([['http://a.test/moved', 'http://a.test/private/feed']]));
      assert.deepEqual(readFeedStates(db, 1).map((s) => [s.url, s.summary?.last.outcome]), [['http://a.test/feed', 'ok'], ['http://a.test/moved', 'excluded']]);
    } finally {
      db.close();
    }
  });
});

test('the cockpit reads 1,000 feeds\' polls and publication times without their remembered item ids (the bulk of a row)', async () => {
  await withTempDir('tm-feed-store-plan-', async (dir) => {
    const db = openSqlite(join(dir, 'state.db'));
    try {
      const store = new SqliteFeedMemoryStore(db, 1);
      const H = 3_600_000;
      db.transaction(() => {
        for (let i = 0; i < 1_000; i++) {
          const url = `http://h${i % 50}.test/feed/${i}.xml`;
          const seen = Array.from({ length: 200 }, (_, k) => `${url}/articles/${k}/a-slug-as-long-as-a-headline-tends-to-be`);
          store.save(url, { lastPollAt: 1_000 + i, firstPollAt: 1_000, seen, published: Array.from({ length: 336 }, (_, k) => 1_000 - k * H) }, { at: 1_000 + i, outcome: 'ok', status: 200, detail: null, listed: 20, fresh: 1 });
        }
      })();
      db.pragma('wal_checkpoint(TRUNCATE)');
      const tablePages = db.prepare("SELECT COUNT(*) FROM dbstat WHERE name = 'engine_feed'").pluck().get() as number;
      // Pages read from the file, as read system calls of this process (readFeedStates is synchronous).
      db.pragma('cache_size = 64');
      const reads = () => Number(/syscr: (\d+)/.exec(readFileSync('/proc/self/io', 'utf8'))![1]);
      const before = reads();
      const states = readFeedStates(db, 1);
      const read = reads() - before;
      assert.equal(states.length, 1_000);
      assert.equal(states[0]!.published.length, 336);
      assert.ok(read < tablePages / 2, `${read} reads; the feeds' rows fill ${tablePages} pages`);
    } finally {
      db.close();
    }
  });
});

test('an engine_feed made before the plan\'s index gets it when the worker starts, no crawl running; a database without feeds gets no feed table', async () => {
  await withTempDir('tm-feed-store-plan-index-', async (dataDir) => {
    const db = migratedDatabase(dataDir);
    const index = () => db.prepare("SELECT name FROM sqlite_master WHERE type = 'index' AND name = 'engine_feed_plan'").pluck().get();
    const startWorker = async () => {
      const manager = new CrawlManager({ db, dataDir, send: () => undefined });
      manager.start();
      await manager.shutdown();
    };
    try {
      await startWorker();
      assert.equal(db.prepare("SELECT COUNT(*) FROM sqlite_master WHERE name LIKE 'engine_feed%'").pluck().get(), 0, 'nothing made where no crawl had feeds');
      // The table as an older Tidemark made it, with a finished crawl's feed.
      db.exec(`CREATE TABLE engine_feed (crawl_id INTEGER NOT NULL, url TEXT NOT NULL, last_poll_at REAL NOT NULL, first_poll_at REAL NOT NULL, seen TEXT NOT NULL, published TEXT NOT NULL, PRIMARY KEY (crawl_id, url)) WITHOUT ROWID;
        INSERT INTO engine_feed VALUES (1, 'http://a.test/feed', 1000, 1000, '["http://a.test/a1"]', '[900]');`);
      assert.equal(index(), undefined);
      // Before, only a crawl with feeds running again made it.
      await startWorker();
      assert.equal(index(), 'engine_feed_plan');
      const plan = db.prepare('EXPLAIN QUERY PLAN SELECT url, last_poll_at, first_poll_at, published FROM engine_feed WHERE crawl_id = ? ORDER BY url').all(1) as { detail: string }[];
      assert.match(plan.map((p) => p.detail).join('; '), /COVERING INDEX engine_feed_plan/, "the cockpit's plan reads the index, not the rows");
      assert.deepEqual(readFeedStates(db, 1).map((f) => [f.url, f.published]), [['http://a.test/feed', [900]]]);
    } finally {
      db.close();
    }
  });
});
