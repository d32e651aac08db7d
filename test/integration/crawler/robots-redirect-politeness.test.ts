/**
 * robots.txt that redirects to another host: the hop is a request to that host, so it takes turns
 * on that host's politeness key (its IP) with the host's own pages, whichever crawl holds it.
 * Real parts: a migrated SQLite database, the engine, loopback sites on 127.0.0.2 and 127.0.0.3
 * (two IPs, two politeness keys) that log each request's start and end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { CrawlContext } from '../../../worker/crawler/crawl-context';
import { SqliteFrontier } from '../../../worker/frontier';
import { withCrawl, withSiteCrawl } from '../../support/site-crawl';

interface Logged { path: string; at: number; end?: number }
interface Answer { status: number; headers?: Record<string, string>; body?: string }

/** A site on `address` whose requests are logged; `route` answers them (after `latencyMs`). */
async function loggedSite(address: string, latencyMs: number, route: (path: string) => Answer) {
  const log: Logged[] = [];
  const listener: RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const entry: Logged = { path, at: Date.now() };
    log.push(entry);
    setTimeout(() => {
      const answer = route(path);
      // The end is when the response is handed over (the crawler's clock starts about then).
      entry.end = Date.now();
      res.writeHead(answer.status, { 'content-type': 'text/html', ...answer.headers }).end(answer.body ?? '');
    }, latencyMs);
  };
  const server = createServer(listener);
  await new Promise<void>((r) => server.listen(0, address, () => r()));
  const origin = `http://${address}:${(server.address() as AddressInfo).port}`;
  return {
    origin, log,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

/** Overlaps and gaps under `delayMs` between the requests a server received (5 ms slack for timers). */
function politenessProblems(log: readonly Logged[], delayMs: number): string[] {
  const sorted = [...log].sort((a, b) => a.at - b.at);
  const problems: string[] = [];
  for (let i = 1; i < sorted.length; i++) {
    const [prev, cur] = [sorted[i - 1]!, sorted[i]!];
    if (prev.end === undefined || prev.end > cur.at) problems.push(`${prev.path} and ${cur.path} in flight at once`);
    else if (cur.at - prev.end < delayMs - 5) problems.push(`${prev.path} → ${cur.path}: ${cur.at - prev.end} ms`);
  }
  return problems;
}

const page = (body: string): Answer => ({ status: 200, body });

test('a robots.txt redirect to another IP waits its turn there: never two requests in flight, gaps ≥ the delay', { timeout: 60_000 }, async () => {
  const DELAY_MS = 300;
  // b: a few pages, each answered slowly, so its key is held most of the time.
  const b = await loggedSite('127.0.0.3', 100, (path) => {
    if (path === '/robots.txt') return { status: 404 };
    if (path === '/shared-robots.txt') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private\n' };
    if (path === '/') return page('<a href="/1">1</a> <a href="/2">2</a> <a href="/3">3</a>');
    return page(`<p>${path}</p>`);
  });
  // a: robots.txt answered at once with a redirect to b, which came while b/robots.txt was in flight.
  const a = await loggedSite('127.0.0.2', 0, (path) => {
    if (path === '/robots.txt') return { status: 301, headers: { location: `${b.origin}/shared-robots.txt` } };
    if (path === '/') return page('<a href="/private/x">private</a> <a href="/open">open</a>');
    return page(`<p>${path}</p>`);
  });
  try {
    const fields = {
      name: 'Redirected robots.txt', seeds: [`${a.origin}/`, `${b.origin}/`],
      politeness: { minDelayMs: DELAY_MS, maxDelayMs: DELAY_MS, delayFactor: 0, concurrency: 2 },
    };
    await withCrawl('tm-robots-redirect-', fields, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
      assert.equal(await engine.run(), 'finished');
      const captured = db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId);
      assert.ok(captured.includes(`${b.origin}/shared-robots.txt`), 'the redirect\'s target was archived');
      assert.ok(captured.includes(`${a.origin}/open`) && !captured.includes(`${a.origin}/private/x`), `the rules it redirected to apply to a: ${captured.join(' ')}`);
    });
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
  assert.equal(b.log.filter((r) => r.path === '/shared-robots.txt').length, 1, `b: ${b.log.map((r) => r.path).join(' ')}`);
  assert.deepEqual(politenessProblems(b.log, DELAY_MS), [], `b: ${b.log.map((r) => r.path).join(' ')}`);
  assert.deepEqual(politenessProblems(a.log, DELAY_MS), [], `a: ${a.log.map((r) => r.path).join(' ')}`);
});

