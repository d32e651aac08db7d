/**
 * A request that fails is still a request the host served (or tried to): the next one waits the
 * politeness delay after it like after any other, whether it failed without a response (a reset
 * connection) or the fetcher tries it again (a 503). Real parts: a migrated SQLite database, the
 * engine, a loopback site that logs each request's start and the moment it answered or cut it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withCrawl } from '../../support/site-crawl';

type Route = (n: number) => { status: number; body?: string } | 'reset';

/** A site of `routes` (path → answer for its n-th request, from 1); each answer comes 20 ms after the request. */
async function startSite(routes: Record<string, Route>) {
  const log: { path: string; at: number; end?: number }[] = [];
  const seen = new Map<string, number>();
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://x').pathname;
    const entry: (typeof log)[number] = { path, at: Date.now() };
    log.push(entry);
    const n = (seen.get(path) ?? 0) + 1;
    seen.set(path, n);
    setTimeout(() => {
      const answer = routes[path]?.(n) ?? { status: 404 };
      entry.end = Date.now();
      if (answer === 'reset') return void req.socket.destroy();
      res.writeHead(answer.status, { 'content-type': 'text/html' }).end(answer.body ?? '');
    }, 20);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { origin, log, close: () => new Promise<void>((r) => { server.closeAllConnections(); server.close(() => r()); }) };
}

/** Crawls `seeds` (paths) of the site to the end with the delay `delayMs`; returns the gaps under it. */
async function crawlAndCheck(site: Awaited<ReturnType<typeof startSite>>, seeds: string[], delayMs: number, maxRetries: number) {
  const fields = {
    name: 'Failing', seeds: seeds.map((p) => `${site.origin}${p}`), aah: { enabled: false },
    politeness: { minDelayMs: delayMs, maxDelayMs: delayMs, delayFactor: 0, concurrency: 4 },
    limits: { maxRetries },
  };
  await withCrawl('tm-polite-failed-', fields, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
  });
  const problems: string[] = [];
  for (let i = 1; i < site.log.length; i++) {
    const [prev, cur] = [site.log[i - 1]!, site.log[i]!];
    if (prev.end === undefined || prev.end > cur.at) problems.push(`${prev.path} and ${cur.path} in flight at once`);
    // 5 ms of slack for timer granularity.
    else if (cur.at - prev.end < delayMs - 5) problems.push(`${prev.path} → ${cur.path}: ${cur.at - prev.end} ms`);
  }
  return problems;
}

test('the request after one whose connection was reset waits the delay after it, not after the lease', { timeout: 60_000 }, async () => {
  const site = await startSite({ '/robots.txt': () => ({ status: 404 }), '/reset': () => 'reset', '/': () => ({ status: 200, body: '<p>home</p>' }) });
  try {
    const problems = await crawlAndCheck(site, ['/reset', '/'], 300, 0);
    assert.deepEqual(site.log.map((r) => r.path), ['/robots.txt', '/reset', '/']);
    assert.deepEqual(problems, []);
  } finally {
    await site.close();
  }
});

test('the fetcher\'s retries of robots.txt and of a page answering 503 wait the host\'s delay too', { timeout: 60_000 }, async () => {
  // The first retry's backoff is 250–500 ms: shorter than the delay the host is owed.
  const busyOnce: Route = (n) => (n === 1 ? { status: 503 } : { status: 200, body: '<p>home</p>' });
  const site = await startSite({ '/robots.txt': (n) => (n === 1 ? { status: 503 } : { status: 404 }), '/': busyOnce });
  try {
    const problems = await crawlAndCheck(site, ['/'], 700, 2);
    assert.deepEqual(site.log.map((r) => r.path), ['/robots.txt', '/robots.txt', '/', '/']);
    assert.deepEqual(problems, []);
  } finally {
    await site.close();
  }
});

test('a pause does not wait out the robots.txt Crawl-delay a page waits after robots.txt; the page goes back to the queue', { timeout: 60_000 }, async () => {
  const site = await startSite({ '/robots.txt': () => ({ status: 200, body: 'User-agent: *\nCrawl-delay: 20\n' }), '/': () => ({ status: 200, body: '<p>home</p>' }) });
  try {
    const fields = {
      name: 'Slow robots', seeds: [`${site.origin}/`], aah: { enabled: false },
      politeness: { minDelayMs: 100, maxDelayMs: 30_000, delayFactor: 0, concurrency: 4 },
    };
    await withCrawl('tm-polite-pause-', fields, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), haltGraceMs: 500 });
      const outcome = engine.run();
      for (const end = Date.now() + 10_000; site.log[0]?.end === undefined && Date.now() < end; ) await new Promise((r) => setTimeout(r, 20));
      await new Promise((r) => setTimeout(r, 200)); // the page now waits the 20 s after robots.txt
      const asked = Date.now();
      await engine.pause();
      const took = Date.now() - asked;
      assert.equal(await outcome, 'paused');
      // Not the 20 s the page waited for: half of it leaves a loaded machine room.
      assert.ok(took < 10_000, `the pause took ${took} ms`);
      assert.deepEqual(site.log.map((r) => r.path), ['/robots.txt'], 'the page was not fetched');
      const state = db.prepare("SELECT state FROM frontier_url WHERE crawl_id = ? AND url = ?").pluck().get(crawlId, `${site.origin}/`);
      assert.equal(state, 0, 'the page is queued again');
    });
  } finally {
    await site.close();
  }
});
