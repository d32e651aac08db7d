/**
 * The crawl's reports beyond the crawl log's table. The seeds report (GET /api/crawls/:id/report →
 * seeds): what became of each seed, followed through its redirects as the crawl stored them; the
 * WARC records by type; the crawl log as a file (GET /api/crawls/:id/log/download); and one URL
 * looked up (GET /api/crawls/:id/inspect). Real parts: the route handlers over a migrated database
 * (route-database.ts), the worker's CrawlManager, a loopback site whose seeds answer in every way a
 * seed goes wrong, and the redirects' Location headers read back from the crawl's WARC records.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import type Database from 'better-sqlite3';
import type { Services } from '../../../app/lib/server/services';
import type { SeedReportRow } from '../../../worker/frontier/seed-chain';
import type { UrlInspection } from '../../../worker/frontier/url-inspection';
import { inspectionVerdict, seedOutcome } from '../../../worker/frontier/url-outcome';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { openSqlite } from '../../../worker/store/sqlite';
import { callRoute, routeDatabase, signedInAs, type RouteHandler } from '../../support/route-database';
import { withSite } from '../../support/site-crawl';
import { until } from '../../support/engine-run';

let s: Services;
let admin = { cookie: '', csrf: '' };
let worker: Database.Database | null = null;
let manager: CrawlManager | null = null;

before(async () => {
  s = await routeDatabase('tidemark-seeds-report-');
  admin = await signedInAs(s, 'root', 'admin');
});
after(async () => {
  await manager?.shutdown();
  worker?.close();
});

const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(admin, handler, method, path, body, params);

const page = (title: string) => `<!doctype html><title>${title}</title><p>${title}</p>`;
const site: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  const moved = (status: number, location?: string) => void res.writeHead(status, location === undefined ? {} : { location }).end();
  if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
  if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page(path));
  // The same page at two addresses: the second capture is a revisit record.
  if (path === '/new' || path === '/final') return void res.writeHead(200, { 'content-type': 'text/html' }).end(page('landing'));
  if (path === '/old') return moved(301, '/new');
  if (path === '/hop') return moved(302, '/hop2');
  if (path === '/hop2') return moved(307, '/final#top');
  if (path === '/away') return moved(301, 'http://elsewhere.invalid/');
  if (path === '/loop') return moved(301, '/loop2');
  if (path === '/loop2') return moved(301, '/loop');
  if (path === '/nowhere') return moved(302);
  res.writeHead(404, { 'content-type': 'text/html' }).end(page('not found'));
};

test('the seeds report follows each seed through its redirects to where it ended', { timeout: 120_000 }, async () => {
  await withSite(site, async (origin) => {
    const paths = ['/', '/old', '/hop', '/away', '/loop', '/nowhere', '/gone', '/private'];
    const { POST: postIcd } = await import('../../../app/api/icds/route');
    const icd = await call(postIcd, 'POST', '/api/icds', {
      name: 'Seeds gone astray', seeds: paths.map((p) => `${origin}${p}`),
      scope: { maxDepth: 2 }, politeness: { minDelayMs: 0, maxDelayMs: 20, delayFactor: 0 }, limits: { maxRetries: 0 }, aah: { enabled: false },
    }, {});
    assert.equal(icd.status, 201, JSON.stringify(icd.body));
    const { POST: postCrawl } = await import('../../../app/api/crawls/route');
    const { GET: getReport } = await import('../../../app/api/crawls/[id]/report/route');
    const crawl = await call(postCrawl, 'POST', '/api/crawls', { icdId: icd.body.id }, {});
    assert.equal(crawl.status, 201, JSON.stringify(crawl.body));
    const id = crawl.body.id as number;
    const report = async () => {
      const r = await call(getReport, 'GET', `/api/crawls/${id}/report`, undefined, { id: String(id) });
      assert.equal(r.status, 200, JSON.stringify(r.body));
      return r.body as { seeds: SeedReportRow[]; seedCount: number; records: { recordType: string; captures: number; bytes: number; warcBytes: number }[] };
    };

    // Before the worker has run it: every seed listed, none seen.
    const waiting = await report();
    assert.equal(waiting.seedCount, paths.length);
    assert.deepEqual(waiting.seeds.map((r) => [r.seed, r.hops.map((h) => h.state), r.cut]), paths.map((p) => [`${origin}${p}`, ['unseen'], null]));

    worker = openSqlite(s.env.dbPath);
    manager = new CrawlManager({ db: worker, dataDir: s.env.dataDir, send: () => undefined, kbPath: resolve('knowledge-base/default.xml') });
    manager.start();
    await until('the crawl has ended', () => ['finished', 'failed', 'stopped'].includes(s.db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(id) as string), 60_000);

    const done = await report();
    const bySeed = new Map(done.seeds.map((r) => [new URL(r.seed).pathname, r]));
    const chain = (path: string) => {
      const row = bySeed.get(path)!;
      return { hops: row.hops.map((h) => [h.url.replace(origin, ''), h.state, h.status, h.reason]), cut: row.cut };
    };
    assert.deepEqual(chain('/'), { hops: [['/', 'done', 200, null]], cut: null });
    assert.deepEqual(chain('/old'), { hops: [['/old', 'done', 301, null], ['/new', 'done', 200, null]], cut: null });
    // Two hops, the last Location's fragment dropped as the crawl canonicalises it.
    assert.deepEqual(chain('/hop'), { hops: [['/hop', 'done', 302, null], ['/hop2', 'done', 307, null], ['/final', 'done', 200, null]], cut: null });
    const away = chain('/away');
    assert.deepEqual(away.hops[0], ['/away', 'done', 301, null]);
    assert.deepEqual(away.hops[1]!.slice(0, 3), ['http://elsewhere.invalid/', 'excluded', null]);
    assert.ok(away.hops[1]![3], 'the exclusion keeps its reason');
    assert.deepEqual(chain('/loop'), { hops: [['/loop', 'done', 301, null], ['/loop2', 'done', 301, null]], cut: 'loop' });
    assert.deepEqual(chain('/nowhere'), { hops: [['/nowhere', 'done', 302, null]], cut: 'no-location' });
    assert.deepEqual(chain('/gone'), { hops: [['/gone', 'done', 404, null]], cut: null });
    const blocked = bySeed.get('/private')!;
    // Found by an exploratory session: "failed: robots-disallowed" here, while the counters count it excluded (robots).
    assert.deepEqual(blocked.hops.map((h) => [h.state, h.reason]), [['excluded', 'robots']]);
    assert.deepEqual(seedOutcome(blocked).steps, ['not followed: robots']);
    const counters = JSON.parse(s.db.prepare('SELECT stats FROM Crawl WHERE id = ?').pluck().get(id) as string) as { excludedByReason: Record<string, number>; failedByReason: Record<string, number> };
    assert.deepEqual([counters.excludedByReason.robots, counters.failedByReason['robots-disallowed']], [1, undefined], 'the counters say the same');
    assert.equal(blocked.hops[0]!.message, 'disallowed by robots.txt', "the crawl log's message comes along");

    // The same report counts the WARC records by type: the landing page's second capture is a revisit, its payload not stored again.
    const stored = s.db.prepare('SELECT recordType, COUNT(*) AS captures, SUM(size) AS bytes, SUM(warcLength) AS warcBytes FROM Capture WHERE crawlId = ? GROUP BY recordType').all(id) as typeof done.records;
    assert.deepEqual(done.records, [...stored].sort((a, b) => b.recordType.localeCompare(a.recordType)));
    const revisits = done.records.find((r) => r.recordType === 'revisit');
    assert.ok(revisits && revisits.captures >= 1, JSON.stringify(done.records));
    assert.ok(done.records.every((r) => r.warcBytes > 0));

    // The crawl log as a file: every entry, oldest first, one line each; the table's filters apply.
    const { GET: download } = await import('../../../app/api/crawls/[id]/log/download/route');
    const fetchLog = async (search: string) => {
      const res = await download(new Request(`http://cockpit.test/api/crawls/${id}/log/download${search}`, { headers: { host: 'cockpit.test', cookie: admin.cookie } }), { params: Promise.resolve({ id: String(id) }) });
      assert.equal(res.status, 200);
      assert.match(res.headers.get('content-disposition') ?? '', new RegExp(`attachment; filename="crawl-${id}-log.tsv"`));
      return (await res.text()).split('\n').slice(0, -1).map((line) => line.split('\t'));
    };
    const entries = s.db.prepare('SELECT url, outcome, status FROM CrawlLogEntry WHERE crawlId = ? ORDER BY id').all(id) as { url: string; outcome: string; status: number | null }[];
    const all = await fetchLog('');
    assert.deepEqual(all[0], ['at', 'status', 'outcome', 'size', 'duration_ms', 'retries', 'url', 'message', 'not_requested']);
    assert.deepEqual(all.slice(1).map((f) => [f[6], f[2], f[1]]), entries.map((e) => [e.url, e.outcome, e.status === null ? '' : String(e.status)]));
    assert.ok(all.slice(1).every((f) => f.length === 9 && !Number.isNaN(Date.parse(f[0]!)) && f[8] === '0'));
    const robots = await fetchLog('?outcome=robots');
    assert.deepEqual(robots.slice(1).map((f) => [f[6], f[7]]), [[`${origin}/private`, 'disallowed by robots.txt']]);
    assert.deepEqual((await fetchLog('?q=LOOP')).slice(1).map((f) => f[6]), [`${origin}/loop`, `${origin}/loop2`]);

    // One URL looked up: how the crawl found it, what became of it, or why it never saw it.
    const { GET: inspect } = await import('../../../app/api/crawls/[id]/inspect/route');
    const lookUp = async (url: string | null) => {
      const r = await call(inspect, 'GET', `/api/crawls/${id}/inspect${url === null ? '' : `?url=${encodeURIComponent(url)}`}`, undefined, { id: String(id) });
      return { status: r.status, body: r.body as unknown as UrlInspection & { error?: string } };
    };
    const redirected = (await lookUp(`${origin}/new#section`)).body;
    assert.equal(redirected.url, `${origin}/new`, 'canonical, as the crawl writes it');
    assert.deepEqual([redirected.entry?.state, redirected.entry?.kind, redirected.entry?.via, redirected.entry?.depth], ['done', 'redirect', `${origin}/old`, 1]);
    assert.deepEqual(redirected.discoveryPath, [{ url: `${origin}/old`, kind: 'seed' }]);
    assert.deepEqual([redirected.captures.length, redirected.captures[0]?.status, redirected.log.map((e) => e.outcome)], [1, 200, ['ok']]);
    assert.equal(redirected.scope, null);
    const excluded = (await lookUp('http://elsewhere.invalid/')).body;
    assert.deepEqual([excluded.entry?.state, excluded.entry?.via, excluded.captures.length], ['excluded', `${origin}/away`, 0]);
    assert.ok(excluded.entry?.reason);
    assert.deepEqual(excluded.discoveryPath, [{ url: `${origin}/away`, kind: 'seed' }]);
    const refused = (await lookUp(`${origin}/private`)).body;
    assert.deepEqual([refused.entry?.state, refused.entry?.reason], ['excluded', 'robots']);
    assert.equal(inspectionVerdict(refused), 'The crawl has seen it: not followed: robots.');
    const unseen = (await lookUp(`${origin}/never-linked`)).body;
    assert.deepEqual([unseen.entry, unseen.scope], [null, { inScope: true, reason: null, takenIf: [] }]);
    assert.deepEqual((await lookUp('http://other.test/page')).body.scope, { inScope: false, reason: 'out-of-scope-host', takenIf: ['requisite'] }, 'no extra hops: only as a requisite');
    assert.deepEqual((await lookUp('mailto:someone@example.org')).body.url, null);
    const missing = await lookUp(null);
    assert.equal(missing.status, 400);
    assert.match(missing.body.error ?? '', /Give the URL/);
  });
});

test('the crawl log downloads whole past its slices, in order, however many entries it has', { timeout: 60_000 }, async () => {
  const crawl = s.db.prepare('SELECT id FROM Crawl ORDER BY id LIMIT 1').pluck().get() as number;
  const before = s.db.prepare('SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ?').pluck().get(crawl) as number;
  const add = s.db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, message, size, durationMs, retries, at) VALUES (?, ?, 200, 'ok', NULL, 10, 1, 0, ?)");
  s.db.transaction(() => {
    for (let i = 0; i < 4500; i++) add.run(crawl, `http://bulk.test/${i}`, new Date(Date.UTC(2026, 10, 28, 12, 0, 0, i)).toISOString().replace('Z', '+00:00'));
  })();
  const { GET: download } = await import('../../../app/api/crawls/[id]/log/download/route');
  const res = await download(new Request(`http://cockpit.test/api/crawls/${crawl}/log/download?q=bulk.test`, { headers: { host: 'cockpit.test', cookie: admin.cookie } }), { params: Promise.resolve({ id: String(crawl) }) });
  const lines = (await res.text()).split('\n').slice(1, -1);
  assert.equal(lines.length, 4500);
  assert.deepEqual(lines.map((l) => l.split('\t')[6]), Array.from({ length: 4500 }, (_, i) => `http://bulk.test/${i}`));
  assert.equal(s.db.prepare('SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ?').pluck().get(crawl), before + 4500);
});

test('the hosts report counts the URLs the crawl log records as excluded (an exclude pattern, robots.txt) apart: never requested, they are no fetches', async () => {
  const crawl = s.db.prepare('SELECT id FROM Crawl ORDER BY id LIMIT 1').pluck().get() as number;
  // The entries as the engine writes them: two pages fetched, one failed, a recrawl not made (an
  // exclude pattern added since), a revisit robots.txt refused; and a recrawl round's failure and host back-off, no fetch either.
  const { CaptureStore } = await import('../../../worker/store/capture-store');
  const store = new CaptureStore(s.db, crawl);
  const at = new Date();
  const entry = (path: string, status: number | null, outcome: string, size: number) =>
    store.addLog({ url: `http://hosts.test${path}`, status, outcome, message: null, size, durationMs: 1, retries: 0, at });
  entry('/a', 200, 'ok', 100);
  entry('/b', 200, 'ok', 50);
  entry('/c', 503, 'http-5xx', 7);
  // Cut at the size cap (a page, a revisit or a recrawl): archived, no failure, as the counters have it.
  entry('/d', 200, 'truncated-length', 1024);
  entry('/calendar?day=1', null, 'exclude-match', 0);
  entry('/private', null, 'robots', 0);
  entry('/a', null, 'recrawl-round-failed', 0);
  // A recrawl's note of a host in back-off (recrawl-host-backoff.ts): no fetch either.
  entry('/a', null, 'recrawl-host-backoff', 0);
  entry('/only-excluded', null, 'exclude-match', 0);
  const { GET: getReport } = await import('../../../app/api/crawls/[id]/report/route');
  const report = (await call(getReport, 'GET', `/api/crawls/${crawl}/report`, undefined, { id: String(crawl) })).body as {
    hosts: { host: string; fetches: number; ok: number; failed: number; excluded: number; notRequested: number; bytes: number }[];
  };
  assert.deepEqual(report.hosts.find((h) => h.host === 'hosts.test'), { host: 'hosts.test', fetches: 4, ok: 3, failed: 1, excluded: 3, notRequested: 0, bytes: 1181 });
});

// The hosts report counts requests (the counters count pages): robots.txt's are requests to the host too;
// the pages an unanswered robots.txt kept from being requested are not.
test('the hosts report counts a robots.txt request as a fetch of its host, one that got no answer as a failed one, and the pages it kept from being requested apart', async () => {
  const crawl = s.db.prepare('SELECT id FROM Crawl ORDER BY id LIMIT 1').pluck().get() as number;
  const { CaptureStore } = await import('../../../worker/store/capture-store');
  const store = new CaptureStore(s.db, crawl);
  const at = new Date();
  store.addLog({ url: 'http://robots-hosts.test/robots.txt', status: null, outcome: 'connect-timeout', message: 'robots.txt request got no answer (timeout); robots.txt is tried again in 500 ms; the host\'s URLs wait', size: 0, durationMs: 30_000, retries: 1, at, subject: 'robots' });
  store.addLog({ url: 'http://robots-hosts.test/robots.txt', status: 200, outcome: 'ok', message: 'robots.txt', size: 20, durationMs: 5, retries: 0, at, subject: 'robots' });
  store.addLog({ url: 'http://robots-hosts.test/', status: 200, outcome: 'ok', message: null, size: 100, durationMs: 5, retries: 0, at });
  // A host whose robots.txt got no answer at all: its pages were never requested (RFC 9309), no fetches.
  const refused = "no connection to the host for robots.txt (connect ECONNREFUSED); the URL was not requested";
  store.addLog({ url: 'http://dead-hosts.test/robots.txt', status: null, outcome: 'connect-refused', message: "robots.txt request got no answer (connect ECONNREFUSED); the host's URLs fail with this reason, unrequested, for 10 min; then robots.txt is tried again", size: 0, durationMs: 0, retries: 1, at, subject: 'robots' });
  for (const path of ['/', '/about']) store.addLog({ url: `http://dead-hosts.test${path}`, status: null, outcome: 'connect-refused', message: refused, size: 0, durationMs: 0, retries: 0, at, notRequested: true });
  const { GET: getReport } = await import('../../../app/api/crawls/[id]/report/route');
  const report = (await call(getReport, 'GET', `/api/crawls/${crawl}/report`, undefined, { id: String(crawl) })).body as {
    hosts: { host: string; fetches: number; ok: number; failed: number; excluded: number; notRequested: number; bytes: number }[];
  };
  assert.deepEqual(report.hosts.find((h) => h.host === 'robots-hosts.test'), { host: 'robots-hosts.test', fetches: 3, ok: 2, failed: 1, excluded: 0, notRequested: 0, bytes: 120 });
  assert.deepEqual(report.hosts.find((h) => h.host === 'dead-hosts.test'), { host: 'dead-hosts.test', fetches: 1, ok: 0, failed: 1, excluded: 0, notRequested: 2, bytes: 0 });
});

test('the host-queues report says where the frontier\'s URLs wait, as the frontier holds them', { timeout: 60_000 }, async () => {
  // The seed links to 30 pages; a 30 s delay after it keeps them queued (no robots.txt asked first).
  // On an address of its own: the worker's politeness clock for 127.0.0.1, which the test above
  // crawled, would hold even the seed for those 30 s.
  const links = Array.from({ length: 30 }, (_, i) => `<a href="/p${i}">p${i}</a>`).join(' ');
  const server = createServer((req, res) => {
    res.setHeader('content-type', 'text/html');
    res.end(req.url === '/' ? `<!doctype html><title>Index</title>${links}` : page(req.url ?? ''));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.4', r));
  const origin = `http://127.0.0.4:${(server.address() as AddressInfo).port}`;
  try {
    const { POST: postIcd } = await import('../../../app/api/icds/route');
    const icd = await call(postIcd, 'POST', '/api/icds', {
      name: 'Waiting queue', seeds: [`${origin}/`], scope: { includeFavicon: false }, politeness: { respectRobots: false, minDelayMs: 30_000, maxDelayMs: 30_000 }, aah: { enabled: false },
    }, {});
    const { POST: postCrawl } = await import('../../../app/api/crawls/route');
    const { GET: getReport } = await import('../../../app/api/crawls/[id]/report/route');
    const id = (await call(postCrawl, 'POST', '/api/crawls', { icdId: icd.body.id }, {})).body.id as number;
    // States 0 and 1: queued and in flight (worker/frontier/frontier-sql.ts). The seed's links are
    // queued before its own commit (a polite crawl's page whose host has nothing else queued): the
    // seed is waited for too.
    const inState = (state: number) => s.db.prepare('SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND state = ?').pluck().get(id, state) as number;
    await until('the seed is done and its links are queued', () => s.db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'frontier_url'").get() !== undefined && inState(0) === 30 && inState(1) === 0, 30_000);
    const report = (await call(getReport, 'GET', `/api/crawls/${id}/report`, undefined, { id: String(id) })).body as { queues: { queues: { host: string; queued: number; retrying: number; inFlight: number }[]; hostCount: number; waiting: number } };
    const host = s.db.prepare('SELECT DISTINCT host FROM frontier_url WHERE crawl_id = ?').pluck().get(id) as string;
    assert.deepEqual(report.queues, { queues: [{ host, queued: 30, retrying: 0, inFlight: 0 }], hostCount: 1, waiting: 30 });
    assert.ok(host.includes('127.0.0.4'), host);
    s.db.prepare("UPDATE Crawl SET desired = 'stop' WHERE id = ?").run(id);
    await until('the crawl has stopped', () => s.db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(id) === 'stopped', 30_000);
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
