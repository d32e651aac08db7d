/**
 * The crawls list (GET /api/crawls), polled every 3 s by the cockpit: it shows each crawl's name,
 * status, pages, rate, start and owner, and reads none of the crawls' ICD copies (up to 10,000
 * seeds each) to do so. Over a real migrated SQLite database, through the route handler as Next
 * calls it, and through Prisma's own log of the SQL it runs with SQLite's plan for it.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import Database from 'better-sqlite3';
import { callRoute, routeDatabase, signedInAs } from '../../support/route-database';
import type { Services } from '../../../app/lib/server/services';
import { PrismaClient } from '../../../generated/prisma/client';

let services: Services;
let viewer: { cookie: string; csrf: string };
const crawlIds: number[] = [];

/** An ICD copy the size the schema allows: 10,000 seeds. */
const bigDefinition = (n: number) => JSON.stringify({ name: `Survey ${n}`, seeds: Array.from({ length: 10_000 }, (_, i) => `https://site-${n}.example.org/section/${i}/`) });

before(async () => {
  services = await routeDatabase('tidemark-crawl-list-');
  viewer = await signedInAs(services, 'viewer', 'curator');
  const { db } = services;
  const ownerId = db.prepare("SELECT id FROM User WHERE username = 'viewer'").pluck().get();
  const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Survey', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
  for (let n = 0; n < 3; n++) {
    const id = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, ownerId, createdAt, startedAt, stats) VALUES (?, ?, ?, 'finished', 'run', ?, '2026-11-28 10:00:00.000', '2026-11-28 10:00:00.000', ?)")
      .run(icdId, bigDefinition(n), `Survey ${n}`, ownerId, JSON.stringify({ fetched: 100 + n, pagesPerSecond: 0 })).lastInsertRowid);
    db.prepare("INSERT INTO CrawlRun (crawlId, startedAt, endedAt, reason) VALUES (?, '2026-11-28 10:00:00.000', '2026-11-28 10:01:40.000', 'start')").run(id);
    crawlIds.push(id);
  }
});

test('the list shows each crawl as before, without its ICD copy: the answer stays small whatever the definitions weigh', async () => {
  const { GET } = await import('../../../app/api/crawls/route');
  const req = new Request('http://cockpit.test/api/crawls', { headers: { host: 'cockpit.test', cookie: viewer.cookie } });
  const res = await GET(req, { params: Promise.resolve({}) });
  assert.equal(res.status, 200);
  const text = await res.text();
  assert.ok(text.length < 5_000, `${text.length} characters`);
  const body = JSON.parse(text) as { items: Record<string, unknown>[]; total: number; page: number; pageSize: number };
  assert.deepEqual({ total: body.total, page: body.page, pageSize: body.pageSize }, { total: 3, page: 1, pageSize: 50 });
  const items = body.items;
  assert.deepEqual(items.map((c) => c.id), [...crawlIds].reverse(), 'newest first');
  for (const c of items) {
    assert.equal('definition' in c, false);
    assert.equal(c.status, 'finished');
    assert.equal(c.owner, 'viewer');
    assert.equal(c.runSeconds, 100);
    assert.equal(typeof (c.stats as { fetched: number }).fetched, 'number');
    assert.match(String(c.startedAt), /^2026-11-28T10:00:00/);
  }
  assert.deepEqual(items.map((c) => c.name), ['Survey 2', 'Survey 1', 'Survey 0']);
  // One crawl's own page still has its ICD copy.
  const one = await import('../../../app/api/crawls/[id]/route');
  const detail = await callRoute(viewer, one.GET, 'GET', `/api/crawls/${crawlIds[0]}`, undefined, { id: String(crawlIds[0]) });
  assert.equal(detail.status, 200);
  assert.equal((detail.body.definition as { seeds: string[] }).seeds.length, 20, 'its first 20 seeds (crawl-detail-size.test.ts)');
  assert.equal(detail.body.seedCount, 10_000);
});

test('the list\'s SQL reads no ICD copy, nor the table rows that hold them', async () => {
  const { listCrawls } = await import('../../../app/lib/server/crawl-views');
  const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${services.env.dbPath}` }), log: [{ emit: 'event', level: 'query' }] });
  const queries: string[] = [];
  prisma.$on('query', (e) => void queries.push(e.query));
  try {
    assert.equal((await listCrawls(prisma, services.db, { group: '', q: '', offset: 0, limit: 50 })).items.length, 3);
  } finally {
    await prisma.$disconnect();
  }
  assert.ok(queries.length > 0);
  assert.deepEqual(queries.filter((q) => /definition/i.test(q)), []);
  // Nor the rows holding them: the columns the list reads come after the ICD copy in a row, and
  // reading them walked its overflow pages. The crawls are read from an index that holds them all
  // (the page's id range: `id IN (…)` would be read by rowid, from the rows).
  const crawlQuery = queries.find((q) => /FROM [`"]?main[`"]?\.[`"]?Crawl[`"]? /.test(q));
  assert.ok(crawlQuery, queries.join('\n'));
  const plan = services.db.prepare(`EXPLAIN QUERY PLAN ${crawlQuery.replace(/\?/g, '1000')}`).all() as { detail: string }[];
  assert.deepEqual(plan.map((p) => p.detail), ['SEARCH main.Crawl USING COVERING INDEX Crawl_list_idx (id>? AND id<?)']);
});

test('a crawl created between the page\'s ids and its total counts in neither: the two are read in one snapshot', async () => {
  const { listCrawls } = await import('../../../app/lib/server/crawl-views');
  const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${services.env.dbPath}` }) });
  // The list's connection, with better-sqlite3's statement log: it is called as each statement
  // starts, so a crawl is created (by the server's connection, as the worker would) just before
  // the total is counted. In the snapshot the page's ids were read from, it is not there.
  let created: number | undefined;
  const createCrawl = () => Number(services.db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt, stats) SELECT icdId, '{}', 'Created meanwhile', 'created', 'run', createdAt, '{}' FROM Crawl LIMIT 1").run().lastInsertRowid);
  const listing = new Database(services.env.dbPath, {
    verbose: (sql) => {
      if (created === undefined && /^SELECT COUNT\(\*\) FROM Crawl\b/.test(String(sql))) created = createCrawl();
    },
  });
  try {
    const { items, total } = await listCrawls(prisma, listing, { group: '', q: '', offset: 0, limit: 50 });
    assert.ok(created !== undefined, 'the crawl was created while the page was read');
    assert.deepEqual(items.map((c) => c.id), [...crawlIds].reverse());
    assert.equal(total, items.length, 'the total counts the crawls the page was read from');
    const after = await listCrawls(prisma, listing, { group: '', q: '', offset: 0, limit: 50 });
    assert.deepEqual([after.items[0]!.id, after.total], [created, crawlIds.length + 1], 'the next read has it');
  } finally {
    listing.close();
    await prisma.$disconnect();
    if (created !== undefined) services.db.prepare('DELETE FROM Crawl WHERE id = ?').run(created);
  }
});
