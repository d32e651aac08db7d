import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createServer } from 'node:http';
import { createFetcher, type Fetcher, type FetchOutcome } from '../../../worker/fetch';
import { RobotsCache, type RobotsCacheOptions } from '../../../worker/robots';
import { freePort } from '../../support/free-port';
import { startBlackholeServer, startFixtureServer, startHangUpServer, startRawServer, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark/0.1 (+https://example.org/tidemark; web archiving crawler)';
const limits = { connectTimeoutMs: 500, headersTimeoutMs: 300, totalTimeoutMs: 1000, maxBodyBytes: 1024 * 1024, maxRetries: 0 };

const ROBOTS = `User-agent: *
Disallow: /

User-agent: Tidemark
Disallow: /private/
Allow: /private/open
Crawl-delay: 2.5

Sitemap: https://example.org/sitemap.xml
`;

describe('robots cache against real servers', () => {
  let spoolDir: string;
  let fetcher: Fetcher;
  let rules: FixtureServer;
  let missing: FixtureServer;
  let failing: FixtureServer;
  let redirecting: FixtureServer;
  let looping: FixtureServer;
  let silent: FixtureServer;
  let fetched: string[];
  let clock: number;

  const cache = (extra: Partial<RobotsCacheOptions> = {}) =>
    new RobotsCache({
      userAgent: UA,
      enabled: true,
      ignoreFor: [],
      fetchRobots: (url) => (fetched.push(url), fetcher.fetch(url)),
      now: () => clock,
      random: () => 0.5,
      backoff: { baseMs: 1000, maxMs: 10_000 },
      ...extra,
    });

  /** The 5xx path: a retry after a backoff, another, then disallow-all after the third try. */
  const threeTriesThenUnavailable = async (robots: RobotsCache, url: string) => {
    clock = (await robots.check(url)).retryAt!;
    const second = await robots.check(url);
    assert.equal(second.reason, 'robots-retry');
    clock = second.retryAt!;
    assert.deepEqual(await robots.check(url), { allowed: false, reason: 'robots-unavailable' });
    assert.equal(fetched.length, 3);
  };

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-robots-'));
    fetcher = createFetcher({ userAgent: UA, limits, spoolDir });
    const gz = gzipSync(ROBOTS);
    rules = await startFixtureServer({
      '/robots.txt': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' }).end(gz),
    });
    missing = await startFixtureServer({});
    failing = await startFixtureServer({ '/robots.txt': (_q, res) => res.writeHead(500).end('down') });
    redirecting = await startFixtureServer({
      '/robots.txt': (_q, res) => res.writeHead(301, { location: '/hop1' }).end(),
      '/hop1': (_q, res) => res.writeHead(302, { location: `${rules.url}/robots.txt` }).end(), // cross-origin, as RFC 9309 allows
    });
    looping = await startFixtureServer({
      '/robots.txt': (_q, res) => res.writeHead(301, { location: '/a' }).end(),
      '/a': (_q, res) => res.writeHead(301, { location: '/b' }).end(),
      '/b': (_q, res) => res.writeHead(301, { location: '/a' }).end(),
    });
    silent = await startRawServer(() => undefined);
  });
  after(async () => {
    await fetcher.close();
    for (const s of [rules, missing, failing, redirecting, looping, silent]) await s.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  test('200: our group applies (gzip-encoded file), crawl-delay in ms, sitemaps exposed, fetched once', async () => {
    fetched = [];
    clock = 0;
    const sitemaps: string[][] = [];
    const robots = cache({ onSitemaps: (_origin, urls) => sitemaps.push(urls) });
    const verdicts = await Promise.all([
      robots.check(`${rules.url}/`),
      robots.check(`${rules.url}/private/secret`),
      robots.check(`${rules.url}/private/open/page`),
    ]);
    assert.deepEqual(verdicts.map((v) => v.allowed), [true, false, true]);
    assert.equal(verdicts[1]!.reason, 'robots-disallowed');
    assert.ok(verdicts.every((v) => v.crawlDelayMs === 2500));
    assert.deepEqual(fetched, [`${rules.url}/robots.txt`], 'one fetch for concurrent checks');
    assert.deepEqual(sitemaps, [['https://example.org/sitemap.xml']]);
    assert.deepEqual(robots.sitemapsFor(`${rules.url}/x`), ['https://example.org/sitemap.xml']);
    await robots.check(`${rules.url}/again`);
    assert.equal(fetched.length, 1);
  });

  test('404: everything allowed', async () => {
    fetched = [];
    const robots = cache();
    assert.deepEqual(await robots.check(`${missing.url}/anything`), { allowed: true });
    assert.equal(fetched.length, 1);
  });

  test('500: the host waits and robots.txt is retried with backoff, then disallow-all', async () => {
    fetched = [];
    clock = 1_000_000;
    const robots = cache({ maxAttempts: 3 });
    const first = await robots.check(`${failing.url}/page`);
    assert.equal(first.allowed, false);
    assert.equal(first.reason, 'robots-retry');
    assert.equal(first.retryAt, clock + 750); // 1 s nominal, equal jitter at random 0.5
    assert.equal((await robots.check(`${failing.url}/other`)).retryAt, first.retryAt, 'no refetch before retryAt');
    assert.equal(fetched.length, 1);
    clock = first.retryAt!;
    const second = await robots.check(`${failing.url}/page`);
    assert.equal(second.reason, 'robots-retry');
    assert.equal(second.retryAt, clock + 1500, 'the wait doubles');
    clock = second.retryAt!;
    const third = await robots.check(`${failing.url}/page`);
    assert.deepEqual(third, { allowed: false, reason: 'robots-unavailable' });
    assert.equal(fetched.length, 3);
  });

  test('a fetch cut off by a pause or stop is no try: the origin stays as it was and is asked again at the next check', async () => {
    fetched = [];
    clock = 1_000_000;
    let cut = false;
    const interrupted: FetchOutcome = { ok: false, reason: 'interrupted', message: 'the crawl is pausing or stopping', durationMs: 0, retries: 0 };
    const robots = cache({ maxAttempts: 3, fetchRobots: (url) => (fetched.push(url), cut ? Promise.resolve(interrupted) : fetcher.fetch(url)) });
    // Two real failures: one more would make the origin disallow-all.
    clock = (await robots.check(`${failing.url}/page`)).retryAt!;
    clock = (await robots.check(`${failing.url}/page`)).retryAt!;
    cut = true;
    for (let i = 0; i < 3; i++) {
      assert.deepEqual(await robots.check(`${failing.url}/page`), { allowed: false, reason: 'robots-retry', retryAt: clock }, `cut-off fetch ${i + 1}: ask again at once`);
    }
    cut = false;
    assert.deepEqual(await robots.check(`${failing.url}/page`), { allowed: false, reason: 'robots-unavailable' }, 'the third real failure is the one that counts');
    assert.equal(fetched.length, 6);

    // A refresh cut off: nothing is decided from it (the rules are not kept for another hour), the next check reads robots.txt.
    fetched = [];
    assert.equal((await robots.check(`${rules.url}/private/secret`)).reason, 'robots-disallowed');
    clock += 86_400_000;
    cut = true;
    assert.deepEqual(await robots.check(`${rules.url}/private/secret`), { allowed: false, reason: 'robots-retry', retryAt: clock });
    cut = false;
    assert.equal((await robots.check(`${rules.url}/private/secret`)).reason, 'robots-disallowed');
    assert.equal(fetched.length, 3, 'read, cut off, read again');
  });

  test('a redirect hop refused because its wait would close a cycle (reason internal) counts as a try', async () => {
    fetched = [];
    clock = 1_000_000;
    const refused: FetchOutcome = { ok: false, reason: 'internal', message: 'robots.txt redirects to a host whose key is held by a request waiting for ours', durationMs: 0, retries: 0 };
    const robots = cache({ maxAttempts: 2, fetchRobots: async (url) => (fetched.push(url), refused) });
    const first = await robots.check(`${rules.url}/page`);
    assert.equal(first.reason, 'robots-retry');
    clock = first.retryAt!;
    assert.deepEqual(await robots.check(`${rules.url}/page`), { allowed: false, reason: 'robots-unavailable' });
  });

  test('headers timeout (a server that accepts and never answers): one later try, then the URLs fail with headers-timeout for ten minutes', async () => {
    fetched = [];
    clock = 1_000_000;
    const robots = cache({ maxAttempts: 3 });
    const first = await robots.check(`${silent.url}/page`);
    assert.deepEqual(first, { allowed: false, reason: 'robots-retry', retryAt: clock + 750 }, 'waits and tries again, as for a 5xx');
    clock = first.retryAt!;
    const verdicts = await Promise.all([robots.check(`${silent.url}/page`), robots.check(`${silent.url}/other`)]);
    for (const v of verdicts) {
      assert.deepEqual(v, { allowed: false, reason: 'host-unreachable', failure: { reason: 'headers-timeout', message: 'headers timeout after 300 ms', silentTries: 2 } });
    }
    assert.equal(fetched.length, 2, 'two tries, not three');
    clock += 599_999;
    assert.equal((await robots.check(`${silent.url}/later`)).reason, 'host-unreachable');
    assert.equal(fetched.length, 2, 'the answer is kept ten minutes');
  });

  for (const how of ['close', 'reset'] as const) {
    test(`a server that accepts and hangs up at once (${how === 'close' ? 'FIN' : 'RST'}), not a byte sent: as silence, one later try, then the URLs fail with connection-reset`, async () => {
      const hangUp = await startHangUpServer(how);
      try {
        fetched = [];
        clock = 1_000_000;
        const robots = cache({ maxAttempts: 3 });
        const first = await robots.check(`${hangUp.url}/page`);
        assert.deepEqual(first, { allowed: false, reason: 'robots-retry', retryAt: clock + 750 });
        clock = first.retryAt!;
        const second = await robots.check(`${hangUp.url}/page`);
        assert.equal(second.reason, 'host-unreachable', 'settled after two tries, not left for a third');
        assert.equal(second.failure?.reason, 'connection-reset');
        assert.equal(second.failure?.silentTries, 2);
        assert.match(second.failure?.message ?? '', how === 'close' ? /other side closed/ : /ECONNRESET/);
        assert.equal(fetched.length, 2);
        assert.ok(hangUp.log.length >= 2, 'the server accepted each try');
      } finally {
        await hangUp.close();
      }
    });
  }

  test('a server that sends part of a status line and hangs up: bytes arrived, the tries and backoffs of a 5xx', async () => {
    const halfHead = await startRawServer((socket) => void socket.end('HTTP/1.1 200 OK\r\nContent-'));
    try {
      fetched = [];
      clock = 1_000_000;
      await threeTriesThenUnavailable(cache({ maxAttempts: 3 }), `${halfHead.url}/page`);
    } finally {
      await halfHead.close();
    }
  });

  test('a server answering 5xx once, then silent: tries and backoffs of a 5xx (the silent rule needs every try silent)', async () => {
    fetched = [];
    clock = 1_000_000;
    let n = 0;
    const robots = cache({ maxAttempts: 3, fetchRobots: (url) => (fetched.push(url), fetcher.fetch(n++ === 0 ? `${failing.url}/robots.txt` : url)) });
    await threeTriesThenUnavailable(robots, `${silent.url}/page`);
  });

  test('redirects are followed (each hop fetched through fetchRobots) and rules apply to the first origin', async () => {
    fetched = [];
    const origins: string[] = [];
    // Each hop is told whose robots.txt it is: the crawler's politeness for a hop that leaves the host.
    const robots = cache({ fetchRobots: (url, origin) => (fetched.push(url), origins.push(origin), fetcher.fetch(url)) });
    assert.equal((await robots.check(`${redirecting.url}/private/x`)).allowed, false);
    assert.equal((await robots.check(`${redirecting.url}/public`)).allowed, true);
    assert.deepEqual(fetched, [`${redirecting.url}/robots.txt`, `${redirecting.url}/hop1`, `${rules.url}/robots.txt`]);
    assert.deepEqual(origins, [redirecting.url, redirecting.url, redirecting.url]);
  });

  test('more than five redirects: robots.txt is unavailable, everything allowed', async () => {
    fetched = [];
    const robots = cache();
    assert.deepEqual(await robots.check(`${looping.url}/x`), { allowed: true });
    assert.equal(fetched.length, 6, 'the first fetch and five redirects');
  });

  test('override prefixes and robots off: allowed without fetching', async () => {
    fetched = [];
    const robots = cache({ ignoreFor: [`${rules.url}/private/`] });
    assert.deepEqual(await robots.check(`${rules.url}/private/secret`), { allowed: true, reason: 'robots-ignored' });
    assert.equal(fetched.length, 0);
    assert.equal((await robots.check(`${rules.url}/privately`)).allowed, true);
    const otherSpelling = await robots.check(`${rules.url.replace('127.0.0.1', 'localhost')}/private/secret`);
    assert.equal(otherSpelling.reason, 'robots-disallowed', 'the prefix is exact: another spelling of the host still obeys');
    const off = cache({ enabled: false });
    assert.deepEqual(await off.check(`${failing.url}/x`), { allowed: true, reason: 'robots-off' });
    assert.equal(fetched.length, 2, 'robots.txt of the two spellings; none for the override or with robots off');
  });
  test('a day later robots.txt is fetched again and its new rules apply; a refresh that fails keeps the rules read before', async () => {
    let body = 'User-agent: *\nDisallow: /old/\n';
    let down = false;
    const changing = await startFixtureServer({
      '/robots.txt': (_q, res) => (down ? res.writeHead(503).end('busy') : res.writeHead(200, { 'content-type': 'text/plain' }).end(body)),
    });
    try {
      fetched = [];
      clock = 0;
      const robots = cache();
      assert.equal((await robots.check(`${changing.url}/new/page`)).allowed, true);
      body = 'User-agent: *\nDisallow: /new/\n';
      clock = 23 * 3_600_000;
      assert.equal((await robots.check(`${changing.url}/new/page`)).allowed, true, 'within the day, the answer read before');
      assert.equal(fetched.length, 1);
      clock = 24 * 3_600_000;
      assert.equal((await robots.check(`${changing.url}/new/page`)).allowed, false, 'a day on, robots.txt read again (RFC 9309 §2.4)');
      assert.equal(fetched.length, 2);
      down = true;
      clock = 48 * 3_600_000;
      const during = await robots.check(`${changing.url}/new/page`);
      assert.deepEqual([during.allowed, during.reason, during.retryAt], [false, 'robots-disallowed', undefined], 'the rules read before still apply; the pages do not wait');
      assert.equal((await robots.check(`${changing.url}/old/page`)).allowed, true);
      assert.equal(fetched.length, 3, 'one failed refresh, not one per check');
      down = false;
      body = 'User-agent: *\nDisallow:\n';
      clock += 3_600_000;
      assert.equal((await robots.check(`${changing.url}/new/page`)).allowed, true, 'tried again an hour later');
      assert.equal(fetched.length, 4);
    } finally {
      await changing.close();
    }
  });

  test('no connection (a closed port): the URLs fail with the reason at once, not after a backoff; robots.txt is tried again ten minutes later', async () => {
    const port = await freePort();
    const origin = `http://127.0.0.1:${port}`;
    fetched = [];
    clock = 1_000_000;
    const robots = cache({ maxAttempts: 3 });
    const verdicts = await Promise.all([robots.check(`${origin}/`), robots.check(`${origin}/other`)]);
    for (const v of verdicts) {
      assert.equal(v.allowed, false);
      assert.equal(v.reason, 'host-unreachable');
      assert.equal(v.retryAt, undefined, 'no wait for a retry');
      assert.equal(v.failure?.reason, 'connect-refused');
      assert.match(v.failure?.message ?? '', /ECONNREFUSED/);
    }
    assert.deepEqual(fetched, [`${origin}/robots.txt`], 'one fetch (its own retries inside) for concurrent checks');
    clock += 599_999;
    assert.equal((await robots.check(`${origin}/later`)).reason, 'host-unreachable');
    assert.equal(fetched.length, 1, 'the answer is kept ten minutes');
    // The server is back: ten minutes on, robots.txt is read and its rules apply.
    const back = createServer((req, res) => void (req.url === '/robots.txt' ? res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n') : res.writeHead(404).end()));
    await new Promise<void>((resolve) => back.listen(port, '127.0.0.1', resolve));
    try {
      clock += 1;
      assert.deepEqual(await robots.check(`${origin}/page`), { allowed: true });
      assert.equal((await robots.check(`${origin}/private/x`)).reason, 'robots-disallowed');
      assert.equal(fetched.length, 2);
    } finally {
      back.closeAllConnections();
      await new Promise<void>((resolve) => back.close(() => resolve()));
    }
  });

  test('connect timeout (a port whose handshake never completes, as behind a firewall dropping packets): no connection, the URLs fail with connect-timeout at once', async () => {
    const hole = await startBlackholeServer();
    try {
      fetched = [];
      clock = 1_000_000;
      const robots = cache({ maxAttempts: 3 });
      const verdicts = await Promise.all([robots.check(`${hole.url}/`), robots.check(`${hole.url}/other`)]);
      for (const v of verdicts) {
        assert.deepEqual([v.allowed, v.reason, v.retryAt], [false, 'host-unreachable', undefined], 'no wait for a retry');
        assert.deepEqual(v.failure, { reason: 'connect-timeout', message: 'connect timeout after 500 ms' });
      }
      assert.equal((await robots.check(`${hole.url}/later`)).reason, 'host-unreachable');
      assert.deepEqual(fetched, [`${hole.url}/robots.txt`], 'one fetch: the answer is kept');
    } finally {
      await hole.close();
    }
  });

  test('no connection on a refresh keeps the rules read before; a redirect to a closed port is unreachable robots.txt, tried again with backoff', async () => {
    fetched = [];
    clock = 0;
    let refuse = false;
    const refused: FetchOutcome = { ok: false, reason: 'connect-refused', message: 'connect ECONNREFUSED', durationMs: 0, retries: 2 };
    const robots = cache({ fetchRobots: (url) => (fetched.push(url), refuse ? Promise.resolve(refused) : fetcher.fetch(url)) });
    assert.equal((await robots.check(`${rules.url}/private/secret`)).reason, 'robots-disallowed');
    refuse = true;
    clock = 86_400_000;
    assert.equal((await robots.check(`${rules.url}/private/secret`)).reason, 'robots-disallowed', 'the rules read before still apply');
    assert.deepEqual(await robots.check(`${rules.url}/page`), { allowed: true, crawlDelayMs: 2500 });
    assert.equal(fetched.length, 2);

    const closed = `http://127.0.0.1:${await freePort()}/robots.txt`;
    const away = await startFixtureServer({ '/robots.txt': (_q, res) => res.writeHead(301, { location: closed }).end() });
    try {
      fetched = [];
      clock = 1_000_000;
      const first = await cache().check(`${away.url}/page`);
      assert.deepEqual([first.reason, first.retryAt, first.failure], ['robots-retry', clock + 750, undefined], 'the origin answered: its robots.txt is unreachable, not the origin');
      assert.deepEqual(fetched, [`${away.url}/robots.txt`, closed]);
    } finally {
      await away.close();
    }
  });
});

