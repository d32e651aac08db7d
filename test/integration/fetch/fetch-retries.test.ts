import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFetcher, createDnsCache, type Fetcher } from '../../../worker/fetch';
import { startFixtureServer, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark-test/0.1 (+http://127.0.0.1/contact)';
const limits = { connectTimeoutMs: 500, headersTimeoutMs: 500, totalTimeoutMs: 2000, maxBodyBytes: 1024 * 1024, maxRetries: 2 };

describe('fetcher: retries', () => {
  let server: FixtureServer;
  let fetcher: Fetcher;
  let spoolDir: string;
  const hits = (path: string) => server.log.filter((r) => r.path === path).length;

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-fetch-retries-'));
    server = await startFixtureServer({
      '/flaky': (_q, res, n) => (n === 1 ? res.writeHead(503, { 'retry-after': '0' }).end('busy') : res.writeHead(200).end('fine now')),
      // Bodies larger than the memory limit, so each attempt spools a file.
      '/broken': (_q, res) => res.writeHead(500, { 'content-type': 'text/plain' }).end('x'.repeat(8 * 1024)),
      '/busy': (_q, res, n) => (n === 1 ? res.writeHead(429, { 'retry-after': '0' }).end('slow down') : res.writeHead(200).end('fine now')),
      '/always-busy': (_q, res) => res.writeHead(429, { 'content-type': 'text/plain' }).end('slow down'),
      '/missing': (_q, res) => res.writeHead(404).end('no'),
      '/forbidden': (_q, res) => res.writeHead(403).end('no'),
    });
    fetcher = createFetcher({ userAgent: UA, limits, spoolDir, memoryBodyLimit: 1024, backoff: { baseMs: 5, maxMs: 20 } });
  });
  after(async () => {
    await fetcher.close();
    await server.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  test('503 then 200: retried, the 200 is the exchange', async () => {
    const o = await fetcher.fetch(`${server.url}/flaky`);
    assert.ok(o.ok);
    assert.equal(o.exchange.status, 200);
    assert.equal(o.retries, 1);
    assert.equal(hits('/flaky'), 2);
  });

  test('500 forever: retried maxRetries times, the last 500 is returned for archiving', async () => {
    const o = await fetcher.fetch(`${server.url}/broken`);
    assert.equal(o.ok, false);
    if (o.ok) return;
    assert.equal(o.reason, 'http-5xx');
    assert.equal(o.retries, 2);
    assert.equal(hits('/broken'), 3);
    assert.ok(o.partial);
    assert.equal(o.partial.status, 500);
    assert.equal(o.partial.body.kind, 'file');
    const files = await readdir(spoolDir);
    assert.deepEqual(files, [o.partial.body.kind === 'file' ? o.partial.body.path.split('/').pop() : ''], 'earlier attempts left no files');
  });

  // A 429 was kept as the page's capture at once: the page itself was never archived.
  test('429 then 200: retried as a 5xx is, the 200 is the exchange', async () => {
    const o = await fetcher.fetch(`${server.url}/busy`);
    assert.ok(o.ok);
    assert.equal(o.exchange.status, 200);
    assert.equal(o.retries, 1);
    assert.equal(hits('/busy'), 2);
  });

  test('429 forever: retried maxRetries times, then the last 429 is the answer, kept', async () => {
    const o = await fetcher.fetch(`${server.url}/always-busy`);
    assert.ok(o.ok);
    assert.equal(o.exchange.status, 429);
    assert.equal(o.retries, 2);
    assert.equal(hits('/always-busy'), 3);
  });

  test('other 4xx are never retried', async () => {
    for (const path of ['/missing', '/forbidden']) {
      const o = await fetcher.fetch(`${server.url}${path}`);
      assert.ok(o.ok);
      assert.equal(o.retries, 0);
      assert.equal(hits(path), 1);
    }
  });

  test('connection refused: retried, then connect-refused', async () => {
    const gone = await startFixtureServer({});
    const url = `${gone.url}/`;
    await gone.close();
    const o = await fetcher.fetch(url);
    assert.equal(o.ok, false);
    assert.equal(!o.ok && o.reason, 'connect-refused');
    assert.equal(o.retries, 2);
  });

  test('without an ip the fetcher resolves the host through its DNS cache', async () => {
    const looked: string[] = [];
    const dns = createDnsCache({ lookup: async (host) => (looked.push(host), '127.0.0.1') });
    const named = createFetcher({ userAgent: UA, limits, spoolDir, dns });
    try {
      const o = await named.fetch(`http://tidemark-fixture.test:${server.port}/missing`);
      assert.ok(o.ok);
      assert.equal(o.exchange.ip, '127.0.0.1');
      assert.equal(o.exchange.url, `http://tidemark-fixture.test:${server.port}/missing`);
      assert.equal(server.log.at(-1)!.headers['host'], `tidemark-fixture.test:${server.port}`, 'Host is the name, the connection is the IP');
      const failing = createFetcher({ userAgent: UA, limits, spoolDir, dns: createDnsCache({ lookup: async () => Promise.reject(new Error('NXDOMAIN')) }) });
      const bad = await failing.fetch('http://nowhere.test/');
      await failing.close();
      assert.equal(!bad.ok && bad.reason, 'dns');
      assert.deepEqual(looked, ['tidemark-fixture.test']);
    } finally {
      await named.close();
    }
  });
});
