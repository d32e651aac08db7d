/**
 * Live exclusions past the visit pass, and their removal: a page captured before a pattern was
 * added is not revisited (visit–revisit), and a pattern removed (DELETE /api/crawls/:id/exclusions)
 * leaves the crawl's scope within a second, so links found from then on that match it are crawled
 * again while the URLs it excluded stay excluded. Real parts: the route handlers over a migrated
 * database (route-database.ts), the worker's CrawlManager, loopback sites.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import type { Services } from '../../../app/lib/server/services';
import { callRoute, routeDatabase, signedInAs, startWorker, type RouteHandler } from '../../support/route-database';
import { withSite } from '../../support/site-crawl';
import { startHoldingSite } from '../../support/holding-site';
import { until } from '../../support/engine-run';
import { sqlDate } from '../../../worker/store/sqlite';

/** The route database, an administrator's session and the worker, shared by the file's tests. */
let rig: { s: Services; admin: { cookie: string; csrf: string }; worker: Awaited<ReturnType<typeof startWorker>> } | null = null;
before(async () => {
  const services = await routeDatabase('tidemark-live-exclusions-change-');
  rig = { s: services, admin: await signedInAs(services, 'root', 'admin'), worker: await startWorker(services) };
});
after(() => rig?.worker.stop());
const db = () => rig!.s.db;

const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(rig!.admin, handler, method, path, body, params);

/** A crawl of `fields` created through the routes (the worker picks it up); its id. */
async function createCrawl(fields: Record<string, unknown>): Promise<number> {
  const { POST: postIcd } = await import('../../../app/api/icds/route');
  const { POST: postCrawl } = await import('../../../app/api/crawls/route');
  const icd = await call(postIcd, 'POST', '/api/icds', { limits: { maxRetries: 0 }, aah: { enabled: false }, ...fields }, {});
  assert.equal(icd.status, 201, JSON.stringify(icd.body));
  const crawl = await call(postCrawl, 'POST', '/api/crawls', { icdId: icd.body.id }, {});
  assert.equal(crawl.status, 201, JSON.stringify(crawl.body));
  return crawl.body.id as number;
}

const crawlStatus = (id: number) => db().prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(id);
const appliedAt = (id: number, pattern: string) => db().prepare('SELECT appliedAt FROM CrawlExclusion WHERE crawlId = ? AND pattern = ?').pluck().get(id, pattern) as string | null | undefined;