test('two robots.txt redirecting to each other\'s host at the same time do not deadlock', { timeout: 60_000 }, async () => {
  const sites: Awaited<ReturnType<typeof loggedSite>>[] = [];
  const other = (i: number) => sites[1 - i]!.origin;
  for (const [i, address] of ['127.0.0.2', '127.0.0.3'].entries()) {
    sites.push(await loggedSite(address, 50, (path): Answer => {
      if (path === '/robots.txt') return { status: 302, headers: { location: `${other(i)}/moved-robots.txt` } };
      if (path === '/moved-robots.txt') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nAllow: /\n' };
      return page(`<p>${path}</p>`);
    }));
  }
  try {
    const fields = {
      name: 'Crossed robots.txt', seeds: sites.map((s) => `${s.origin}/`),
      politeness: { minDelayMs: 100, maxDelayMs: 100, delayFactor: 0, concurrency: 2 },
    };
    await withCrawl('tm-robots-crossed-', fields, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
      const run = engine.run();
      const pages = () => db.prepare("SELECT url FROM Capture WHERE crawlId = ? AND url NOT LIKE '%robots.txt'").pluck().all(crawlId);
      // Both pages hold their host's key, and each one's robots.txt wants the other's: whichever asked
      // second gives up for now (its robots.txt is retried later, its page waits), the other goes on.
      for (const end = Date.now() + 10_000; pages().length === 0 && Date.now() < end; ) await sleep(50);
      assert.equal(pages().length, 1, 'one page was fetched: the two requests did not wait for each other for good');
      const retrying = db.prepare('SELECT url, not_before FROM frontier_url WHERE crawl_id = ? AND state = 5').all(crawlId) as { url: string; not_before: number }[];
      assert.equal(retrying.length, 1, 'the other page waits for its robots.txt to be asked again');
      assert.ok(!pages().includes(retrying[0]!.url) && retrying[0]!.not_before > Date.now());
      const stopping = Date.now();
      await engine.stop();
      assert.equal(await run, 'stopped');
      // A stop that sat out the other page's wait would end only after its robots.txt retry (15–30 s away).
      assert.ok(Date.now() < retrying[0]!.not_before, `stopped in ${Date.now() - stopping} ms, before the retry came due`);
    });
  } finally {
    await Promise.all(sites.map((s) => s.close()));
  }
  for (const s of sites) assert.deepEqual(politenessProblems(s.log, 100), [], `${s.origin}: ${s.log.map((r) => r.path).join(' ')}`);
});

test('a pause ends the wait of a robots.txt redirect for the other host\'s turn', { timeout: 60_000 }, async () => {
  // b asks for 4 s between requests, so a's redirect to it waits about that long.
  const b = await loggedSite('127.0.0.3', 0, (path) => {
    if (path === '/robots.txt') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nCrawl-delay: 4\n' };
    return page(`<p>${path}</p>`);
  });
  const a = await loggedSite('127.0.0.2', 0, (path) => {
    if (path === '/robots.txt') return { status: 301, headers: { location: `${b.origin}/robots.txt` } };
    return page(`<p>${path}</p>`);
  });
  try {
    const fields = {
      name: 'Paused redirect', seeds: [`${b.origin}/`, `${a.origin}/`],
      politeness: { minDelayMs: 100, maxDelayMs: 5_000, delayFactor: 0, concurrency: 2 },
    };
    await withCrawl('tm-robots-redirect-pause-', fields, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), haltGraceMs: 100 });
      const run = engine.run();
      await sleep(1_000);
      const pausing = Date.now();
      await engine.pause();
      assert.equal(await run, 'paused');
      // A pause that sat out the hop's wait would end only when b's Crawl-delay after its robots.txt ran out.
      assert.ok(Date.now() < b.log[0]!.end! + 4_000, `paused in ${Date.now() - pausing} ms, before b's Crawl-delay ran out`);
      const seed = db.prepare('SELECT state, not_before FROM frontier_url WHERE crawl_id = ? AND url = ?').get(crawlId, `${a.origin}/`) as { state: number; not_before: number | null };
      assert.ok(seed.not_before === null || seed.not_before <= Date.now(), `a's page is not held back (not before ${seed.not_before && seed.not_before - Date.now()} ms from now)`);
    });
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
  assert.deepEqual(b.log.map((r) => r.path), ['/robots.txt'], 'b was asked for robots.txt once, by its own page, within its delay of nothing else');
});

