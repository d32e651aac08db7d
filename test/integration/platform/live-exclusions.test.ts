/**
 * Live exclusions (POST /api/crawls/:id/exclusions): an archivist watching a crawl fall into a trap
 * excludes it without stopping the crawl. Real parts: the route handlers over a migrated database
 * (route-database.ts), the worker's CrawlManager, and a loopback site whose calendar is an endless
 * chain of days, crawled politely enough to still be running when the pattern is added.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import type { Services } from '../../../app/lib/server/services';
import { callRoute, routeDatabase, signedInAs, startWorker, type RouteHandler } from '../../support/route-database';
import { withSite } from '../../support/site-crawl';
import { until } from '../../support/engine-run';

let s: Services;
let admin = { cookie: '', csrf: '' };
let running: Awaited<ReturnType<typeof startWorker>> | null = null;

before(async () => {
  s = await routeDatabase('tidemark-live-exclusions-');
  admin = await signedInAs(s, 'root', 'admin');
});
after(() => running?.stop());

const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(admin, handler, method, path, body, params);

const page = (title: string, links: string[]) => `<!doctype html><title>${title}</title>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}`;
/** When the site received each request for a calendar day. */
const calendarHits: { path: string; at: number }[] = [];
/** When the site received each request for an ordinary page. */
const pageHits: { path: string; at: number }[] = [];
/**
 * `/` leads into the calendar and into a chain of ordinary pages. Each day links to the next three
 * (the queue of days only grows); each ordinary page links to the next one and to a day the crawl
 * has not seen, so links into the trap keep being found after it is excluded.
 */
const site: RequestListener = (req, res) => {
  const url = new URL(req.url ?? '/', 'http://site');
  const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  if (url.pathname === '/robots.txt') return void res.writeHead(404).end();
  if (url.pathname === '/') return html(page('home', ['/calendar?day=1', '/page/1']));
  if (url.pathname === '/calendar') {
    calendarHits.push({ path: `${url.pathname}${url.search}`, at: Date.now() });
    const day = Number(url.searchParams.get('day'));
    return html(page(`day ${day}`, [1, 2, 3].map((k) => `/calendar?day=${day + k}`)));
  }
  const n = /^\/page\/(\d+)$/.exec(url.pathname);
  if (n) {
    pageHits.push({ path: url.pathname, at: Date.now() });
    const k = Number(n[1]);
    return html(page(`page ${k}`, k < 200 ? [`/page/${k + 1}`, `/calendar?day=${10_000 + k}`] : []));
  }
  res.writeHead(404, { 'content-type': 'text/html' }).end(page('not found', []));
};

interface ExclusionsBody {
  patterns: { pattern: string; live: boolean; appliedAt: string | null; excluded: number | null }[];
  ended: boolean;
  test?: { pattern: string; matching: number; examples: string[] };
}

