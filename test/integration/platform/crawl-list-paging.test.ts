/**
 * The crawls list paged on the server (GET /api/crawls): a national library keeps thousands of
 * crawls, and the list read every one of them every 3 s to show 50. Over a real migrated SQLite
 * database holding 2,500 crawls, through the route handler as Next calls it; the SQL of a page is
 * checked against SQLite's plan: the covering index, in id order, no sort.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { PrismaBetterSqlite3 } from '@prisma/adapter-better-sqlite3';
import { callRoute, routeDatabase, signedInAs } from '../../support/route-database';
import type { Services } from '../../../app/lib/server/services';
import { PrismaClient } from '../../../generated/prisma/client';

let services: Services;
let viewer: { cookie: string; csrf: string };
/** The stored crawls, newest first, as [id, name, status]. */
let stored: { id: number; name: string; status: string }[] = [];

const STATUSES = ['finished', 'paused', 'running', 'failed', 'stopped', 'created', 'finished'];
const N = 2_500;

before(async () => {
  services = await routeDatabase('tidemark-crawl-paging-');
  viewer = await signedInAs(services, 'viewer', 'curator');
  const { db } = services;
  const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Survey', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
  const insert = db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt, stats) VALUES (?, ?, ?, ?, 'run', '2026-11-28 10:00:00.000', ?)");
  // Names: every 40th a harbour survey; one with LIKE's wildcards in it, to be found as written.
  db.transaction(() => {
    for (let k = 0; k < N; k++) {
      const name = k === 1234 ? 'Rates 100%_off' : k % 40 === 0 ? `Harbour survey ${k}` : `Quay ${k}`;
      insert.run(icdId, JSON.stringify({ name, seeds: Array.from({ length: 200 }, (_, i) => `https://s${k}.example.org/${i}`) }), name, STATUSES[k % STATUSES.length], JSON.stringify({ fetched: k }));
    }
  })();
  stored = (db.prepare('SELECT id, name, status FROM Crawl ORDER BY id DESC').all() as typeof stored);
  assert.equal(stored.length, N);
});

type Page = { items: { id: number; name: string; status: string; stats: { fetched: number }; runSeconds: number }[]; total: number; page: number; pageSize: number };

async function list(query: string): Promise<{ status: number; body: Page & { error?: string } }> {
  const { GET } = await import('../../../app/api/crawls/route');
  const res = await callRoute(viewer, GET, 'GET', `/api/crawls${query}`, undefined, {});
  return res as unknown as { status: number; body: Page & { error?: string } };
}

test('2,500 crawls: a page of 50 by default, newest first, with the total; every page in turn lists each crawl once', async () => {
  const first = await list('');
  assert.equal(first.status, 200);
  assert.equal(Array.isArray(first.body), false, 'a page, not every crawl');
  assert.equal(first.body.total, N);
  assert.equal(first.body.page, 1);
  assert.equal(first.body.pageSize, 50);
  assert.deepEqual(first.body.items.map((c) => c.id), stored.slice(0, 50).map((c) => c.id));
  assert.equal(first.body.items[0]!.stats.fetched, N - 1, 'the stats come with each crawl');
  assert.equal('definition' in first.body.items[0]!, false);

  const seen: number[] = [];
  for (let page = 1; page <= 5; page++) seen.push(...(await list(`?page=${page}&pageSize=500`)).body.items.map((c) => c.id));
  assert.deepEqual(seen, stored.map((c) => c.id));
  const last = await list('?page=50');
  assert.deepEqual(last.body.items.map((c) => c.id), stored.slice(2450).map((c) => c.id));
  const past = await list('?page=51');
  assert.equal(past.status, 200);
  assert.deepEqual(past.body.items, [], 'past the end: an empty page, with the total');
  assert.equal(past.body.total, N);
});

test('the page size is kept within 1…500; a bad page or status is a 400 with a clear message', async () => {
  const big = await list('?pageSize=100000');
  assert.equal(big.body.pageSize, 500);
  assert.equal(big.body.items.length, 500);
  assert.equal((await list('?pageSize=0')).body.items.length, 50, 'not a size: the default');
  for (const bad of ['?page=0', '?page=abc', '?page=1e3', '?page=-1']) {
    const res = await list(bad);
    assert.equal(res.status, 400, bad);
    assert.match(String(res.body.error), /page must be a whole number/);
  }
  const status = await list('?status=sleeping');
  assert.equal(status.status, 400);
  assert.match(String(status.body.error), /status: expected one of active, paused, ended, failed/);
});