test('each hop of a robots.txt redirecting on its own host waits the host\'s delay after the one before', { timeout: 60_000 }, async () => {
  const DELAY_MS = 300;
  // Two hops on the host, then a robots.txt that redirects to itself: followed to the hop limit.
  const a = await loggedSite('127.0.0.2', 0, (path) => {
    if (path === '/robots.txt') return { status: 301, headers: { location: '/robots-1.txt' } };
    if (path === '/robots-1.txt') return { status: 302, headers: { location: '/robots-2.txt' } };
    if (path === '/robots-2.txt') return { status: 200, headers: { 'content-type': 'text/plain' }, body: 'User-agent: *\nDisallow: /private\n' };
    if (path === '/') return page('<a href="/private/x">private</a> <a href="/open">open</a>');
    return page(`<p>${path}</p>`);
  });
  const b = await loggedSite('127.0.0.3', 0, (path) => (path === '/robots.txt' ? { status: 301, headers: { location: '/robots.txt' } } : page(`<p>${path}</p>`)));
  try {
    const fields = {
      name: 'Redirects on the host', seeds: [`${a.origin}/`, `${b.origin}/`],
      politeness: { minDelayMs: DELAY_MS, maxDelayMs: DELAY_MS, delayFactor: 0, concurrency: 2 },
    };
    await withCrawl('tm-robots-own-hops-', fields, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
      assert.equal(await engine.run(), 'finished');
      const captured = db.prepare("SELECT url FROM Capture WHERE crawlId = ? AND url NOT LIKE '%.txt' ORDER BY url").pluck().all(crawlId);
      assert.deepEqual(captured, [`${a.origin}/`, `${a.origin}/open`, `${b.origin}/`], 'a\'s redirected rules apply; b\'s loop is unavailable robots.txt: all allowed');
    });
  } finally {
    await Promise.all([a.close(), b.close()]);
  }
  assert.deepEqual(a.log.map((r) => r.path), ['/robots.txt', '/robots-1.txt', '/robots-2.txt', '/', '/open']);
  assert.deepEqual(b.log.map((r) => r.path), [...Array(6).fill('/robots.txt'), '/'], 'the loop followed to five redirects, then the page');
  assert.deepEqual(politenessProblems(a.log, DELAY_MS), [], `a: ${a.log.map((r) => r.path).join(' ')}`);
  assert.deepEqual(politenessProblems(b.log, DELAY_MS), [], `b: ${b.log.map((r) => r.path).join(' ')}`);
});

test('redirects on the host and to another name on its IP are fetched at once under its key, as before', { timeout: 60_000 }, async () => {
  let port = '';
  const site: RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    if (path === '/robots.txt') return void res.writeHead(301, { location: '/robots-1.txt' }).end();
    // localhost is 127.0.0.1: the same politeness key.
    if (path === '/robots-1.txt') return void res.writeHead(301, { location: `http://localhost:${port}/robots-2.txt` }).end();
    if (path === '/robots-2.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/private/x">private</a> <a href="/open">open</a>');
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${path}</p>`);
  };
  const fields = { name: 'Redirects on one IP', politeness: { minDelayMs: 100, maxDelayMs: 100, delayFactor: 0, concurrency: 2 } };
  await withSiteCrawl('tm-robots-same-key-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    port = new URL(origin).port;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    const started = Date.now();
    assert.equal(await engine.run(), 'finished');
    // A hop taken for a wait on its own key would leave robots.txt unreachable and retried 15–30 s later.
    assert.ok(Date.now() - started < 12_000, `finished in ${Date.now() - started} ms`);
    assert.deepEqual(db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId), [
      `${origin}/`, `${origin}/open`, `${origin}/robots-1.txt`, `${origin}/robots.txt`, `http://localhost:${port}/robots-2.txt`,
    ]);
  });
});

