import { test } from 'node:test';
import assert from 'node:assert/strict';
import type Database from 'better-sqlite3';
import { topQueuedUrls } from '../../../worker/frontier/frontier-sql';
import { cand, drain, tempFrontier } from './frontier-fixture';

/** The statements `read` prepares on `db`, with their query plans. */
function plansOf(db: Database.Database, read: () => void): { sql: string; plan: string }[] {
  const prepared: string[] = [];
  const prepare = db.prepare.bind(db);
  db.prepare = ((sql: string) => {
    prepared.push(sql);
    return prepare(sql);
  }) as typeof db.prepare;
  try {
    read();
  } finally {
    db.prepare = prepare;
  }
  return prepared
    .filter((sql) => /\bFROM frontier_url\b/i.test(sql))
    .map((sql) => ({ sql, plan: (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(1, 25) as { detail: string }[]).map((r) => r.detail).join('; ') }));
}

test("the frontier's best queued URLs are read through the queue index, not every URL the crawl has seen", (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  const db = fx.handles[0]!;
  f.add(1, Array.from({ length: 40 }, (_, i) => cand(`http://h${i % 4}.test/${i}`, (i % 10) / 10)));
  drain(f, fx.clock.now());
  f.add(1, [cand('http://h0.test/next', 0.3), cand('http://h1.test/best', 0.9), cand('http://h2.test/low', 0.1)]);

  assert.deepEqual(topQueuedUrls(db, 1, 25).map((r) => r.url), ['http://h1.test/best', 'http://h0.test/next', 'http://h2.test/low']);
  const reads = plansOf(db, () => topQueuedUrls(db, 1, 25));
  assert.equal(reads.length, 1, reads.map((r) => r.sql).join('\n'));
  // A crawl of 20,000 pages has seen hundreds of thousands of URLs: reading them all took 0.7 s.
  assert.match(reads[0]!.plan, /USING (COVERING )?INDEX frontier_url_queue\b/, reads[0]!.plan);
  f.close();
});