test('an exclusion added to a running crawl excludes the trap it fell into, queued URLs and links found later', { timeout: 120_000 }, async () => {
  await withSite(site, async (origin) => {
    const { POST: postIcd } = await import('../../../app/api/icds/route');
    const { POST: postCrawl } = await import('../../../app/api/crawls/route');
    const { POST: control } = await import('../../../app/api/crawls/[id]/control/route');
    const { GET: getExclusions, POST: postExclusion } = await import('../../../app/api/crawls/[id]/exclusions/route');
    const icd = await call(postIcd, 'POST', '/api/icds', {
      name: 'Calendar trap', seeds: [`${origin}/`],
      scope: { maxDepth: 1000, exclude: ['\\.pdf$'] },
      // One request at a time, ~8 a second: the crawl is still running when the pattern comes.
      politeness: { minDelayMs: 120, maxDelayMs: 200, delayFactor: 0, concurrency: 1 },
      limits: { maxRetries: 0 }, aah: { enabled: false },
    }, {});
    assert.equal(icd.status, 201, JSON.stringify(icd.body));
    const crawl = await call(postCrawl, 'POST', '/api/crawls', { icdId: icd.body.id }, {});
    assert.equal(crawl.status, 201, JSON.stringify(crawl.body));
    const id = crawl.body.id as number;
    const params = { id: String(id) };
    const exclusions = async (query = '') => {
      const r = await call(getExclusions, 'GET', `/api/crawls/${id}/exclusions${query}`, undefined, params);
      return r as { status: number; body: ExclusionsBody & Record<string, unknown> };
    };
    const post = (pattern: unknown) => call(postExclusion, 'POST', `/api/crawls/${id}/exclusions`, { pattern }, params);
    const pattern = '/calendar\\?day=';

    running = await startWorker(s);
    const worker = running.db;
    await until('the crawl is in the calendar', () => calendarHits.length >= 4, 30_000);

    // Tested first: the queued days, and some of them to look at.
    const tried = await exclusions(`?test=${encodeURIComponent(pattern)}`);
    assert.equal(tried.status, 200, JSON.stringify(tried.body));
    assert.ok(tried.body.test!.matching >= 3, `queued days: ${tried.body.test!.matching}`);
    assert.ok(tried.body.test!.examples.length > 0 && tried.body.test!.examples.length <= 20);
    for (const url of tried.body.test!.examples) assert.match(url, /\/calendar\?day=\d+$/);
    assert.deepEqual(tried.body.patterns, [{ pattern: '\\.pdf$', live: false, addedAt: null, appliedAt: null, excluded: null }]);
    assert.equal((await exclusions('?test=(')).status, 400, 'a test of a pattern that does not compile');

    // Patterns the ICD's exclude list refuses are refused here, saying why, at the field.
    const broken = await post('(');
    assert.equal(broken.status, 400, JSON.stringify(broken.body));
    assert.deepEqual((broken.body.issues as { path: string[]; message: string }[]).map((i) => [i.path, i.message]), [[['pattern'], 'Not a valid regular expression: unterminated group']]);
    const exponential = await post('(a+)+$');
    assert.equal(exponential.status, 400);
    assert.match(JSON.stringify(exponential.body), /exponential time/);
    assert.equal((await post('')).status, 400, 'an empty pattern would exclude everything');

    const added = await post(pattern);
    assert.equal(added.status, 201, JSON.stringify(added.body));
    assert.equal((await post(pattern)).status, 409, 'the same pattern twice');

    // The worker applies it within about a second, while the crawl goes on.
    await until('the worker applied the exclusion', () => worker.prepare('SELECT appliedAt FROM CrawlExclusion WHERE crawlId = ?').pluck().get(id) !== null, 5_000);
    const applied = worker.prepare('SELECT appliedAt, excluded FROM CrawlExclusion WHERE crawlId = ?').get(id) as { appliedAt: string; excluded: number };
    const appliedAt = new Date(applied.appliedAt).getTime();
    assert.ok(applied.excluded >= tried.body.test!.matching, `${applied.excluded} excluded, ${tried.body.test!.matching} were queued when tested`);
    assert.equal(s.db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(id), 'running');
    const days = () => s.db.prepare("SELECT url, state, reason FROM frontier_url WHERE crawl_id = ? AND url LIKE '%/calendar?day=%'").all(id) as { url: string; state: number; reason: string | null }[];
    const waiting = days().filter((d) => d.state === 0 || d.state === 5);
    assert.deepEqual(waiting, [], 'no day is left waiting');
    const excludedDays = days().filter((d) => d.state === 4);
    assert.ok(excludedDays.length >= applied.excluded);
    for (const d of excludedDays) assert.equal(d.reason, 'exclude-match', d.url);

    // Links into the trap found from then on are rejected with the ICD's own reason.
    const pagesAtApply = s.db.prepare("SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND url LIKE '%/page/%' AND state = 2").pluck().get(id) as number;
    await until('more ordinary pages were crawled', () => (s.db.prepare("SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND url LIKE '%/page/%' AND state = 2").pluck().get(id) as number) >= pagesAtApply + 5, 20_000);
    const later = s.db.prepare("SELECT state, reason FROM frontier_url WHERE crawl_id = ? AND url = ?").get(id, `${origin}/calendar?day=${10_000 + pagesAtApply + 3}`) as { state: number; reason: string } | undefined;
    assert.deepEqual(later, { state: 4, reason: 'exclude-match' });
    // Nothing of the calendar was fetched once it was applied (a day in flight then could finish).
    const fetchedAfter = calendarHits.filter((h) => h.at > appliedAt + 250);
    assert.deepEqual(fetchedAfter, [], 'days requested after the exclusion was applied');

    // Kept in the crawl's own ICD copy, so a resumed or restarted crawl keeps it; listed as added live.
    const definition = JSON.parse(s.db.prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(id) as string) as { scope: { exclude: string[] } };
    assert.deepEqual(definition.scope.exclude, ['\\.pdf$', pattern]);
    const listed = await exclusions();
    assert.equal(listed.body.test, undefined);
    assert.deepEqual(listed.body.patterns.map((p) => [p.pattern, p.live, p.excluded]), [['\\.pdf$', false, null], [pattern, true, applied.excluded]]);

    // Added while the crawl is paused: in its ICD copy at once, applied when it runs again, before
    // any URL is leased.
    assert.equal((await call(control, 'POST', `/api/crawls/${id}/control`, { action: 'pause' }, params)).status, 200);
    await until('the crawl paused', () => s.db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(id) === 'paused', 30_000);
    const queuedPages = s.db.prepare("SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND url LIKE '%/page/%' AND state = 0").pluck().get(id) as number;
    assert.ok(queuedPages >= 1, 'an ordinary page waits');
    assert.equal((await post('/page/')).status, 201);
    await new Promise((r) => setTimeout(r, 700));
    const whilePaused = await exclusions();
    assert.deepEqual(whilePaused.body.patterns.map((p) => [p.pattern, p.live, p.appliedAt === null]), [['\\.pdf$', false, true], [pattern, true, false], ['/page/', true, true]]);
    const resumedAt = Date.now();
    assert.equal((await call(control, 'POST', `/api/crawls/${id}/control`, { action: 'resume' }, params)).status, 200);
    // Nothing else waits: the crawl finishes, without fetching one more page.
    await until('the crawl finished', () => s.db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(id) === 'finished', 30_000);
    assert.deepEqual(pageHits.filter((h) => h.at >= resumedAt), [], 'pages requested after the resume');
    const pages = worker.prepare("SELECT appliedAt, excluded FROM CrawlExclusion WHERE crawlId = ? AND pattern = '/page/'").get(id) as { appliedAt: string | null; excluded: number };
    assert.ok(pages.appliedAt !== null);
    assert.equal(pages.excluded, queuedPages);

    // Once the crawl has ended, no more.
    const refused = await post('/other/');
    assert.equal(refused.status, 409, JSON.stringify(refused.body));
    assert.match(String(refused.body.error), /finished/);
    assert.equal((await exclusions()).body.ended, true);
  });
});