/**
 * A site on 127.0.0.1 also named localhost (one IP: one politeness key), whose robots.txt under the
 * name localhost redirects to the one under 127.0.0.1, answered after `hopLatencyMs`. Requests are logged with their Host.
 */
async function twoNameSite(hopLatencyMs: number) {
  const log: (Logged & { host: string })[] = [];
  let port = '';
  const listener: RequestListener = (req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const entry = { path, host, at: Date.now() } as Logged & { host: string };
    log.push(entry);
    const answer = (status: number, headers: Record<string, string>, body = '') => {
      entry.end = Date.now();
      res.writeHead(status, headers).end(body);
    };
    if (path === '/robots.txt' && host === 'localhost') return answer(301, { location: `http://127.0.0.1:${port}/robots.txt` });
    if (path === '/robots.txt') return void setTimeout(() => answer(200, { 'content-type': 'text/plain' }, 'User-agent: *\nDisallow: /private\n'), hopLatencyMs);
    answer(200, { 'content-type': 'text/html' }, `<p>${path}</p>`);
  };
  const server = createServer(listener);
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = String((server.address() as AddressInfo).port);
  return {
    port, log,
    close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }),
  };
}

test('the timing of a robots.txt redirect to another name on the IP belongs to the host that asked, not to that name', { timeout: 60_000 }, async () => {
  const site = await twoNameSite(300);
  const [byIp, byName] = [`http://127.0.0.1:${site.port}`, `http://localhost:${site.port}`];
  try {
    await withCrawl('tm-robots-hop-timing-', { name: 'Hop timing', seeds: [`${byIp}/`] }, async ({ dir, db, icd, crawlId }) => {
      const frontier = new SqliteFrontier(db);
      const ctx = await CrawlContext.open({ crawlId, icd, db, frontier, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
      try {
        const own = await ctx.askRobots(`${byIp}/a`, `127.0.0.1:${site.port}`);
        assert.ok(own.fetched, '127.0.0.1 fetched its own robots.txt');
        const redirected = await ctx.askRobots(`${byName}/a`, `localhost:${site.port}`);
        assert.equal(redirected.verdict.allowed, true);
        const hop = site.log.at(-1)!;
        assert.deepEqual([hop.host, hop.path], ['127.0.0.1', '/robots.txt']);
        const end = redirected.fetched && redirected.fetched.lastStartAt + redirected.fetched.lastDurationMs;
        assert.ok(end !== null && end >= hop.end! - 5, `localhost's last robots.txt request ended ${end === null ? 'never' : hop.end! - end + ' ms'} before the hop did`);
        const cached = await ctx.askRobots(`${byIp}/b`, `127.0.0.1:${site.port}`);
        assert.equal(cached.fetched, null, '127.0.0.1 asked again from memory: no request of its own was made meanwhile');
      } finally {
        await ctx.close();
        frontier.close();
      }
    });
  } finally {
    await site.close();
  }
});

test('a page whose robots.txt redirects to another name on its IP waits its delay after the last hop', { timeout: 60_000 }, async () => {
  const DELAY_MS = 400;
  const site = await twoNameSite(300);
  try {
    const fields = {
      name: 'Redirect to another name', seeds: [`http://localhost:${site.port}/`],
      politeness: { minDelayMs: DELAY_MS, maxDelayMs: DELAY_MS, delayFactor: 0, concurrency: 1 },
    };
    await withCrawl('tm-robots-hop-delay-', fields, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
      assert.equal(await engine.run(), 'finished');
    });
  } finally {
    await site.close();
  }
  const paths = site.log.map((r) => `${r.host}${r.path}`);
  assert.deepEqual(paths, ['localhost/robots.txt', '127.0.0.1/robots.txt', 'localhost/']);
  const [, hop, page] = site.log;
  assert.ok(page!.at - hop!.end! >= DELAY_MS - 5, `the page went out ${page!.at - hop!.end!} ms after the redirected robots.txt`);
});
