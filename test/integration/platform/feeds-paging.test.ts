/**
 * The "Feeds and recrawls" answer (GET /api/crawls/:id/incremental, polled every 15 s while a
 * crawl runs) for a crawl of 1,000 feeds, the most an ICD names: it holds every feed's counts and one
 * page of rows, the pages visit every feed once in the ICD's order, and a filter lists the feeds
 * of its kind only. The feeds' polls are stored as the engine stores them (SqliteFeedMemoryStore),
 * in a real migrated SQLite database; the route is called as Next calls it.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { callRoute, routeDatabase, signedInAs } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';
import { ICD_LIMITS, icdSchema } from '../../../worker/icd/schema';
import { SqliteFeedMemoryStore } from '../../../worker/crawler/feed-state-store';
import type { FeedPoll } from '../../../worker/feeds';
import type { FeedSection, IncrementalView } from '../../../worker/coherence/incremental-view';

const T = Date.now() - 60 * 60_000;
const feeds = Array.from({ length: ICD_LIMITS.feeds }, (_, i) => `https://press-${i % 89}.example.org/news/feed-${i}.xml`);

/** How the ICD's i-th feed's last poll ended; undefined: never polled. */
function lastPollOf(i: number): Pick<FeedPoll, 'outcome' | 'status' | 'detail' | 'fresh'> | undefined {
  if (i % 10 === 0) return undefined;
  if (i % 10 === 1) return { outcome: 'http-error', status: 404, detail: 'answered 404', fresh: 0 };
  if (i % 10 === 2) return { outcome: 'robots', status: null, detail: 'robots.txt disallows it', fresh: 0 };
  if (i % 20 === 3) return { outcome: 'excluded', status: null, detail: "the crawl's exclude pattern /news/ matches it", fresh: 0 };
  if (i % 20 === 13) return { outcome: 'failed', status: null, detail: 'the connection was reset', fresh: 0 };
  return { outcome: 'ok', status: 200, detail: null, fresh: i % 7 };
}
const indexesWhere = (keep: (poll: ReturnType<typeof lastPollOf>) => boolean) => feeds.map((_, i) => i).filter((i) => keep(lastPollOf(i)));

let viewer: { cookie: string; csrf: string };
let crawlId = 0;

before(async () => {
  const services = await routeDatabase('tidemark-feeds-paging-');
  viewer = await signedInAs(services, 'viewer', 'curator');
  crawlId = insertCrawl(services.db, icdSchema.parse({ name: 'A thousand feeds', seeds: ['https://press-0.example.org/'], coherence: { feeds } }));
  // Running: each row also says when the scheduler polls the feed next.
  services.db.prepare("UPDATE Crawl SET status = 'running' WHERE id = ?").run(crawlId);
  const store = new SqliteFeedMemoryStore(services.db, crawlId);
  feeds.forEach((url, i) => {
    const last = lastPollOf(i);
    if (!last) return;
    const at = T + i * 1_000;
    // Two polls each: the first found one new article.
    store.save(url, { lastPollAt: at - 600_000, firstPollAt: at - 600_000, seen: [], published: [] }, { at: at - 600_000, outcome: 'ok', status: 200, detail: null, listed: 1, fresh: 1 });
    store.save(url, { lastPollAt: at, firstPollAt: at - 600_000, seen: [], published: [at - 300_000] }, { ...last, at, listed: last.fresh });
  });
});

async function feedAnswer(query: string): Promise<{ status: number; size: number; feeds: FeedSection; body: Record<string, unknown> }> {
  const { GET } = await import('../../../app/api/crawls/[id]/incremental/route');
  const res = await callRoute(viewer, GET, 'GET', `/api/crawls/${crawlId}/incremental${query}`, undefined, { id: String(crawlId) });
  return { status: res.status, size: JSON.stringify(res.body).length, feeds: (res.body as unknown as IncrementalView).feeds!, body: res.body };
}