test('the filters apply before paging, with their totals: a status group, a name in any case, an id, both', async () => {
  const paused = stored.filter((c) => c.status === 'paused');
  const page2 = await list('?status=paused&page=2');
  assert.equal(page2.body.total, paused.length);
  assert.deepEqual(page2.body.items.map((c) => c.id), paused.slice(50, 100).map((c) => c.id));

  const active = stored.filter((c) => ['created', 'running', 'pausing', 'stopping'].includes(c.status));
  assert.equal((await list('?status=active')).body.total, active.length);
  const ended = stored.filter((c) => ['finished', 'stopped'].includes(c.status));
  assert.equal((await list('?status=ended&pageSize=500&page=3')).body.items.length, Math.min(500, ended.length - 1000));
  assert.equal((await list('?status=ended')).body.total, ended.length);

  const harbour = stored.filter((c) => c.name.startsWith('Harbour'));
  const byName = await list('?q=%20hARBOUR%20');
  assert.equal(byName.body.total, harbour.length);
  assert.deepEqual(byName.body.items.map((c) => c.id), harbour.slice(0, 50).map((c) => c.id));

  const both = await list('?status=failed&q=harbour&pageSize=500');
  assert.deepEqual(both.body.items.map((c) => c.id), harbour.filter((c) => c.status === 'failed').map((c) => c.id));
  assert.equal(both.body.total, both.body.items.length);

  const one = stored[700]!;
  for (const q of [String(one.id), `%23${one.id}`]) {
    const res = await list(`?q=${q}`);
    assert.ok(res.body.items.some((c) => c.id === one.id), q);
    assert.ok(res.body.items.every((c) => c.id === one.id || c.name.includes(String(one.id))), q);
  }
  // LIKE's wildcards are themselves.
  assert.deepEqual((await list(`?q=${encodeURIComponent('100%_')}`)).body.items.map((c) => c.name), ['Rates 100%_off']);
  assert.equal((await list(`?q=${encodeURIComponent('%')}`)).body.total, 1);
  assert.equal((await list('?q=no%20such%20crawl')).body.total, 0);
});

test('a page\'s SQL: ids from the covering index in id order (no table scan, no sort), the page\'s rows by their id range from it too, no ICD copy', async () => {
  const { listCrawls } = await import('../../../app/lib/server/crawl-views');
  const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${services.env.dbPath}` }), log: [{ emit: 'event', level: 'query' }] });
  const prismaQueries: string[] = [];
  prisma.$on('query', (e) => void prismaQueries.push(e.query));
  // The driver's statements, as SQLite runs them.
  const driverSql: string[] = [];
  const prepare = services.db.prepare.bind(services.db);
  services.db.prepare = ((sql: string) => (driverSql.push(sql), prepare(sql))) as typeof services.db.prepare;
  try {
    for (const [group, q] of [['', ''], ['paused', ''], ['', 'harbour'], ['ended', '#12']] as const) {
      const page = await listCrawls(prisma, services.db, { group, q, offset: 10, limit: 50 });
      assert.ok(page.items.length > 0 || q === '#12');
    }
  } finally {
    services.db.prepare = prepare;
    await prisma.$disconnect();
  }
  const crawlSql = [...driverSql.filter((q) => /FROM Crawl\b/.test(q)), ...prismaQueries.filter((q) => /FROM [`"]?main[`"]?\.[`"]?Crawl[`"]? /.test(q))];
  assert.ok(crawlSql.length >= 8, crawlSql.join('\n'));
  for (const sql of crawlSql) {
    assert.doesNotMatch(sql, /definition/i);
    const plan = (services.db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all(...Array.from({ length: (sql.match(/\?/g) ?? []).length }, () => 1)) as { detail: string }[]).map((p) => p.detail);
    assert.ok(plan.some((d) => /USING COVERING INDEX Crawl_list_idx/.test(d)), `${sql}\n${plan.join('\n')}`);
    assert.ok(plan.every((d) => !/TEMP B-TREE/.test(d) && !/^SCAN (main\.)?Crawl$/.test(d)), `${sql}\n${plan.join('\n')}`);
  }
});

test('a crawl deleted between the reads of a page (its ids and total, then its rows): the page is read again, full, with a total that agrees', async () => {
  const { listCrawls } = await import('../../../app/lib/server/crawl-views');
  const prisma = new PrismaClient({ adapter: new PrismaBetterSqlite3({ url: `file:${services.env.dbPath}` }) });
  try {
    const before = await listCrawls(prisma, services.db, { group: '', q: '', offset: 0, limit: 50 });
    assert.equal(before.items.length, 50);
    const doomed = before.items[10]!.id;
    // The ids and total are read at once, the rows once Prisma runs its query: the crawl goes in between.
    const reading = listCrawls(prisma, services.db, { group: '', q: '', offset: 0, limit: 50 });
    services.db.prepare('DELETE FROM Crawl WHERE id = ?').run(doomed);
    const page = await reading;
    assert.equal(page.items.length, 50, 'a full page, not one short');
    assert.equal(page.total, before.total - 1, 'the total without the deleted crawl');
    assert.deepEqual(page.items.map((c) => c.id), stored.map((c) => c.id).filter((id) => id !== doomed).slice(0, 50));
  } finally {
    await prisma.$disconnect();
  }
});
