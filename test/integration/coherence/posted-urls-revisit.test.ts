/**
 * URLs posted to a visit–revisit capture (POST /api/crawls/:id/urls) once its revisit pass has
 * begun: the crawl visits no more URLs then, and before, such a URL was answered 202 and then
 * either left in frontier_intake or queued in a crawl that finished without visiting it. Now the
 * API refuses it (409), and a URL posted before the pass begins is visited, or recorded as
 * excluded when the page budget is spent: none is lost without a word. Real parts: the route
 * handler over a migrated SQLite database, the engine on its own connection to it (as the worker
 * process has), a loopback site.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { closeVisitSet } from '../../../worker/crawler/close-visit-set';
import { CoherenceStore } from '../../../worker/crawler/coherence-store';
import { SqliteFrontier } from '../../../worker/frontier';
import { S } from '../../../worker/frontier/frontier-sql';
import { icdSchema, type Icd } from '../../../worker/icd/schema';
import { openSqlite } from '../../../worker/store/sqlite';
import { insertCrawl } from '../../support/crawl-rows';
import { routeDatabase, signedInAs } from '../../support/route-database';
import type { Services } from '../../../app/lib/server/services';

const ORIGIN = 'http://cockpit.test';
let s: Services;
let admin = { cookie: '', csrf: '' };
/** The worker's own connection to the cockpit's database. */
let worker: Database.Database;

before(async () => {
  s = await routeDatabase('tm-posted-revisit-');
  admin = await signedInAs(s, 'root', 'admin');
  worker = openSqlite(s.env.dbPath);
});
after(() => worker?.close());

type Handler = (req: Request, ctx: { params: Promise<{ id: string }> }) => Promise<Response>;
async function post(crawlId: number, body: unknown): Promise<Response> {
  const { POST } = await import('../../../app/api/crawls/[id]/urls/route');
  const req = new Request(`${ORIGIN}/api/crawls/${crawlId}/urls`, {
    method: 'POST', headers: { host: 'cockpit.test', origin: ORIGIN, cookie: admin.cookie, 'x-csrf-token': admin.csrf }, body: JSON.stringify(body),
  });
  return (POST as Handler)(req, { params: Promise.resolve({ id: String(crawlId) }) });
}

/** A crawl the worker runs now, as the manager marks it. */
function runningCrawl(fields: Record<string, unknown>): { icd: Icd; crawlId: number } {
  const icd = icdSchema.parse({ name: 'Quay notices', politeness: { enabled: false }, aah: { enabled: false }, ...fields });
  const crawlId = insertCrawl(s.db, icd);
  s.db.prepare("UPDATE Crawl SET status = 'running' WHERE id = ?").run(crawlId);
  return { icd, crawlId };
}
const waiting = (crawlId: number) => s.db.prepare('SELECT COUNT(*) FROM frontier_intake WHERE crawl_id = ?').pluck().get(crawlId) as number;