test('a page an exclusion added during the visit pass matches is not revisited: missing, logged as exclude-match', { timeout: 90_000 }, async () => {
  const { POST: postExclusion } = await import('../../../app/api/crawls/[id]/exclusions/route');
  // The visit of /b waits for the test: the home page is captured, the revisit pass not begun.
  const site = await startHoldingSite((path, before) => path === '/b' && !before.includes('/b'));
  try {
    const id = await createCrawl({
      name: 'Revisit and a live exclusion', seeds: [`${site.origin}/`], coherence: { mode: 'visit-revisit' },
      politeness: { minDelayMs: 20, maxDelayMs: 50, delayFactor: 0, concurrency: 1, respectRobots: false },
    });
    const home = `${site.origin}/`;
    await site.held;
    await until('the home page is captured', () => db().prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(id, home) === 1, 10_000);
    // The home page only: its URL ends at the port's slash.
    const pattern = ':\\d+/$';
    const added = await call(postExclusion, 'POST', `/api/crawls/${id}/exclusions`, { pattern }, { id: String(id) });
    assert.equal(added.status, 201, JSON.stringify(added.body));
    await until('the worker applied the exclusion', () => Boolean(appliedAt(id, pattern)), 5_000);
    site.release();
    await until('the crawl finished', () => crawlStatus(id) === 'finished', 60_000);

    assert.deepEqual(site.requested.filter((p) => p === '/'), ['/'], `the home page was visited, never revisited: ${site.requested.join(' ')}`);
    assert.deepEqual(site.requested.filter((p) => p === '/a' || p === '/b').sort(), ['/a', '/a', '/b', '/b'], 'the other pages were visited and revisited');
    const page = db().prepare('SELECT status, evidence, revisitedAt, changeRate FROM CoherencePage WHERE crawlId = ? AND url = ?').get(id, home) as { status: string; evidence: string; revisitedAt: string | null; changeRate: number | null };
    assert.deepEqual([page.status, page.evidence, page.revisitedAt !== null, page.changeRate], ['missing', 'exclude-match', true, null]);
    const log = db().prepare('SELECT outcome, status, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(id, home) as { outcome: string; status: number | null; message: string }[];
    assert.deepEqual(log.map((l) => [l.outcome, l.status]), [['ok', 200], ['exclude-match', null]]);
    assert.match(log[1]!.message, /revisit not made: an exclude pattern/);
    const stats = JSON.parse(db().prepare('SELECT stats FROM Crawl WHERE id = ?').pluck().get(id) as string) as { excludedByReason: Record<string, number> };
    assert.equal(stats.excludedByReason['exclude-match'], 1, 'counted among the exclusions');
  } finally {
    site.close();
  }
});

const page = (links: string[]) => `<!doctype html>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}`;
/** When the site received each request for a calendar day. */
const calendarHits: { path: string; at: number }[] = [];
/** `/` leads into an endless calendar and an endless chain of pages, each page linking to a day no other page links to. */
const calendarSite: RequestListener = (req, res) => {
  const url = new URL(req.url ?? '/', 'http://site');
  const html = (links: string[]) => void res.writeHead(200, { 'content-type': 'text/html' }).end(page(links));
  if (url.pathname === '/') return html(['/calendar?day=1', '/page/1']);
  if (url.pathname === '/calendar') {
    calendarHits.push({ path: `${url.pathname}${url.search}`, at: Date.now() });
    const day = Number(url.searchParams.get('day'));
    return html([1, 2, 3].map((k) => `/calendar?day=${day + k}`));
  }
  const n = /^\/page\/(\d+)$/.exec(url.pathname);
  if (n) return html([`/page/${Number(n[1]) + 1}`, `/calendar?day=${10_000 + Number(n[1])}`]);
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
};

test('a pattern removed from a running crawl lets links found from then on in again; the URLs it excluded stay excluded', { timeout: 120_000 }, async () => {
  await withSite(calendarSite, async (origin) => {
    const { GET: getExclusions, POST: postExclusion, DELETE: deleteExclusion } = await import('../../../app/api/crawls/[id]/exclusions/route');
    const { POST: control } = await import('../../../app/api/crawls/[id]/control/route');
    const id = await createCrawl({
      name: 'Calendar, excluded and let in again', seeds: [`${origin}/`], scope: { maxDepth: 1000, exclude: ['\\.pdf$'] },
      politeness: { minDelayMs: 100, maxDelayMs: 150, delayFactor: 0, concurrency: 1, respectRobots: false },
    });
    const params = { id: String(id) };
    const remove = (body: unknown) => call(deleteExclusion, 'DELETE', `/api/crawls/${id}/exclusions`, body, params);
    const pattern = '/calendar\\?day=';
    await until('the crawl is in the calendar', () => calendarHits.length >= 3, 30_000);
    assert.equal((await call(postExclusion, 'POST', `/api/crawls/${id}/exclusions`, { pattern }, params)).status, 201);
    await until('the worker applied the exclusion', () => Boolean(appliedAt(id, pattern)), 5_000);
    const days = () => db().prepare("SELECT url, state, reason FROM frontier_url WHERE crawl_id = ? AND url LIKE '%/calendar?day=%'").all(id) as { url: string; state: number; reason: string | null }[];
    const excludedDays = days().filter((d) => d.state === 4);
    assert.ok(excludedDays.length >= 1, 'queued days were excluded');

    // Refused: a pattern the crawl does not exclude, a body without one.
    const unknown = await remove({ pattern: '/nothing/' });
    assert.equal(unknown.status, 409, JSON.stringify(unknown.body));
    assert.equal(unknown.body.error, 'The crawl does not exclude this pattern');
    assert.equal((await remove({})).status, 400);

    const removed = await remove({ pattern });
    assert.equal(removed.status, 200, JSON.stringify(removed.body));
    assert.deepEqual(removed.body, { pattern });
    const removedAt = Date.now();
    const definition = JSON.parse(db().prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(id) as string) as { scope: { exclude: string[] } };
    assert.deepEqual(definition.scope.exclude, ['\\.pdf$'], "out of the crawl's ICD copy");
    assert.equal(db().prepare('SELECT COUNT(*) FROM CrawlExclusion WHERE crawlId = ?').pluck().get(id), 0, 'and of the patterns added live');
    const listed = await call(getExclusions, 'GET', `/api/crawls/${id}/exclusions`, undefined, params);
    assert.deepEqual((listed.body.patterns as { pattern: string }[]).map((p) => p.pattern), ['\\.pdf$']);

    // Within the worker's next 500 ms loop, a day found from then on is crawled again.
    await until('a day is requested again', () => calendarHits.some((h) => h.at > removedAt + 600), 20_000);
    assert.equal(crawlStatus(id), 'running');
    const excludedPaths = new Set(excludedDays.map((d) => new URL(d.url).pathname + new URL(d.url).search));
    assert.deepEqual(calendarHits.filter((h) => h.at > removedAt && excludedPaths.has(h.path)), [], 'no day it had excluded was requested');
    const now = new Map(days().map((d) => [d.url, d]));
    for (const d of excludedDays) assert.deepEqual([now.get(d.url)?.state, now.get(d.url)?.reason], [4, 'exclude-match'], `${d.url} stays excluded`);

    // The ICD's own pattern may go too; once the crawl has ended, nothing is removed.
    assert.equal((await remove({ pattern: '\\.pdf$' })).status, 200);
    assert.equal((await call(control, 'POST', `/api/crawls/${id}/control`, { action: 'stop' }, params)).status, 200);
    await until('the crawl stopped', () => crawlStatus(id) === 'stopped', 30_000);
    assert.equal((await call(postExclusion, 'POST', `/api/crawls/${id}/exclusions`, { pattern }, params)).status, 409);
    const late = await remove({ pattern: '/x/' });
    assert.equal(late.status, 409);
    assert.equal(late.body.error, 'The crawl is stopped: it visits no more URLs, so removing a pattern would change nothing');
  });
});

// The cockpit took a 1,000,000-character pattern; its worker then failed every page with links as
// `internal` ("Invalid regular expression … too large", every 500 ms) and finished the crawl with its
// queue emptied. Such a row may still be stored from before the check: the worker refuses it.
test('an exclusion stored before patterns were checked that cannot run is taken out of the crawl, which goes on with its queue', { timeout: 90_000 }, async () => {
  let release!: () => void;
  const released = new Promise<void>((r) => (release = r));
  const site: RequestListener = (req, res) => {
    const html = (links: string[]) => void res.writeHead(200, { 'content-type': 'text/html' }).end(page(links));
    if (req.url === '/') return html(['/a', '/b']);
    // /a waits while the pattern is stored, and links to pages the crawl has not seen.
    if (req.url === '/a') return void released.then(() => html(['/c', '/d']));
    html([]);
  };
  await withSite(site, async (origin) => {
    const id = await createCrawl({
      name: 'A pattern too large to run', seeds: [`${origin}/`], scope: { exclude: ['\\.pdf$'], includeFavicon: false },
      politeness: { minDelayMs: 20, maxDelayMs: 50, delayFactor: 0, concurrency: 1, respectRobots: false },
    });
    await until('the crawl waits for /a', () => db().prepare("SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND url = ? AND state = 1").pluck().get(id, `${origin}/a`) === 1, 10_000);
    // As POST /api/crawls/:id/exclusions stored it before: in the ICD copy and as a row to apply.
    const tooLarge = 'x'.repeat(1_000_000);
    const stored = JSON.parse(db().prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(id) as string) as { scope: { exclude: string[] } };
    db().prepare('UPDATE Crawl SET definition = ? WHERE id = ?').run(JSON.stringify({ ...stored, scope: { ...stored.scope, exclude: [...stored.scope.exclude, tooLarge] } }), id);
    db().prepare('INSERT INTO CrawlExclusion (crawlId, pattern, addedAt) VALUES (?, ?, ?)').run(id, tooLarge, sqlDate(new Date()));
    await until('the worker took the pattern out', () => db().prepare('SELECT COUNT(*) FROM CrawlExclusion WHERE crawlId = ?').pluck().get(id) === 0, 5_000);
    const definition = JSON.parse(db().prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(id) as string) as { scope: { exclude: string[] } };
    assert.deepEqual(definition.scope.exclude, ['\\.pdf$'], "out of the crawl's ICD copy, which a restart parses");
    release();
    await until('the crawl finished', () => crawlStatus(id) === 'finished', 30_000);
    const captured = db().prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(id) as string[];
    assert.deepEqual(captured, ['/', '/a', '/b', '/c', '/d'].map((p) => `${origin}${p}`), 'the links of /a, found after the pattern came, were crawled');
    const failures = db().prepare("SELECT url, outcome FROM CrawlLogEntry WHERE crawlId = ? AND outcome <> 'ok'").all(id);
    assert.deepEqual(failures, []);
  });
});
