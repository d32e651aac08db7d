/**
 * GET /api/crawls/:id/incremental over a real crawl: the engine (on a shortened minute) polls a
 * loopback site's feeds — one fine, one answering 404, one robots.txt disallows — and runs recrawl
 * rounds of its pages; the route, called as Next calls it, shows each feed's last poll and what it
 * found, and the rounds' reports. Deleting the crawl removes the rows the section reads. Real
 * parts: a migrated SQLite database in a temporary data folder, the engine, the route handlers.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { IncrementalView } from '../../../worker/coherence/incremental-view';

const dataDir = mkdtempSync(join(tmpdir(), 'tidemark-incremental-route-'));
process.env.TIDEMARK_DATA_DIR = dataDir;
delete process.env.TIDEMARK_DB;

const { services } = await import('../../../app/lib/server/services');
const { applyMigrations } = await import('../../../worker/store/migrator');
const { hashPassword } = await import('../../../worker/auth/password');
const { icdSchema } = await import('../../../worker/icd/schema');
const { CrawlEngine } = await import('../../../worker/crawler/crawl-engine');
const { insertCrawl } = await import('../../support/crawl-rows');
const incremental = await import('../../../app/api/crawls/[id]/incremental/route');
const crawlRoute = await import('../../../app/api/crawls/[id]/route');

const ORIGIN = 'http://cockpit.test';
const MINUTE_MS = 300;
const sessions: Record<string, { cookie: string; csrf: string }> = {};
let site: Server;
let origin = '';
let version = 0;

/** A site whose /changing page changes at every request, with three feeds. */
const listener: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>${body}`);
  if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
  if (path === '/') return html('<a href="/changing">changing</a> <a href="/still">still</a>');
  if (path === '/changing') return html(`<p>version ${++version}</p>`);
  if (path === '/still') return html('<p>the same</p>');
  if (path === '/feed.xml') {
    const items = ['/news/1', '/news/2'].map((a) => `<item><title>${a}</title><link>${origin}${a}</link></item>`).join('');
    return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Quay</title>${items}</channel></rss>`);
  }
  if (path.startsWith('/news/')) return html('<p>an article</p>');
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
};

before(async () => {
  const { db, sessions: store } = services();
  applyMigrations(db, resolve('prisma/migrations'));
  for (const role of ['curator', 'manager']) {
    db.prepare("INSERT INTO User (username, passwordHash, role, createdAt) VALUES (?, ?, ?, datetime('now'))").run(role, await hashPassword('pw'), role);
    const s = await store.login(role, 'pw');
    assert.ok(s);
    sessions[role] = { cookie: `tidemark_session=${s.token}`, csrf: s.user.csrfToken };
  }
  site = createServer(listener);
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});

after(async () => {
  site?.closeAllConnections();
  site?.close();
  const { db, prisma } = services();
  await prisma.$disconnect();
  db.close();
  rmSync(dataDir, { recursive: true, force: true });
});

function request(method: string, as?: string): Request {
  const headers: Record<string, string> = { host: 'cockpit.test', origin: ORIGIN };
  const session = as ? sessions[as] : undefined;
  if (session) {
    headers.cookie = session.cookie;
    headers['x-csrf-token'] = session.csrf;
  }
  return new Request(`${ORIGIN}/api/crawls/x/incremental`, { method, headers });
}

const params = (id: number | string) => ({ params: Promise.resolve({ id: String(id) }) });

async function view(crawlId: number): Promise<IncrementalView> {
  const res = await incremental.GET(request('GET', 'curator'), params(crawlId));
  assert.equal(res.status, 200, await res.clone().text());
  return (await res.json()) as IncrementalView;
}

