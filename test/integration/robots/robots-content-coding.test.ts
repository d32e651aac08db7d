/**
 * robots.txt served with a content coding that goes wrong, from loopback servers: through the
 * robots cache with the real fetcher, and crawled by the engine, whose crawl log says what became
 * of it. A robots.txt that decodes whole despite bytes after its gzip member, or a plain one
 * labelled gzip, has its Disallow line obeyed; one that decodes to nothing readable is unreachable,
 * not "no rules".
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { createFetcher, type Fetcher } from '../../../worker/fetch';
import { RobotsCache } from '../../../worker/robots';
import { startFixtureServer, type FixtureServer } from '../../fixtures/servers/fixture-server';
import { withSiteCrawl } from '../../support/site-crawl';

const UA = 'Tidemark/0.1 (+https://example.org/tidemark; web archiving crawler)';
const RULES = 'User-agent: *\nDisallow: /private\n';
/** Bytes labelled gzip that are none, nor text: a PNG's signature and header, as a misconfigured server might send. */
const NOT_GZIP = Buffer.from('89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c489', 'hex');
const BODIES = {
  junkAfterMember: Buffer.concat([gzipSync(RULES), Buffer.from('GARBAGE')]),
  plainLabelledGzip: Buffer.from(RULES),
  notGzip: NOT_GZIP,
};

/** A site whose robots.txt is `robots`, labelled gzip, with a home page linking to /private and /public. */
function site(robots: Buffer): RequestListener {
  return (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(robots);
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/private">no</a> <a href="/public">yes</a>');
    res.writeHead(200, { 'content-type': 'text/html' }).end('<p>a page</p>');
  };
}

describe('robots cache: robots.txt whose content coding goes wrong, fetched from loopback servers', () => {
  let spoolDir: string;
  let fetcher: Fetcher;
  const servers: Partial<Record<keyof typeof BODIES, FixtureServer>> = {};

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-robots-coding-'));
    fetcher = createFetcher({ userAgent: UA, limits: { connectTimeoutMs: 500, headersTimeoutMs: 500, totalTimeoutMs: 2000, maxBodyBytes: 1024 * 1024, maxRetries: 0 }, spoolDir });
    for (const [name, body] of Object.entries(BODIES)) {
      servers[name as keyof typeof BODIES] = await startFixtureServer({ '/robots.txt': (_q, res) => res.writeHead(200, { 'content-encoding': 'gzip' }).end(body) });
    }
  });
  after(async () => {
    await fetcher.close();
    for (const server of Object.values(servers)) await server.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  const cache = (now: () => number) =>
    new RobotsCache({ userAgent: UA, enabled: true, ignoreFor: [], fetchRobots: (url) => fetcher.fetch(url), now, random: () => 0.5, maxAttempts: 3, backoff: { baseMs: 1000, maxMs: 10_000 } });

  test('bytes after the gzip member, or a plain file labelled gzip: Disallow obeyed', async () => {
    for (const name of ['junkAfterMember', 'plainLabelledGzip'] as const) {
      const robots = cache(() => 0);
      assert.deepEqual(await robots.check(`${servers[name]!.url}/private`), { allowed: false, reason: 'robots-disallowed' }, name);
      assert.deepEqual(await robots.check(`${servers[name]!.url}/public`), { allowed: true }, name);
    }
  });

  test('bytes labelled gzip that are none, nor text: unreachable, tried again, then disallow-all', async () => {
    let clock = 1_000_000;
    const robots = cache(() => clock);
    const url = `${servers.notGzip!.url}/public`;
    const reasons: (string | undefined)[] = [];
    for (let i = 0; i < 3; i++) {
      const verdict = await robots.check(url);
      reasons.push(verdict.reason);
      clock = verdict.retryAt ?? clock;
    }
    assert.deepEqual(reasons, ['robots-retry', 'robots-retry', 'robots-unavailable']);
  });
});

/** Crawls `robots`'s site; the captured URLs (paths) and the crawl log's entries (paths, outcome, message). */
async function crawl(robots: Buffer) {
  let result: { captured: string[]; log: { path: string; outcome: string; message: string | null }[] } | undefined;
  await withSiteCrawl('tm-robots-coding-', site(robots), { name: 'robots.txt coded' }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), robotsBackoff: { baseMs: 20, maxMs: 40 } });
    assert.equal(await engine.run(), 'finished');
    const path = (url: string) => url.slice(origin.length);
    const captured = (db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId) as string[]).map(path);
    const log = (db.prepare('SELECT url, outcome, message FROM CrawlLogEntry WHERE crawlId = ? ORDER BY id').all(crawlId) as { url: string; outcome: string; message: string | null }[])
      .map((e) => ({ path: path(e.url), outcome: e.outcome, message: e.message }));
    result = { captured, log };
  });
  return result!;
}

test('a crawl obeys a plain robots.txt labelled gzip, its crawl-log entry saying it was read as it came', { timeout: 60_000 }, async () => {
  const { captured, log } = await crawl(BODIES.plainLabelledGzip);
  assert.deepEqual(captured, ['/', '/public', '/robots.txt']);
  assert.deepEqual(log.find((e) => e.path === '/private'), { path: '/private', outcome: 'robots', message: 'disallowed by robots.txt' });
  assert.equal(log.find((e) => e.path === '/robots.txt')?.message,
    'robots.txt; Content-Encoding "gzip": corrupt data after 0 decoded bytes; its rules were read from the body as it came, which is plain text');
});

test('a crawl whose robots.txt is unreadable requests no page, its crawl-log entries saying why', { timeout: 60_000 }, async () => {
  const { captured, log } = await crawl(BODIES.notGzip);
  assert.deepEqual(captured, ['/robots.txt', '/robots.txt', '/robots.txt'], 'robots.txt at each of its three tries, and no page');
  const robotsEntries = log.filter((e) => e.path === '/robots.txt');
  assert.equal(robotsEntries.length, 3);
  for (const entry of robotsEntries) {
    assert.equal(entry.message, 'robots.txt; Content-Encoding "gzip": corrupt data after 0 decoded bytes, and the body as it came is no plain text: robots.txt is unreadable, taken as unreachable as a 5xx answer is');
  }
  assert.deepEqual(log.find((e) => e.path === '/')?.outcome, 'robots-unavailable');
});
