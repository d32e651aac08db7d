import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createDnsCache, createFetcher } from '../../../worker/fetch';
import { startFixtureServer, testTlsCredentials, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark-test/0.1 (+http://127.0.0.1/contact)';
const limits = { connectTimeoutMs: 1000, headersTimeoutMs: 1000, totalTimeoutMs: 3000, maxBodyBytes: 1024 * 1024, maxRetries: 1 };

describe('fetcher: HTTPS to a resolved IP with the right SNI', () => {
  let server: FixtureServer;
  let spoolDir: string;
  // The name resolves to loopback through an injected lookup; the certificate names it.
  const dns = createDnsCache({ lookup: async () => '127.0.0.1' });

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-fetch-tls-'));
    server = await startFixtureServer({ '/': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain' }).end('secure') }, { tls: testTlsCredentials() });
  });
  after(async () => {
    await server.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  test('certificates are verified by default: self-signed fails as tls, not retried', async () => {
    const fetcher = createFetcher({ userAgent: UA, limits, spoolDir, dns });
    const o = await fetcher.fetch(`https://tidemark-tls.test:${server.port}/`);
    await fetcher.close();
    assert.equal(o.ok, false);
    assert.equal(!o.ok && o.reason, 'tls');
    assert.equal(o.retries, 0);
  });

  test('with verification off: connects to the IP, sends the host name as SNI and Host', async () => {
    const fetcher = createFetcher({ userAgent: UA, limits, spoolDir, dns, rejectUnauthorized: false });
    const o = await fetcher.fetch(`https://tidemark-tls.test:${server.port}/`, { ip: '127.0.0.1' });
    await fetcher.close();
    assert.ok(o.ok, o.ok ? '' : o.message);
    assert.equal(o.exchange.ip, '127.0.0.1');
    assert.equal(o.exchange.body.kind === 'memory' && o.exchange.body.bytes.toString(), 'secure');
    const seen = server.log.at(-1)!;
    assert.equal(seen.sni, 'tidemark-tls.test');
    assert.equal(seen.headers['host'], `tidemark-tls.test:${server.port}`);
    assert.match(o.exchange.requestHead.toString(), new RegExp(`^GET / HTTP/1\\.1\\r\\nhost: tidemark-tls\\.test:${server.port}\\r\\n`));
  });
});
