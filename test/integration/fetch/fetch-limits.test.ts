import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, readFile, readdir, rm, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createFetcher, decodeContentEncoding, DecompressionBombError, type FetchLimits } from '../../../worker/fetch';
import { sha1Digest } from '../../../worker/warc';
import { startBlackholeServer, startFixtureServer, startRawServer, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark-test/0.1 (+http://127.0.0.1/contact)';
const base: FetchLimits = { connectTimeoutMs: 250, headersTimeoutMs: 250, totalTimeoutMs: 600, maxBodyBytes: 2 * 1024 * 1024, maxRetries: 0 };
const backoff = { baseMs: 5, maxMs: 20 };
const MB = 1024 * 1024;
/** 5 MB that differ byte to byte, so a misplaced chunk changes the digest. */
const closingBody = Buffer.from(Array.from({ length: 5 * MB }, (_, i) => (i * 7919) % 251));

describe('fetcher: limits, timeouts and broken connections', () => {
  let server: FixtureServer;
  let raw: FixtureServer;
  let spoolDir: string;
  const fetcherWith = (limits: Partial<FetchLimits> = {}, memoryBodyLimit?: number) =>
    createFetcher({ userAgent: UA, limits: { ...base, ...limits }, spoolDir, backoff, ...(memoryBodyLimit ? { memoryBodyLimit } : {}) });

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-fetch-limits-'));
    // 1 GB of zeros as 16 gzip members of 64 MB each: ~1 MB on the wire, built in well under a second.
    const member = gzipSync(Buffer.alloc(64 * MB), { level: 9 });
    server = await startFixtureServer({
      '/huge': (_q, res) => {
        const size = 50 * MB;
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': size });
        const chunk = Buffer.alloc(64 * 1024, 0x61);
        let sent = 0;
        const pump = () => {
          while (sent < size && !res.destroyed) {
            sent += chunk.length;
            if (!res.write(chunk)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      },
      '/close-after-body': (_q, res) => {
        // As Python's http.server and other HTTP/1.0-style servers do: the body, then FIN.
        res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': closingBody.length, connection: 'close' });
        res.end(closingBody);
      },
      '/slow-body': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-length': 100_000 });
        res.write('<p>the first bytes arrive');
        const timer = setInterval(() => res.write('.'), 100); // trickles: never idle long, never done
        res.on('close', () => clearInterval(timer));
      },
      '/bomb': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip' });
        let n = 0;
        const pump = () => {
          while (n < 16 && !res.destroyed) {
            n++;
            if (!res.write(member)) return void res.once('drain', pump);
          }
          res.end();
        };
        pump();
      },
    });
    raw = await startRawServer((socket, head) => {
      const path = head.toString('latin1').split(' ')[1];
      if (path === '/silent') return; // accepts, reads the request, never answers
      if (path === '/reset-in-headers') {
        socket.write('HTTP/1.1 200 OK\r\nContent-Ty');
        return void setTimeout(() => socket.resetAndDestroy(), 20);
      }
      if (path === '/close-after-body') {
        // The whole body at once and then FIN, with no `Connection: close` to announce it.
        socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${closingBody.length}\r\n\r\n`);
        return void socket.end(closingBody);
      }
      if (path === '/cap-then-stall') {
        // Announces more than the cap, sends exactly the cap's worth, then nothing more.
        return void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5000\r\n\r\n' + 'c'.repeat(1000));
      }
      if (path === '/reset-in-body') {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\n' + 'b'.repeat(300));
        return void setTimeout(() => socket.resetAndDestroy(), 20);
      }
    });
  });
  after(async () => {
    await server.close();
    await raw.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  test('connect timeout: a port that never completes the handshake', async () => {
    const hole = await startBlackholeServer();
    const fetcher = fetcherWith({ maxRetries: 1 });
    try {
      const o = await fetcher.fetch(`${hole.url}/`);
      assert.equal(o.ok, false);
      assert.equal(!o.ok && o.reason, 'connect-timeout');
      assert.equal(o.retries, 1, 'connect timeouts are retried');
    } finally {
      await fetcher.close();
      await hole.close();
    }
  });

  test('headers timeout: the server accepts and never answers', async () => {
    const fetcher = fetcherWith();
    const o = await fetcher.fetch(`${raw.url}/silent`);
    await fetcher.close();
    assert.equal(o.ok, false);
    assert.equal(!o.ok && o.reason, 'headers-timeout');
    assert.equal(!o.ok && o.partial, undefined);
  });

  test('slow body: the total timeout keeps what arrived, truncated "time"', async () => {
    const fetcher = fetcherWith({ headersTimeoutMs: 1000 });
    const o = await fetcher.fetch(`${server.url}/slow-body`);
    await fetcher.close();
    assert.equal(o.ok, false);
    if (o.ok) return;
    assert.equal(o.reason, 'total-timeout');
    assert.equal(o.retries, 0, 'a spent total budget is not retried');
    assert.ok(o.partial);
    assert.equal(o.partial.truncated, 'time');
    assert.equal(o.partial.status, 200);
    const kept = o.partial.body.kind === 'memory' ? o.partial.body.bytes : Buffer.alloc(0);
    assert.ok(kept.toString().startsWith('<p>the first bytes arrive'), kept.toString());
    assert.equal(o.partial.payloadDigest, sha1Digest(kept));
  });

  test('50 MB response cut at a 2 MB cap, spooled to a file, digest of the stored bytes', async () => {
    const fetcher = fetcherWith({ totalTimeoutMs: 20_000, headersTimeoutMs: 5000 }, 256 * 1024);
    const heapBefore = process.memoryUsage().heapUsed;
    const o = await fetcher.fetch(`${server.url}/huge`);
    const heapGrowth = process.memoryUsage().heapUsed - heapBefore;
    await fetcher.close();
    assert.ok(o.ok, o.ok ? '' : o.message);
    const ex = o.exchange;
    assert.equal(ex.truncated, 'length');
    assert.equal(ex.body.kind, 'file');
    if (ex.body.kind !== 'file') return;
    assert.equal(ex.body.size, 2 * MB);
    assert.ok(ex.body.path.startsWith(spoolDir));
    const onDisk = await readFile(ex.body.path);
    assert.equal(onDisk.length, 2 * MB);
    assert.equal(ex.payloadDigest, sha1Digest(onDisk));
    assert.ok(heapGrowth < 40 * MB, `the body did not pile up in the heap (grew ${heapGrowth} bytes)`);
    assert.equal((await stat(ex.body.path)).size, 2 * MB);
  });

  test('a body announced past the cap is cut as soon as the cap is reached, not when the next byte comes', async () => {
    const fetcher = fetcherWith({ maxBodyBytes: 1000, headersTimeoutMs: 1000, totalTimeoutMs: 1500 });
    const o = await fetcher.fetch(`${raw.url}/cap-then-stall`);
    await fetcher.close();
    assert.ok(o.ok, o.ok ? '' : `${o.reason}: ${o.message}`);
    assert.equal(o.exchange.truncated, 'length');
    assert.equal(o.exchange.body.kind === 'memory' && o.exchange.body.bytes.toString(), 'c'.repeat(1000));
    assert.ok(o.durationMs < 1000, `${o.durationMs} ms: did not wait for the server`);
  });

  test('a body past the memory limit, then the server closes the connection: kept whole, spooled, digest right', async () => {
    // Waiting for the spool file's drain used to pause undici, which crashed the process when the
    // FIN arrived while paused (an assertion in undici 7's parser), or read the whole body as a reset.
    const fetcher = fetcherWith({ totalTimeoutMs: 20_000, headersTimeoutMs: 5000, maxBodyBytes: 10 * MB }, 256 * 1024);
    try {
      for (const url of [`${server.url}/close-after-body`, `${raw.url}/close-after-body`]) {
        const o = await fetcher.fetch(url);
        assert.ok(o.ok, `${url}: ${o.ok ? '' : o.message}`);
        assert.equal(o.exchange.truncated, null, url);
        assert.ok(o.exchange.body.kind === 'file', url);
        const onDisk = await readFile(o.exchange.body.path);
        assert.ok(onDisk.equals(closingBody), `${url}: ${onDisk.length} bytes stored`);
        assert.equal(o.exchange.payloadDigest, sha1Digest(closingBody));
        await rm(o.exchange.body.path);
      }
    } finally {
      await fetcher.close();
    }
  });

  test('gzip bomb: stored as received (compressed), decoding stops at the cap', async () => {
    const fetcher = fetcherWith({ totalTimeoutMs: 20_000, headersTimeoutMs: 5000, maxBodyBytes: 5 * MB }, 256 * 1024);
    const o = await fetcher.fetch(`${server.url}/bomb`);
    await fetcher.close();
    assert.ok(o.ok, o.ok ? '' : o.message);
    const ex = o.exchange;
    assert.equal(ex.truncated, null, 'the compressed bomb is small enough to store whole');
    await assert.rejects(decodeContentEncoding(ex.body, ex.headers['content-encoding'], 10 * MB), (err) => err instanceof DecompressionBombError && err.limitBytes === 10 * MB);
    const prefix = await decodeContentEncoding(ex.body, 'gzip', 1 * MB, 'truncate');
    assert.equal(prefix.length, 1 * MB);
    assert.ok(prefix.every((b) => b === 0));
  });

  test('connection reset mid-headers: retried, then a failure with nothing to archive', async () => {
    const fetcher = fetcherWith({ maxRetries: 2 });
    const before = raw.log.length;
    const o = await fetcher.fetch(`${raw.url}/reset-in-headers`);
    await fetcher.close();
    assert.equal(o.ok, false);
    assert.equal(!o.ok && o.reason, 'connection-reset');
    assert.equal(!o.ok && o.partial, undefined);
    assert.equal(o.retries, 2);
    assert.equal(raw.log.length - before, 3);
  });

  test('connection reset mid-body: the bytes read are kept, truncated "disconnect"', async () => {
    const fetcher = fetcherWith({ maxRetries: 1 });
    const o = await fetcher.fetch(`${raw.url}/reset-in-body`);
    await fetcher.close();
    assert.equal(o.ok, false);
    if (o.ok) return;
    assert.equal(o.reason, 'connection-reset');
    assert.equal(o.retries, 1);
    assert.ok(o.partial);
    assert.equal(o.partial.truncated, 'disconnect');
    assert.equal(o.partial.body.kind === 'memory' && o.partial.body.bytes.toString(), 'b'.repeat(300));
  });

  test('discarded attempts leave no spool files behind', async () => {
    const names = await readdir(spoolDir);
    // Only the 50 MB and bomb captures' files remain (the caller deletes those after writing WARC).
    assert.ok(names.length <= 2, names.join(', '));
  });
});