test('the feeds and recrawls of a running crawl, from its engine', { timeout: 90_000 }, async () => {
  const { db } = services();
  const feeds = [`${origin}/feed.xml`, `${origin}/gone.xml`, `${origin}/private/feed.xml`];
  const icd = icdSchema.parse({
    name: 'Quay with feeds',
    seeds: [`${origin}/`],
    politeness: { enabled: true, minDelayMs: 20, maxDelayMs: 20, delayFactor: 0 },
    aah: { enabled: false },
    coherence: { feeds, minFeedPollMinutes: 1, recrawlIntervalMinutes: 1 },
  });
  const crawlId = insertCrawl(db, icd);

  // Before the crawl ran: every feed not polled yet, no round, the engine's tables not even there.
  let v = await view(crawlId);
  assert.deepEqual(v.feeds?.rows.map((r) => [r.url, r.lastPollAt]), feeds.map((f) => [f, null]));
  assert.deepEqual(v.recrawl, { intervalMinutes: 1, lastRound: null, lastFinishedAt: null, nextRound: { state: 'not-running', at: null }, failure: null, rounds: [] });

  db.prepare("UPDATE Crawl SET status = 'running' WHERE id = ?").run(crawlId);
  const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dataDir, 'warcs', String(crawlId)), spoolDir: join(dataDir, 'spool', String(crawlId)), minuteMs: MINUTE_MS });
  const run = engine.run();
  try {
    // Every feed polled twice, and two rounds.
    for (const end = Date.now() + 60_000; Date.now() < end; await sleep(100)) {
      v = await view(crawlId);
      if (v.feeds!.rows.every((r) => (r.polls ?? 0) >= 2) && v.recrawl!.rounds.length >= 2) break;
    }
  } finally {
    await engine.stop();
  }
  assert.equal(await run, 'stopped');
  // While it ran, each feed's next poll as its scheduler plans it (in real minutes: the route does
  // not know the engine's shortened one), a minimum interval after its last poll at most.
  assert.equal(v.feeds!.polling, true);
  for (const row of v.feeds!.rows) {
    const next = Date.parse(row.nextPollAt ?? '');
    assert.ok(next >= Date.parse(row.lastPollAt!) && next <= Math.max(Date.now(), Date.parse(row.lastPollAt!)) + 25 * 60_000, JSON.stringify(row));
  }
  db.prepare("UPDATE Crawl SET status = 'stopped' WHERE id = ?").run(crawlId);
  v = await view(crawlId);
  assert.equal(v.feeds!.polling, false);
  assert.deepEqual(v.feeds!.rows.map((r) => r.nextPollAt), [null, null, null], 'not planned while the crawl does not run');

  const [fine, gone, refused] = v.feeds!.rows;
  assert.equal(v.feeds!.minPollMinutes, 1);
  assert.ok(fine!.polls! >= 2 && gone!.polls! >= 2 && refused!.polls! >= 2, JSON.stringify(v.feeds));
  assert.deepEqual([fine!.outcome, fine!.status, fine!.problem, fine!.listed, fine!.articlesNew, fine!.failedPolls], ['ok', 200, null, 2, 2, 0]);
  assert.equal(fine!.recentNew[0], 2, 'the first poll found both articles');
  assert.deepEqual(fine!.recentNew.slice(1), fine!.recentNew.slice(1).map(() => 0), 'later polls found nothing new');
  assert.deepEqual([gone!.outcome, gone!.status, gone!.problem, gone!.failedPolls], ['http-error', 404, 'Last poll failed: the feed answered 404', gone!.polls]);
  assert.deepEqual([refused!.outcome, refused!.status, refused!.problem, refused!.listed], ['robots', null, 'Not polled: robots.txt disallows it', 0]);
  for (const row of [fine!, gone!, refused!]) assert.ok(Date.parse(row.lastPollAt!) > Date.now() - 60_000, `${row.url} polled just now`);

  const r = v.recrawl!;
  assert.ok(r.lastRound! >= 2);
  assert.equal(r.rounds[0]!.round, r.lastRound, 'newest first');
  assert.equal(r.rounds[0]!.finishedAt, r.lastFinishedAt);
  assert.deepEqual(r.nextRound, { state: 'not-running', at: new Date(Date.parse(r.lastFinishedAt!) + 60_000).toISOString() });
  const first = r.rounds.at(-1)!;
  assert.equal(first.round, 1);
  // Round 1: the three pages and the two articles, all due (a new page is due in the next round); /changing changed.
  assert.deepEqual([first.pages, first.due, first.fetched], [5, 5, 5]);
  assert.ok(first.changed >= 1, `round 1 saw /changing change: ${JSON.stringify(first)}`);

  // Deleted with the crawl: every row the section reads.
  const rowsOf = () => ['engine_feed', 'engine_feed_poll', 'engine_recrawl', 'engine_recrawl_round'].map((t) => db.prepare(`SELECT COUNT(*) FROM ${t} WHERE crawl_id = ?`).pluck().get(crawlId));
  assert.ok(rowsOf().every((n) => (n as number) > 0));
  assert.equal((await crawlRoute.DELETE(request('DELETE', 'manager'), params(crawlId))).status, 204);
  await services().crawlDeletions.wake(); // the rows go after the answer
  assert.deepEqual(rowsOf(), [0, 0, 0, 0]);
});

test('the route asks for a session, and answers 404 for a crawl that is not there', async () => {
  assert.equal((await incremental.GET(request('GET'), params(1))).status, 401);
  assert.equal((await incremental.GET(request('GET', 'curator'), params(999_999))).status, 404);
  assert.equal((await incremental.GET(request('GET', 'curator'), params('0x1'))).status, 404);
});

test('a crawl without feeds or recrawls has no section', async () => {
  const { db } = services();
  const crawlId = insertCrawl(db, icdSchema.parse({ name: 'Plain', seeds: [`${origin}/`] }));
  assert.deepEqual(await view(crawlId), { feeds: null, recrawl: null });
});