/** Every page `filter` gives, from the first until one is empty. */
async function everyPage(filter: string): Promise<{ pages: FeedSection[]; biggest: number }> {
  const pages: FeedSection[] = [];
  let biggest = 0;
  for (let page = 1; ; page++) {
    const answer = await feedAnswer(`?filter=${filter}&page=${page}`);
    assert.equal(answer.status, 200);
    if (answer.feeds.rows.length === 0) return { pages, biggest };
    biggest = Math.max(biggest, answer.size);
    pages.push(answer.feeds);
    assert.ok(page <= 21, 'the pages end');
  }
}

test('the answer for 1,000 feeds counts every feed by its last poll and lists the first 50', async () => {
  const answer = await feedAnswer('');
  assert.equal(answer.status, 200);
  // About 300 KB with a row for every feed.
  assert.ok(answer.size < 30_000, `${answer.size} characters`);
  const { rows, ...rest } = answer.feeds;
  const polled = indexesWhere((p) => p !== undefined);
  assert.deepEqual(rest, {
    minPollMinutes: 15,
    polling: true,
    feedCount: 1_000,
    summary: {
      ok: indexesWhere((p) => p?.outcome === 'ok').length,
      failing: indexesWhere((p) => p?.outcome === 'http-error' || p?.outcome === 'failed').length,
      refused: 100,
      excluded: 50,
      'not-polled': 100,
      'not-known': 0,
      articlesNew: polled.reduce((n, i) => n + 1 + lastPollOf(i)!.fresh, 0),
    },
    filter: 'all',
    total: 1_000,
    page: 1,
    pageSize: 50,
  });
  assert.equal(rest.summary.failing, 150);
  assert.deepEqual(rows.map((r) => r.url), feeds.slice(0, 50));
  assert.deepEqual(rows.slice(0, 4).map((r) => [r.outcome, r.polls, r.articlesNew, r.problem]), [
    [null, null, null, null],
    ['http-error', 2, 1, 'Last poll failed: the feed answered 404'],
    ['robots', 2, 1, 'Not polled: robots.txt disallows it'],
    ['excluded', 1, 1, "Not polled, excluded: the crawl's exclude pattern /news/ matches it"],
  ]);
  assert.ok(rows.filter((r) => r.outcome !== 'excluded').every((r) => r.nextPollAt !== null), 'each feed of the page is planned');
});

test('the pages visit every feed once, in the ICD order, each page bounded', async () => {
  const { pages, biggest } = await everyPage('all');
  assert.equal(pages.length, 20);
  assert.deepEqual(pages.flatMap((p) => p.rows.map((r) => r.url)), feeds);
  assert.ok(biggest < 30_000, `${biggest} characters a page`);
  const asked = await feedAnswer('?page=2&pageSize=1000');
  assert.equal(asked.feeds.rows.length, 50, 'a page is at most 50 feeds, whatever is asked');
  assert.equal(asked.feeds.rows[0]!.url, feeds[50]);
});

test('a filter lists the feeds of its kind only, every one of them once, and counts them', async () => {
  const expected: Record<string, number[]> = {
    failing: indexesWhere((p) => p?.outcome === 'http-error' || p?.outcome === 'failed'),
    refused: indexesWhere((p) => p?.outcome === 'robots'),
    excluded: indexesWhere((p) => p?.outcome === 'excluded'),
    'not-polled': indexesWhere((p) => p === undefined),
    problems: indexesWhere((p) => p !== undefined && p.outcome !== 'ok'),
    ok: indexesWhere((p) => p?.outcome === 'ok'),
  };
  for (const [filter, indexes] of Object.entries(expected)) {
    const { pages } = await everyPage(filter);
    assert.deepEqual(pages.flatMap((p) => p.rows.map((r) => r.url)), indexes.map((i) => feeds[i]), filter);
    assert.ok(pages.every((p) => p.total === indexes.length && p.filter === filter && p.feedCount === 1_000), filter);
  }
  const refused = await feedAnswer('?filter=everything');
  assert.equal(refused.status, 400);
  assert.match(JSON.stringify(refused.body), /filter must be one of all, problems, failing, refused, excluded, not-polled, ok/);
});
