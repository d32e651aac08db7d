/**
 * DNS rebinding: the address guard judges the address the fetcher connects to, not the URL's
 * host name. A name resolving (here through an injected lookup) to 0.0.0.0, which reaches the
 * crawler's own host, is refused with nothing sent, whether the fetcher resolved it or was given
 * the address; a crawl allowed private addresses fetches it, from the loopback server that answers.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAddressGuard, createDnsCache, createFetcher } from '../../../worker/fetch';
import { startFixtureServer, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark-test/0.1 (+http://127.0.0.1/contact)';
const limits = { connectTimeoutMs: 1000, headersTimeoutMs: 1000, totalTimeoutMs: 3000, maxBodyBytes: 1024 * 1024, maxRetries: 1 };
const NAMES: Record<string, string> = { 'seed.test': '127.0.0.1', 'rebound.test': '0.0.0.0', 'loopback.test': '127.0.0.1' };
const dns = createDnsCache({ lookup: async (host) => NAMES[host] ?? Promise.reject(new Error(`ENOTFOUND ${host}`)) });

let server: FixtureServer;
let spoolDir: string;
const requested: string[] = [];
before(async () => {
  spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-fetch-guard-'));
  server = await startFixtureServer({ '/secret': (req, res) => (requested.push(req.headers.host ?? ''), res.writeHead(200, { 'content-type': 'text/plain' }).end('secret')) });
});
after(async () => {
  await server.close();
  await rm(spoolDir, { recursive: true, force: true });
});

const guardedFetcher = (allowPrivateAddresses: boolean) =>
  createFetcher({ userAgent: UA, limits, spoolDir, dns, addressGuard: createAddressGuard({ allowPrivateAddresses, seedHosts: ['seed.test'], resolve: (h) => dns.resolveHost(h) }) });

test('a name that resolves to 0.0.0.0 is refused as private-address, nothing sent; another loopback name, the seed\'s kind, is fetched', async () => {
  const fetcher = guardedFetcher(false);
  try {
    for (const opts of [{}, { ip: '0.0.0.0' }]) {
      const refused = await fetcher.fetch(`http://rebound.test:${server.port}/secret`, opts);
      assert.equal(refused.ok, false);
      assert.equal(!refused.ok && refused.reason, 'private-address');
      assert.match(!refused.ok ? refused.message : '', /^0\.0\.0\.0 is an unspecified address .*scope\.allowPrivateAddresses: true allows it\)$/);
    }
    assert.deepEqual(requested, []);
    const same = await fetcher.fetch(`http://loopback.test:${server.port}/secret`);
    assert.equal(same.ok && same.exchange.status, 200);
  } finally {
    await fetcher.close();
  }
});

test('with allowPrivateAddresses the same name is fetched', async () => {
  requested.length = 0;
  const fetcher = guardedFetcher(true);
  try {
    const o = await fetcher.fetch(`http://rebound.test:${server.port}/secret`);
    assert.equal(o.ok && o.exchange.status, 200);
    assert.deepEqual(requested, [`rebound.test:${server.port}`]);
  } finally {
    await fetcher.close();
  }
});