test('a URL posted once the revisit pass has begun is refused with 409 and the reason; one posted before is visited', { timeout: 60_000 }, async () => {
  // `/` links to /a and /b; /early and /late are linked from nowhere. The first revisit waits for the test.
  const requested: string[] = [];
  let revisitArrived!: () => void;
  const revisitBegun = new Promise<void>((r) => (revisitArrived = r));
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const path = req.url ?? '/';
    const again = requested.includes(path) && path !== '/robots.txt';
    requested.push(path);
    const answer = () => {
      if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/a">a</a> <a href="/b">b</a>');
      if (['/a', '/b', '/early', '/late'].includes(path)) return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>notice ${path}</p>`);
      res.writeHead(404).end();
    };
    if (!again) return answer();
    revisitArrived();
    void released.then(answer);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const { icd, crawlId } = runningCrawl({ seeds: [`${origin}/`], coherence: { mode: 'visit-revisit' } });
  try {
    const early = await post(crawlId, [{ url: `${origin}/early`, score: 0.9 }]);
    assert.equal(early.status, 202);
    const dir = s.env.dataDir;
    const run = new CrawlEngine({ crawlId, icd, db: worker, warcDir: join(dir, `warcs-${crawlId}`), spoolDir: join(dir, `spool-${crawlId}`) }).run();
    await Promise.race([revisitBegun, run.then((o) => assert.fail(`the crawl ended (${o}) before any revisit`))]);

    // The old code answered 202 here: the URL then waited in frontier_intake, or was queued, in a crawl about to finish.
    const late = await post(crawlId, [{ url: `${origin}/late`, score: 1 }]);
    assert.equal(late.status, 409);
    assert.deepEqual(await late.json(), {
      error: "The crawl's revisit pass has begun: a visit–revisit capture visits no more URLs once its reference time is fixed, so it takes no more (start a new crawl for them)",
    });
    assert.equal(waiting(crawlId), 0, 'nothing of the refused post was stored');

    release();
    assert.equal(await run, 'finished');
    assert.ok(!requested.includes('/late'), `the refused URL was never requested: ${requested.join(' ')}`);
    assert.deepEqual(requested.filter((p) => p === '/early'), ['/early', '/early'], `the URL posted before was visited and revisited: ${requested.join(' ')}`);
    const inFrontier = (where: string, ...args: unknown[]) => s.db.prepare(`SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND ${where}`).pluck().get(crawlId, ...args);
    assert.equal(inFrontier('url = ?', `${origin}/late`), 0, 'the refused URL is not in the frontier either');
    assert.equal(inFrontier('state = ?', S.queued), 0, 'the finished crawl left nothing queued');
    assert.equal(waiting(crawlId), 0);
  } finally {
    release();
    server.closeAllConnections();
    server.close();
  }
});

test('the visit set closes only when no posted URL waits, or, with the page budget spent, records the waiting ones as excluded', async () => {
  // No site: closeVisitSet writes only the database. The posts go through the route, the closing through the worker's connection.
  const { crawlId } = runningCrawl({ seeds: ['http://quay.test/'], coherence: { mode: 'visit-revisit' } });
  const frontier = new SqliteFrontier(worker);
  const parts = { db: worker, frontier, crawlId, coherence: new CoherenceStore(worker, crawlId) };
  try {
    frontier.openCrawl(crawlId, { maxPages: 100, maxPagesPerHost: 100, maxDepth: 5, politeness: icdSchema.parse({ name: 'x', seeds: ['http://quay.test/'] }).politeness, rescoring: false });
    // Posted after the engine's last intake, before it closes the visit set: the closing waits for it to be visited.
    assert.equal((await post(crawlId, [{ url: 'http://quay.test/notice-1', score: 0.5 }])).status, 202);
    assert.equal(closeVisitSet(parts, { mayVisit: true, updateFunction: 'FIRST', now: Date.now() }), false);
    assert.equal(parts.coherence.revisitsBegun(), false, 'no reference time yet');
    assert.equal(waiting(crawlId), 1, 'the URL waits for the engine to apply it');
    assert.equal((await post(crawlId, [{ url: 'http://quay.test/notice-2', score: 0.5 }])).status, 202, 'the crawl still takes URLs');

    // The page budget is spent: what waits cannot be visited, and is recorded rather than left.
    const closedAt = Date.now();
    assert.equal(closeVisitSet(parts, { mayVisit: false, updateFunction: 'FIRST', now: closedAt }), true);
    assert.equal(parts.coherence.startRun(0), closedAt, 'the reference time is the closing time');
    assert.equal(waiting(crawlId), 0);
    for (const n of [1, 2]) {
      const url = `http://quay.test/notice-${n}`;
      assert.deepEqual([frontier.lookup(crawlId, url)?.state, frontier.lookup(crawlId, url)?.reason], ['excluded', 'max-pages'], url);
    }
    assert.equal(frontier.counters(crawlId).excludedByReason['max-pages'], 2, "the crawl's excluded counts show them");

    const refused = await post(crawlId, [{ url: 'http://quay.test/notice-3', score: 0.5 }]);
    assert.equal(refused.status, 409);
    assert.match(((await refused.json()) as { error: string }).error, /^The crawl's revisit pass has begun/);
    assert.equal(waiting(crawlId), 0);
    assert.equal(closeVisitSet(parts, { mayVisit: true, updateFunction: 'FIRST', now: Date.now() }), true, 'closed once, closed for good');
  } finally {
    frontier.close();
  }
});

test('an incremental visit–revisit crawl goes on visiting after its revisit pass: it still takes URLs', async () => {
  const { crawlId } = runningCrawl({ seeds: ['http://quay.test/'], coherence: { mode: 'visit-revisit', recrawlIntervalMinutes: 60 } });
  new CoherenceStore(worker, crawlId).startRun(Date.now());
  assert.equal((await post(crawlId, [{ url: 'http://quay.test/notice-4', score: 0.5 }])).status, 202);
  assert.equal(waiting(crawlId), 1);
});
