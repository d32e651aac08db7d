/**
 * GET /api/crawls/:id/exclusions?test=… over more waiting URLs than a test looks at: it counts each
 * host's queue only as far as its share needs (waiting-matches.ts), and the answer still says how
 * many URLs wait, from the crawl's own count. Real parts: a migrated SQLite database, the frontier's
 * tables, the route handler as Next calls it.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../../app/lib/server/services';
import { callRoute, routeDatabase, signedInAs } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';
import { icdSchema } from '../../../worker/icd/schema';
import { ensureFrontierTables } from '../../../worker/frontier/frontier-sql';
import { MAX_LISTED_HOSTS, MAX_TESTED_HOSTS } from '../../../worker/frontier/waiting-matches';

let s: Services;
let viewer = { cookie: '', csrf: '' };
let crawlId = 0;
let manyHostsCrawlId = 0;
const QUEUED = 12_000;
/** Hosts of the crawl with more hosts than a test lists, each with one URL queued: h00000.test, h00001.test, … */
const MANY_HOSTS = MAX_LISTED_HOSTS + 500;
const manyHost = (k: number) => `h${String(k).padStart(5, '0')}.test`;

before(async () => {
  s = await routeDatabase('tidemark-exclusion-test-waiting-');
  viewer = await signedInAs(s, 'viewer', 'curator');
  crawlId = insertCrawl(s.db, icdSchema.parse({ name: 'Trap', seeds: ['http://a.test/'] }));
  // The worker's counters, as its stats say: 12,000 waiting.
  s.db.prepare('UPDATE Crawl SET status = ?, stats = ? WHERE id = ?').run('paused', JSON.stringify({ queued: QUEUED }), crawlId);
  ensureFrontierTables(s.db);
  const insert = s.db.prepare("INSERT INTO frontier_url (crawl_id, url_hash, url, host, depth, kind, state, precedence, score_raw, score_count, score_sum, discovered_at) VALUES (?, ?, ?, ?, 0, 'link', 0, 0.5, 0, 0, 0, 0)");
  s.db.transaction(() => {
    for (let i = 0; i < QUEUED; i++) {
      const host = ['a.test', 'b.test', 'c.test'][i % 3]!;
      insert.run(crawlId, i + 1, `http://${host}/calendar?day=${i}`, host);
    }
  })();
  manyHostsCrawlId = insertCrawl(s.db, icdSchema.parse({ name: 'Many hosts', seeds: ['http://h00000.test/'] }));
  s.db.prepare('UPDATE Crawl SET status = ?, stats = ? WHERE id = ?').run('paused', JSON.stringify({ queued: MANY_HOSTS }), manyHostsCrawlId);
  s.db.transaction(() => {
    for (let k = 0; k < MANY_HOSTS; k++) insert.run(manyHostsCrawlId, k + 1, `http://${manyHost(k)}/calendar`, manyHost(k));
  })();
});

test('a test over more waiting URLs than it looks at: 10,000 looked at, shared by the hosts, of the 12,000 the crawl counts', async () => {
  const { GET } = await import('../../../app/api/crawls/[id]/exclusions/route');
  const res = await callRoute(viewer, GET, 'GET', `/api/crawls/${crawlId}/exclusions?test=${encodeURIComponent('/calendar\\?day=\\d*7$')}`, undefined, { id: String(crawlId) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const t = (res.body as { test: { matching: number; tested: number; partial: boolean; waiting: number; hosts: number; hostsTested: number; examples: string[] } }).test;
  assert.deepEqual([t.tested, t.partial, t.waiting, t.hosts, t.hostsTested], [10_000, true, QUEUED, 3, 3]);
  assert.equal(t.matching, 1_000, 'a tenth of the days, each host\'s first 3,334 or 3,333 in the queue (discovery order at equal priority)');
  assert.equal(t.examples.length, 20);
});

test('a test over more hosts than it lists: the first MAX_LISTED_HOSTS in name order, and the answer says which were left out', async () => {
  const { GET } = await import('../../../app/api/crawls/[id]/exclusions/route');
  const res = await callRoute(viewer, GET, 'GET', `/api/crawls/${manyHostsCrawlId}/exclusions?test=${encodeURIComponent('^http://h0')}`, undefined, { id: String(manyHostsCrawlId) });
  assert.equal(res.status, 200, JSON.stringify(res.body));
  const t = (res.body as { test: { matching: number; tested: number; partial: boolean; waiting: number; hosts: number; hostsTested: number; moreHostsAfter: string | null } }).test;
  assert.equal(t.hosts, MAX_LISTED_HOSTS, `${MANY_HOSTS} hosts with URLs queued, ${MAX_LISTED_HOSTS} listed`);
  assert.equal(t.moreHostsAfter, manyHost(MAX_LISTED_HOSTS - 1), 'the hosts after the last one listed were left out');
  assert.equal(t.hostsTested, MAX_TESTED_HOSTS);
  assert.deepEqual([t.tested, t.matching, t.partial, t.waiting], [MAX_TESTED_HOSTS, MAX_TESTED_HOSTS, true, MANY_HOSTS]);
});
