import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createCookieJar, createFetcher, releaseBody, type CrawlCookieJar, type Fetcher } from '../../../worker/fetch';
import { startFixtureServer, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark-test/0.1 (+http://127.0.0.1/contact)';
const limits = { connectTimeoutMs: 500, headersTimeoutMs: 500, totalTimeoutMs: 2000, maxBodyBytes: 1024 * 1024, maxRetries: 2 };

describe('fetcher: cookies', () => {
  let server: FixtureServer;
  let fetcher: Fetcher;
  let jar: CrawlCookieJar;
  let spoolDir: string;
  const cookiesSent = (path: string) => server.log.filter((r) => r.path === path).map((r) => r.headers.cookie);

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-fetch-cookies-'));
    server = await startFixtureServer({
      // The first attempt's 503 sets a session cookie the retry must send.
      '/busy': (_q, res, n) =>
        n === 1 ? res.writeHead(503, { 'retry-after': '0', 'set-cookie': ['session=s1; Path=/', 'lb=node2; Path=/busy'] }).end('busy') : res.writeHead(200).end('fine'),
      '/other': (_q, res) => res.writeHead(200, { 'set-cookie': 'broken' }).end('ok'),
    });
    jar = createCookieJar();
    fetcher = createFetcher({ userAgent: UA, limits, spoolDir, backoff: { baseMs: 5, maxMs: 20 }, cookieJar: jar });
  });
  after(async () => {
    await fetcher.close();
    await server.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  test('a cookie set by a 503 goes with the retry, and the archived request head shows it', async () => {
    const o = await fetcher.fetch(`${server.url}/busy`);
    assert.ok(o.ok);
    assert.equal(o.retries, 1);
    assert.deepEqual(cookiesSent('/busy'), [undefined, 'lb=node2; session=s1']);
    const head = o.exchange.requestHead.toString('latin1');
    assert.match(head, /\r\nCookie: lb=node2; session=s1\r\n\r\n$/);
    await releaseBody(o.exchange.body);
  });

  test('the next request to the site sends the cookies its path matches; a malformed Set-Cookie changes nothing', async () => {
    const o = await fetcher.fetch(`${server.url}/other`);
    assert.ok(o.ok);
    assert.deepEqual(cookiesSent('/other'), ['session=s1']);
    assert.equal(jar.size(), 2);
    await releaseBody(o.exchange.body);
  });
});
