/**
 * A crawl's own answer (GET /api/crawls/:id), which the cockpit's crawl page reads again on every
 * status change and reconnection while the crawl runs, stays the same size whatever the number of
 * its seeds or the length of its ICD's other lists: its ICD copy holds the first 20 items of each
 * (`seedCount`, `listCounts` say how many), `?lists=whole` gives it whole, and GET …/seeds pages
 * through every seed, each once. Over a real migrated SQLite database, through the route handlers as
 * Next calls them.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { callRoute, routeDatabase, signedInAs } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';
import { ICD_LIMITS, icdSchema } from '../../../worker/icd/schema';
import type { Services } from '../../../app/lib/server/services';

let services: Services;
let viewer: { cookie: string; csrf: string };
const crawlOf: Record<number, number> = {};
const seedsOf = (n: number) => Array.from({ length: n }, (_, i) => `https://site-${i % 97}.example.org/collections/section-${i}/index.html`);

before(async () => {
  services = await routeDatabase('tidemark-crawl-detail-size-');
  viewer = await signedInAs(services, 'viewer', 'curator');
  for (const n of [3, 5_000, 10_000]) crawlOf[n] = insertCrawl(services.db, icdSchema.parse({ name: `Survey of ${n}`, seeds: seedsOf(n) }));
});

async function crawlAnswer(id: number, query = ''): Promise<{ size: number; body: Record<string, unknown> }> {
  const { GET } = await import('../../../app/api/crawls/[id]/route');
  const res = await callRoute(viewer, GET, 'GET', `/api/crawls/${id}${query}`, undefined, { id: String(id) });
  assert.equal(res.status, 200);
  return { size: JSON.stringify(res.body).length, body: res.body };
}

test("a crawl's answer is as large for 10,000 seeds as for 5,000, and holds their first 20 and their count", async () => {
  const few = await crawlAnswer(crawlOf[3]!);
  const many = await crawlAnswer(crawlOf[5_000]!);
  const most = await crawlAnswer(crawlOf[10_000]!);
  // 143 KB for 5,000 seeds before; each seed here is 72 characters.
  assert.ok(many.size < 6_000, `${many.size} characters for 5,000 seeds`);
  // Only the digits of the count and of the name (twice: the crawl's and its ICD copy's) differ.
  assert.equal(most.size - many.size, 3, `${most.size} characters for 10,000 seeds, ${many.size} for 5,000`);
  assert.deepEqual((most.body.definition as { seeds: string[] }).seeds, seedsOf(20));
  assert.equal(most.body.seedCount, 10_000);
  assert.deepEqual((few.body.definition as { seeds: string[] }).seeds, seedsOf(3), 'a crawl of few seeds has them all');
  assert.equal(few.body.seedCount, 3);
});

test('the seeds pages give every seed of the crawl exactly once, in its order, each page bounded', async () => {
  const { GET } = await import('../../../app/api/crawls/[id]/seeds/route');
  const id = crawlOf[5_000]!;
  const seen: string[] = [];
  let biggest = 0;
  for (let page = 1; ; page++) {
    const res = await callRoute(viewer, GET, 'GET', `/api/crawls/${id}/seeds?page=${page}`, undefined, { id: String(id) });
    assert.equal(res.status, 200);
    const body = res.body as { items: { seed: string; hops: unknown[] }[]; total: number; page: number; pageSize: number };
    assert.deepEqual({ total: body.total, page: body.page, pageSize: body.pageSize }, { total: 5_000, page, pageSize: 200 });
    if (body.items.length === 0) break;
    biggest = Math.max(biggest, JSON.stringify(body).length);
    seen.push(...body.items.map((r) => r.seed));
    assert.ok(page <= 26, 'the pages end');
  }
  assert.deepEqual(seen, seedsOf(5_000));
  assert.ok(biggest < 200 * 400, `${biggest} characters a page`);
  const bigPage = await callRoute(viewer, GET, 'GET', `/api/crawls/${id}/seeds?page=2&pageSize=5000`, undefined, { id: String(id) });
  assert.equal((bigPage.body.items as unknown[]).length, 200, 'a page is at most 200 seeds, whatever is asked');
  assert.equal((bigPage.body.items as { seed: string }[])[0]!.seed, seedsOf(5_000)[200]);
});

/** An ICD with every list as long as the ICD allows (ICD_LIMITS), the topic terms and an entity's aliases too. */
function icdOfLongLists() {
  const many = (n: number, item: (i: number) => string) => Array.from({ length: n }, (_, i) => item(i));
  return icdSchema.parse({
    name: 'Every list full',
    seeds: seedsOf(ICD_LIMITS.seeds),
    scope: { allowedHosts: many(ICD_LIMITS.hosts, (i) => `mirror-${i}.example.org`), surtPrefixes: many(ICD_LIMITS.hosts, (i) => `http://(org,example,mirror-${i},)/`) },
    politeness: { ignoreRobotsFor: many(ICD_LIMITS.seeds, (i) => `https://mirror-${i}.example.org/open/`) },
    focus: {
      keywords: many(ICD_LIMITS.keywords, (i) => `keyword ${i}`).map((term) => ({ term })),
      entities: many(ICD_LIMITS.entities, (i) => `Entity ${i}`).map((name) => ({ name, type: 'organisation', aliases: many(ICD_LIMITS.aliases, (k) => `${name} alias ${k}`) })),
      topics: many(ICD_LIMITS.topics, (i) => `topic ${i}`),
      blacklist: many(ICD_LIMITS.blacklist, (i) => `spam-${i}.example.net`),
      topicTerms: Object.fromEntries(many(ICD_LIMITS.topicTerms, (i) => `term${i}`).map((t, i) => [t, 1 + i / 10_000])),
    },
    coherence: { feeds: many(ICD_LIMITS.feeds, (i) => `https://mirror-${i}.example.org/feed.xml`) },
  });
}

