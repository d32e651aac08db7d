import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { createFetcher, decodeContentEncoding, type Fetcher, type FetchOutcome } from '../../../worker/fetch';
import { sha1Digest } from '../../../worker/warc';
import { startFixtureServer, startRawServer, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark-test/0.1 (+http://127.0.0.1/contact)';
const limits = { connectTimeoutMs: 1000, headersTimeoutMs: 1000, totalTimeoutMs: 3000, maxBodyBytes: 5 * 1024 * 1024, maxRetries: 0 };

function exchangeOf(o: FetchOutcome) {
  assert.ok(o.ok, `fetch failed: ${o.ok ? '' : `${o.reason} ${o.message}`}`);
  return o.exchange;
}
const bodyBytes = (o: FetchOutcome) => {
  const ex = exchangeOf(o);
  assert.equal(ex.body.kind, 'memory');
  return ex.body.kind === 'memory' ? ex.body.bytes : Buffer.alloc(0);
};

const EARLY_HINTS = 'HTTP/1.1 103 Early Hints\r\nLink: </s.css>; rel=preload\r\n\r\n';
const LATIN1_HEAD = 'HTTP/1.1 200 Tr\xe9s bien\r\nX-Value: caf\xe9\r\nContent-Length: 2\r\n\r\n';
const UTF8_HEAD = 'HTTP/1.1 200 Très bien\r\nContent-Length: 2\r\n\r\n';

describe('fetcher: exchanges as received', () => {
  let server: FixtureServer;
  let raw: FixtureServer;
  let fetcher: Fetcher;
  let spoolDir: string;
  const page = Buffer.from('<html><body><a href="/x">x</a></body></html>');
  const gz = gzipSync(Buffer.from('compressed '.repeat(100)));

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-fetch-'));
    server = await startFixtureServer({
      '/plain': (_q, res) => res.writeHead(200, 'Fine Thanks', { 'Content-Type': 'text/html', 'X-Order': 'first', 'Content-Length': page.length }).end(page),
      '/chunked': (_q, res) => {
        res.writeHead(200, { 'content-type': 'text/plain' }); // no length: node chunks it
        res.write('part one, ');
        setTimeout(() => res.end('part two'), 20);
      },
      '/gzip': (_q, res) => res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip', 'content-length': gz.length }).end(gz),
      '/moved': (_q, res) => res.writeHead(301, { location: '/plain' }).end(),
      '/found': (_q, res) => res.writeHead(302, { location: 'http://elsewhere.invalid/' }).end(),
      '/etag': (req, res) => {
        if (req.headers['if-none-match'] === '"v1"') return void res.writeHead(304, { etag: '"v1"' }).end();
        res.writeHead(200, { etag: '"v1"', 'last-modified': 'Wed, 01 Jan 2025 00:00:00 GMT' }).end('versioned');
      },
      '/abc': (_q, res) => res.writeHead(200).end('abc'),
      '/cookies': (_q, res) => {
        res.setHeader('Set-Cookie', ['a=1; Path=/', 'b=2, with comma']);
        res.writeHead(200).end('ok');
      },
    });
    raw = await startRawServer((socket, _head, n) => {
      const path = _head.toString('latin1').split(' ')[1];
      if (path === '/short-length') return void socket.end('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nConnection: close\r\n\r\nhello, and more bytes than announced');
      if (path === '/no-length') return void socket.end('HTTP/1.1 200 OK\r\nConnection: close\r\n\r\nread until the connection closes');
      if (path === '/long-length') {
        socket.write('HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nonly forty bytes of the promised thousand');
        return void setTimeout(() => socket.destroy(), 20);
      }
      if (path === '/bad-chunk') return void socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\nbroken\r\n0\r\n\r\n');
      if (path === '/big-headers') {
        // 40 cookies of 500 bytes: 20 KB of header lines, past undici's 16 KB default, far within a browser's.
        const cookies = Array.from({ length: 40 }, (_, i) => `Set-Cookie: c${i}=${'v'.repeat(500)}\r\n`).join('');
        return void socket.write(`HTTP/1.1 200 OK\r\n${cookies}Content-Length: 2\r\n\r\nok`);
      }
      if (path === '/continue') return void socket.write('HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok');
      // RFC 9110 §8.6 lets a 304 announce the length of the representation it stands for; a 204 may
      // not, yet RFC 9112 §6.3 ends both at the empty line after the head, whatever they announce.
      if (path === '/304-with-length') return void socket.write('HTTP/1.1 304 Not Modified\r\nETag: "v1"\r\nContent-Length: 1234\r\n\r\n');
      if (path === '/204-with-length') return void socket.write('HTTP/1.1 204 No Content\r\nContent-Length: 10\r\n\r\n');
      if (path === '/status-999') return void socket.write('HTTP/1.1 999 Request denied\r\nContent-Length: 6\r\n\r\ndenied');
      if (path === '/two-lengths') return void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 5\r\nContent-Length: 7\r\n\r\nabcdefg');
      if (path === '/same-length-twice') return void socket.write('HTTP/1.1 200 OK\r\nContent-Length: 2\r\nContent-Length: 2\r\n\r\nok');
      // Three digits below 100: no HTTP status, though the parser reads it.
      if (path === '/status-099') return void socket.write('HTTP/1.1 099 Below\r\nContent-Length: 2\r\n\r\nok');
      // A reason phrase and a header value in ISO-8859-1 (obs-text, RFC 9112 §4 and §5.5), after an interim 103 too; one in UTF-8.
      if (path === '/latin1-reason' || path === '/latin1-reason-interim') return void socket.write(Buffer.from(`${path.endsWith('interim') ? EARLY_HINTS : ''}${LATIN1_HEAD}ok`, 'latin1'));
      if (path === '/utf8-reason') return void socket.write(Buffer.from(`${UTF8_HEAD}ok`, 'utf8'));
      // Chunked, then gzip: the last coding is not chunked, so the body runs to the connection's end, chunk lines and all (RFC 9112 §6.3).
      if (path === '/chunked-then-gzip') return void socket.end('HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n3\r\nabc\r\n0\r\n\r\n');
      // HTTP/1.0 answers: one read to the connection's end, one framed by its length, one after an interim 1.1 head.
      if (path === '/http10') return void socket.end('HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n<p>until close</p>');
      if (path === '/http10-length') return void socket.write('HTTP/1.0 404 Not Found\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\ngone');
      if (path === '/http10-interim') return void socket.end(`${EARLY_HINTS}HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok`);
      // An echo of the request number on this connection: shows keep-alive reuse.
      const body = `request ${n}`;
      socket.write(`HTTP/1.1 200 OK\r\nContent-Length: ${body.length}\r\nX-Mixed-CASE: Kept\r\n\r\n${body}`);
    });
    fetcher = createFetcher({ userAgent: UA, limits, spoolDir });
  });
  after(async () => {
    await fetcher.close();
    await server.close();
    await raw.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  test('plain 200: status, raw head in received order and case, digest, IP', async () => {
    const o = await fetcher.fetch(`${server.url}/plain?q=1`);
    const ex = exchangeOf(o);
    assert.equal(ex.status, 200);
    assert.equal(ex.ip, '127.0.0.1');
    assert.equal(ex.truncated, null);
    assert.deepEqual(bodyBytes(o), page);
    assert.equal(ex.payloadDigest, sha1Digest(page));
    const head = ex.responseHead.toString('latin1');
    assert.match(head, /^HTTP\/1\.1 200 Fine Thanks\r\n/);
    assert.ok(head.indexOf('Content-Type: text/html') < head.indexOf('X-Order: first'), head);
    assert.ok(head.endsWith('\r\n\r\n'));
    assert.equal(ex.headers['content-type'], 'text/html');
    assert.equal(o.retries, 0);
  });

  test('a reason phrase and header values in ISO-8859-1 or UTF-8 are archived as the bytes received, on reused connections and after an interim answer', async () => {
    for (const [path, head] of [
      ['/latin1-reason', Buffer.from(LATIN1_HEAD, 'latin1')],
      ['/latin1-reason', Buffer.from(LATIN1_HEAD, 'latin1')],
      ['/latin1-reason-interim', Buffer.from(LATIN1_HEAD, 'latin1')],
      ['/utf8-reason', Buffer.from(UTF8_HEAD, 'utf8')],
    ] as const) {
      const ex = exchangeOf(await fetcher.fetch(`${raw.url}${path}`));
      assert.equal(ex.responseHead.toString('hex'), head.toString('hex'), path);
      assert.equal(bodyBytes(await fetcher.fetch(`${raw.url}/echo`)).toString().startsWith('request '), true, 'the next answer on the connection reads as before');
    }
  });

  test('an HTTP/1.0 answer is archived with the version the server sent, not as HTTP/1.1', async () => {
    for (const [path, head] of [
      ['/http10', 'HTTP/1.0 200 OK\r\nContent-Type: text/html\r\n\r\n'],
      ['/http10-length', 'HTTP/1.0 404 Not Found\r\nContent-Length: 4\r\nConnection: keep-alive\r\n\r\n'],
      ['/http10-interim', 'HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\n'],
      ['/echo', ''],
    ] as const) {
      const ex = exchangeOf(await fetcher.fetch(`${raw.url}${path}`));
      if (head) assert.equal(ex.responseHead.toString('latin1'), head, path);
      else assert.match(ex.responseHead.toString('latin1'), /^HTTP\/1\.1 200 OK\r\n/, 'an HTTP/1.1 answer after them stays HTTP/1.1');
    }
  });

  test('request head is byte for byte what the server received, on fresh and reused connections', async () => {
    const first = exchangeOf(await fetcher.fetch(`${raw.url}/echo?a=b`, { headers: { 'X-Extra': 'yes' } }));
    assert.deepEqual(first.requestHead, raw.log.at(-1)!.rawHead);
    const numbers: string[] = [];
    for (let i = 0; i < 4; i++) {
      const ex = exchangeOf(await fetcher.fetch(`${raw.url}/echo${i}`, { conditional: { etag: '"e"', lastModified: 'Wed, 01 Jan 2025 00:00:00 GMT' } }));
      assert.deepEqual(ex.requestHead, raw.log.at(-1)!.rawHead);
      numbers.push(ex.body.kind === 'memory' ? ex.body.bytes.toString() : '');
    }
    assert.ok(numbers.some((n) => n !== 'request 1'), `a keep-alive connection was reused: ${numbers.join(', ')}`);
    const sent = raw.log.at(-1)!.rawHead!.toString('latin1');
    assert.match(sent, /^GET \/echo3 HTTP\/1\.1\r\nhost: 127\.0\.0\.1:\d+\r\n/);
    assert.match(sent, /\r\nUser-Agent: Tidemark-test\/0\.1 \(\+http:\/\/127\.0\.0\.1\/contact\)\r\n/);
    assert.match(sent, /\r\nAccept-Encoding: gzip, deflate, br\r\n/);
    assert.match(sent, /\r\nIf-None-Match: "e"\r\nIf-Modified-Since: Wed, 01 Jan 2025 00:00:00 GMT\r\n/);
    assert.match(first.responseHead.toString('latin1'), /\r\nX-Mixed-CASE: Kept\r\n/);
  });

  test('chunked: body de-chunked, Transfer-Encoding gone from the stored head, digest of the de-chunked body', async () => {
    const o = await fetcher.fetch(`${server.url}/chunked`);
    const ex = exchangeOf(o);
    assert.equal(bodyBytes(o).toString(), 'part one, part two');
    assert.equal(ex.payloadDigest, sha1Digest(Buffer.from('part one, part two')));
    assert.doesNotMatch(ex.responseHead.toString('latin1'), /transfer-encoding/i);
    assert.equal(ex.headers['transfer-encoding'], 'chunked', 'the lookup headers still say how it came');
  });

  test('chunked before another coding: the body is not de-chunked, so the stored head keeps its Transfer-Encoding whole', async () => {
    const o = await fetcher.fetch(`${raw.url}/chunked-then-gzip`);
    assert.equal(bodyBytes(o).toString(), '3\r\nabc\r\n0\r\n\r\n');
    assert.equal(exchangeOf(o).responseHead.toString('latin1'), 'HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked, gzip\r\n\r\n');
  });

  test('gzip content-encoding is stored as received and decodes on demand', async () => {
    const o = await fetcher.fetch(`${server.url}/gzip`);
    const ex = exchangeOf(o);
    assert.deepEqual(bodyBytes(o), gz);
    assert.equal(ex.payloadDigest, sha1Digest(gz));
    assert.match(ex.responseHead.toString('latin1'), /content-encoding: gzip\r\n/i);
    const decoded = await decodeContentEncoding(ex.body, ex.headers['content-encoding'], 1024 * 1024);
    assert.equal(decoded.toString(), 'compressed '.repeat(100));
  });

  test('301 and 302 are returned, not followed', async () => {
    const moved = exchangeOf(await fetcher.fetch(`${server.url}/moved`));
    assert.equal(moved.status, 301);
    assert.equal(moved.headers['location'], '/plain');
    const found = exchangeOf(await fetcher.fetch(`${server.url}/found`));
    assert.equal(found.status, 302);
    assert.equal(server.log.filter((r) => r.path.startsWith('/plain')).length, 1, 'only the plain test asked for /plain');
  });

  test('conditional GET: the ETag comes back as a 304 with an empty body', async () => {
    const first = exchangeOf(await fetcher.fetch(`${server.url}/etag`));
    const o = await fetcher.fetch(`${server.url}/etag`, { conditional: { etag: first.headers['etag'], lastModified: first.headers['last-modified'] } });
    const again = exchangeOf(o);
    assert.equal(again.status, 304);
    assert.equal(bodyBytes(o).length, 0);
    const logged = server.log.at(-1)!;
    assert.equal(logged.headers['if-none-match'], '"v1"');
    assert.equal(logged.headers['if-modified-since'], 'Wed, 01 Jan 2025 00:00:00 GMT');
  });

  test('a 304 or 204 that announces a Content-Length ends with its head: an answer, not a reset', async () => {
    for (const [path, status] of [['/304-with-length', 304], ['/204-with-length', 204]] as const) {
      const before = raw.log.filter((r) => r.path === path).length;
      const o = await fetcher.fetch(`${raw.url}${path}`, { conditional: { etag: '"v1"' } });
      const ex = exchangeOf(o);
      assert.equal(ex.status, status);
      assert.equal(ex.truncated, null, path);
      assert.equal(bodyBytes(o).length, 0);
      assert.equal(ex.payloadDigest, sha1Digest(Buffer.alloc(0)));
      assert.match(ex.responseHead.toString('latin1'), /\r\nContent-Length: \d+\r\n/, 'the head is kept as received');
      assert.equal(raw.log.filter((r) => r.path === path).length - before, 1, path);
    }
  });

  test('repeated Set-Cookie headers are kept apart', async () => {
    const ex = exchangeOf(await fetcher.fetch(`${server.url}/cookies`));
    assert.equal(ex.headers['set-cookie'], 'a=1; Path=/\nb=2, with comma');
    assert.equal((ex.responseHead.toString().match(/Set-Cookie:/g) ?? []).length, 2);
  });

  test('wrong and missing Content-Length', async () => {
    const short = await fetcher.fetch(`${raw.url}/short-length`);
    assert.equal(bodyBytes(short).toString(), 'hello', 'the announced length wins; the excess is not part of this response');
    const none = await fetcher.fetch(`${raw.url}/no-length`);
    assert.equal(bodyBytes(none).toString(), 'read until the connection closes');
    const long = await fetcher.fetch(`${raw.url}/long-length`);
    assert.equal(long.ok, false);
    if (long.ok) return;
    assert.equal(long.reason, 'connection-reset');
    assert.ok(long.partial);
    assert.equal(long.partial.truncated, 'disconnect');
    const kept = long.partial.body.kind === 'memory' ? long.partial.body.bytes : Buffer.alloc(0);
    assert.equal(kept.toString(), 'only forty bytes of the promised thousand');
    assert.equal(long.partial.payloadDigest, sha1Digest(kept));
  });

  test('broken HTTP is bad-http, not an internal error; long header sections and statuses past 599 are answers', async () => {
    const before = raw.log.filter((r) => r.path === '/bad-chunk').length;
    const broken = await fetcher.fetch(`${raw.url}/bad-chunk`);
    assert.equal(!broken.ok && broken.reason, 'bad-http');
    // Asked once more by the lenient parser (fetch-lenient.test.ts), which cannot read it either; not retried.
    assert.equal(raw.log.filter((r) => r.path === '/bad-chunk').length - before, 2, 'not retried: the same bytes come back');
    assert.equal(broken.retries, 0);
    const big = await fetcher.fetch(`${raw.url}/big-headers`);
    assert.ok(big.ok, big.ok ? '' : `${big.reason}: ${big.message}`);
    assert.equal(big.exchange.headers['set-cookie']!.split('\n').length, 40);
    const denied = await fetcher.fetch(`${raw.url}/status-999`);
    assert.ok(denied.ok, 'kept as the answer it is, not retried as a 5xx');
    assert.equal(denied.exchange.status, 999);
    assert.equal(denied.retries, 0);
    // HTTP lets a server send 100 Continue unasked; undici 7 cannot read past it, Node's client can
    // (fetch-lenient.test.ts): read so, and not retried as a reset.
    const interim = await fetcher.fetch(`${raw.url}/continue`);
    assert.ok(interim.ok, interim.ok ? '' : interim.message);
    assert.deepEqual([interim.exchange.status, interim.note, interim.retries], [200, 'the server sent an interim 100 Continue unasked, which the HTTP client cannot read past: read by a lenient parser', 0]);
    // undici takes a status below 100 for an interim one and failed an assertion at its end: an "internal" error.
    const below = await fetcher.fetch(`${raw.url}/status-099`);
    assert.deepEqual(!below.ok && [below.reason, below.message, below.retries], ['bad-http', 'the server answered status 099, which is no HTTP status (they start at 100)', 0]);
    // Two lengths (RFC 9112 §6.3): bad HTTP, not a cut connection retried; asked once more of the
    // lenient parser (undici's error does not tell two lengths from one given twice), which refuses it too.
    const askedBefore = raw.log.filter((r) => r.path === '/two-lengths').length;
    const twoLengths = await fetcher.fetch(`${raw.url}/two-lengths`);
    assert.deepEqual(!twoLengths.ok && [twoLengths.reason, twoLengths.retries], ['bad-http', 0]);
    assert.match(!twoLengths.ok ? twoLengths.message : '', /^the HTTP client refused the response head for Content-Length given more than once with different values \(5, 7\): where its body ends is unknown; a lenient parser could not read it either/);
    assert.equal(raw.log.filter((r) => r.path === '/two-lengths').length - askedBefore, 2, 'not retried: undici, then the lenient parser');
    // The same length given twice, which RFC 9110 §8.6 lets a client read as one: read so.
    const twice = await fetcher.fetch(`${raw.url}/same-length-twice`);
    assert.ok(twice.ok && twice.exchange.status === 200 && twice.retries === 0);
  });

  test('invalid URLs and schemes fail without a request', async () => {
    const bad = await fetcher.fetch('ftp://127.0.0.1/file');
    assert.equal(bad.ok, false);
    assert.equal(!bad.ok && bad.reason, 'invalid-url');
  });

  test('the payload digest is sha1 in RFC 4648 base32 (known vector)', async () => {
    const ex = exchangeOf(await fetcher.fetch(`${server.url}/abc`));
    assert.equal(ex.payloadDigest, 'sha1:VGMT4NSHA2AWVOR6EVYXQUGCNSONBWE5'); // sha1("abc") = a9993e36…
  });
});
