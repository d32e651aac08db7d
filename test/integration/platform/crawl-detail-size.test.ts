/**
 * A crawl's own answer (GET /api/crawls/:id), which the cockpit's crawl page reads again on every
 * status change and reconnection while the crawl runs, stays the same size whatever the number of
 * its seeds: its ICD copy holds the first 20 (`seedCount` says how many), and GET …/seeds pages
 * through every one, each once. Over a real migrated SQLite database, through the route handlers as
 * Next calls them.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { callRoute, routeDatabase, signedInAs } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';
import { icdSchema } from '../../../worker/icd/schema';
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

async function crawlAnswer(id: number): Promise<{ size: number; body: Record<string, unknown> }> {
  const { GET } = await import('../../../app/api/crawls/[id]/route');
  const res = await callRoute(viewer, GET, 'GET', `/api/crawls/${id}`, undefined, { id: String(id) });
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