test("a crawl's answer holds the first 20 items of every list of its ICD copy and their counts; ?lists=whole gives them whole", async () => {
  const icd = icdOfLongLists();
  const id = insertCrawl(services.db, icd);
  const answer = await crawlAnswer(id);
  const whole = await crawlAnswer(id, '?lists=whole');
  // 4.3 MB whole (as every answer was before, but for its seeds), read again at each status change of the running crawl.
  assert.ok(answer.size < 25_000, `${answer.size} characters, ${whole.size} whole`);
  const definition = answer.body.definition as typeof icd;
  assert.deepEqual(definition.scope.allowedHosts, icd.scope.allowedHosts.slice(0, 20));
  assert.deepEqual(definition.coherence.feeds, icd.coherence.feeds.slice(0, 20), 'the crawl page still sees that it has feeds');
  assert.deepEqual(definition.focus.entities[0]!.aliases, icd.focus.entities[0]!.aliases.slice(0, 20));
  assert.equal(Object.keys(definition.focus.topicTerms).length, 20);
  assert.deepEqual(Object.keys(definition.focus.topicTerms).slice(0, 2), ['term4999', 'term4998'], 'the heaviest terms');
  const counts = answer.body.listCounts as Record<string, number>;
  assert.deepEqual(
    [counts.seeds, counts['scope.allowedHosts'], counts['scope.surtPrefixes'], counts['politeness.ignoreRobotsFor'], counts['focus.keywords'], counts['focus.entities'], counts['focus.entities.0.aliases'], counts['focus.topics'], counts['focus.blacklist'], counts['focus.topicTerms'], counts['coherence.feeds']],
    [undefined, ICD_LIMITS.hosts, ICD_LIMITS.hosts, ICD_LIMITS.seeds, ICD_LIMITS.keywords, ICD_LIMITS.entities, ICD_LIMITS.aliases, ICD_LIMITS.topics, ICD_LIMITS.blacklist, ICD_LIMITS.topicTerms, ICD_LIMITS.feeds],
  );
  assert.equal(answer.body.seedCount, ICD_LIMITS.seeds, 'the seeds counted there, not in listCounts');
  assert.deepEqual(whole.body.definition, JSON.parse(JSON.stringify(icd)), 'the copy as stored');
  assert.deepEqual(whole.body.listCounts, {});

  const { GET } = await import('../../../app/api/crawls/[id]/route');
  const refused = await callRoute(viewer, GET, 'GET', `/api/crawls/${id}?lists=all`, undefined, { id: String(id) });
  assert.equal(refused.status, 400);
});

test("the feeds section lists every feed of the crawl's ICD, not the first 20 the crawl's answer holds", async () => {
  const feeds = Array.from({ length: 30 }, (_, i) => `https://mirror-${i}.example.org/feed.xml`);
  const id = insertCrawl(services.db, icdSchema.parse({ name: 'Thirty feeds', seeds: seedsOf(1), coherence: { feeds } }));
  const { GET } = await import('../../../app/api/crawls/[id]/incremental/route');
  const res = await callRoute(viewer, GET, 'GET', `/api/crawls/${id}/incremental`, undefined, { id: String(id) });
  assert.equal(res.status, 200);
  assert.deepEqual((res.body.feeds as { rows: { url: string }[] }).rows.map((f) => f.url), feeds);
});
