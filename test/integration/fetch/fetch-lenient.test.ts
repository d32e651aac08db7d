/**
 * Responses undici's strict parser refuses as broken HTTP/1.1 (obs-fold, bare LF line ends,
 * Transfer-Encoding beside Content-Length), or that undici cannot read past (an unasked 100
 * Continue, one Content-Length given twice), are asked for once more and read by Node's lenient
 * parser, as Heritrix, wget and browsers read them: captured, with a note, the archived request
 * head the bytes the server got. What no parser reads still fails as bad-http, saying both tried. Raw
 * servers on loopback, plain and TLS.
 */
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Socket } from 'node:net';
import { createDnsCache, createFetcher, type FetchOutcome } from '../../../worker/fetch';
import { startRawServer, testTlsCredentials, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark-test/0.1 (+http://127.0.0.1/contact)';
const limits = { connectTimeoutMs: 1000, headersTimeoutMs: 1000, totalTimeoutMs: 3000, maxBodyBytes: 1024 * 1024, maxRetries: 0 };

const BROKEN: Record<string, string> = {
  '/obs-fold': 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nx-folded: a\r\n  b\r\ncontent-length: 9\r\n\r\n<p>of</p>',
  '/lf-only': 'HTTP/1.1 200 Fine\ncontent-type: text/html\ncontent-length: 9\n\n<p>lf</p>',
  '/te-and-length': 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\ncontent-length: 3\r\n\r\n9\r\n<p>te</p>\r\n0\r\n\r\n',
  // The length first: undici then says only "length mismatch", whatever stopped its parser.
  '/length-and-te': 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 100\r\ntransfer-encoding: chunked\r\n\r\n9\r\n<p>lt</p>\r\n0\r\n\r\n',
  '/length-too-large': 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 99999999999999999999\r\n\r\n<p>ll</p>',
  '/length-then-fold': 'HTTP/1.1 200 OK\r\ncontent-length: 9\r\nx-folded: a\r\n  b\r\n\r\n<p>lf</p>',
  '/bad-chunk': 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ntransfer-encoding: chunked\r\n\r\nzz\r\nhello\r\n0\r\n\r\n',
  '/length-twice': 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 9\r\ncontent-length: 7\r\n\r\n<p>lt</p>',
  // RFC 9110 §8.6 lets a client read one length given twice (on two lines, or as a list) as that length; browsers do.
  '/same-length-twice': 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 9\r\nx-between: 1\r\nContent-Length: 9\r\n\r\n<p>st</p>',
  '/length-list': 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 9, 9\r\n\r\n<p>ll</p>',
  // An interim response the request did not ask for, which HTTP clients must read past (RFC 9110 §15.2).
  '/continue-unasked': 'HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 9\r\n\r\n<p>co</p>',
  '/fine': 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\ncontent-length: 9\r\n\r\n<p>ok</p>',
  // ISO-8859-1 bytes in the reason phrase and a value (obs-text, RFC 9112 §4 and §5.5), one character a byte here.
  '/folded-latin1': 'HTTP/1.1 200 Tr\xe9s bien\r\ncontent-type: text/html\r\nx-folded: a\r\n  b\r\nx-value: caf\xe9\r\ncontent-length: 9\r\n\r\n<p>la</p>',
  // HTTP/1.0 from an old server, with a folded header line: read leniently, archived as HTTP/1.0.
  '/http10-folded': 'HTTP/1.0 200 OK\r\ncontent-type: text/html\r\nx-folded: a\r\n  b\r\n\r\n<p>10</p>',
  // 100 KB of headers, which undici takes (the fetcher's 256 KB) and Node's own default (16 KB) would not.
  '/folded-and-long': `HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nx-folded: a\r\n  b\r\n${Array.from({ length: 40 }, (_, i) => `set-cookie: c${i}=${'v'.repeat(2500)}\r\n`).join('')}content-length: 9\r\n\r\n<p>fl</p>`,
};
const answer = (socket: Socket, head: Buffer) => socket.end(Buffer.from(BROKEN[head.toString('latin1').split(' ')[1]!] ?? 'HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n', 'latin1'));

function body(o: FetchOutcome): string {
  assert.ok(o.ok, o.ok ? '' : `${o.reason}: ${o.message}`);
  return o.exchange.body.kind === 'memory' ? o.exchange.body.bytes.toString('latin1') : '';
}

describe('fetcher: broken HTTP/1.1 read leniently', () => {
  let server: FixtureServer;
  let spoolDir: string;
  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-fetch-lenient-'));
    server = await startRawServer(answer);
  });
  after(async () => {
    await server.close();
    await rm(spoolDir, { recursive: true, force: true });
  });
  const fetchPath = async (path: string) => {
    const fetcher = createFetcher({ userAgent: UA, limits, spoolDir });
    const asked = server.log.length;
    try {
      return { outcome: await fetcher.fetch(`${server.url}${path}`), requests: server.log.slice(asked) };
    } finally {
      await fetcher.close();
    }
  };

  test('obs-fold (with 100 KB of headers too), bare LF and Transfer-Encoding beside Content-Length: captured from a second request, with a note', async () => {
    for (const [path, expected] of [['/obs-fold', '<p>of</p>'], ['/lf-only', '<p>lf</p>'], ['/te-and-length', '<p>te</p>'], ['/folded-and-long', '<p>fl</p>']] as const) {
      const { outcome, requests } = await fetchPath(path);
      assert.equal(body(outcome), expected, path);
      assert.ok(outcome.ok);
      assert.match(outcome.note ?? '', /^Response does not match the HTTP\/1\.1 protocol \(.+\): read by a lenient parser(, its Content-Length, beside Transfer-Encoding, which frames the body, left out of the archived head)?$/, path);
      assert.equal(requests.length, 2, `${path}: undici's request, then the lenient one`);
      // The WARC request record holds what the server got, byte for byte (both requests alike).
      assert.deepEqual(outcome.exchange.requestHead, requests[1]!.rawHead, path);
      assert.deepEqual(requests[0]!.rawHead, requests[1]!.rawHead, path);
    }
    const folded = await fetchPath('/obs-fold');
    assert.ok(folded.outcome.ok);
    assert.equal(folded.outcome.exchange.headers['x-folded'], 'a  b', 'the folded value unfolded, as Node reads it');
    const lf = await fetchPath('/lf-only');
    assert.ok(lf.outcome.ok);
    assert.match(lf.outcome.exchange.responseHead.toString('latin1'), /^HTTP\/1\.1 200 Fine\r\ncontent-type: text\/html\r\ncontent-length: 9\r\n\r\n$/);
  });

  test('a reason phrase and a header value in ISO-8859-1: archived as the bytes received', async () => {
    const { outcome } = await fetchPath('/folded-latin1');
    assert.equal(body(outcome), '<p>la</p>');
    assert.ok(outcome.ok);
    const expected = Buffer.from('HTTP/1.1 200 Tr\xe9s bien\r\ncontent-type: text/html\r\nx-folded: a  b\r\nx-value: caf\xe9\r\ncontent-length: 9\r\n\r\n', 'latin1');
    assert.equal(outcome.exchange.responseHead.toString('hex'), expected.toString('hex'));
  });

  test('an HTTP/1.0 answer read leniently keeps its version in the archived head', async () => {
    const { outcome, requests } = await fetchPath('/http10-folded');
    assert.equal(body(outcome), '<p>10</p>');
    assert.equal(requests.length, 2, "undici's request, then the lenient one");
    assert.ok(outcome.ok);
    assert.equal(outcome.exchange.responseHead.toString('latin1'), 'HTTP/1.0 200 OK\r\ncontent-type: text/html\r\nx-folded: a  b\r\n\r\n');
  });

  test('one Content-Length given twice, or as a list of one value, and an unasked 100 Continue: captured from a second request, the head archived as received', async () => {
    for (const [path, expected, note] of [
      ['/same-length-twice', '<p>st</p>', /: read by a lenient parser, its Content-Length, given more than once with one value, read as one$/],
      ['/length-list', '<p>ll</p>', /: read by a lenient parser, its Content-Length, given more than once with one value, read as one$/],
      ['/continue-unasked', '<p>co</p>', /^the server sent an interim 100 Continue unasked, which the HTTP client cannot read past: read by a lenient parser$/],
    ] as const) {
      const { outcome, requests } = await fetchPath(path);
      assert.equal(body(outcome), expected, path);
      assert.ok(outcome.ok);
      assert.match(outcome.note ?? '', note, path);
      assert.equal(requests.length, 2, path);
      assert.equal(outcome.exchange.status, 200, path);
      const wire = BROKEN[path]!;
      assert.equal(outcome.exchange.responseHead.toString('latin1'), wire.slice(wire.lastIndexOf('HTTP/1.1'), wire.indexOf('\r\n\r\n', wire.lastIndexOf('HTTP/1.1')) + 4), path);
    }
  });

  test('Transfer-Encoding beside Content-Length: the de-chunked body archived under a head without the length, which did not frame it; the note says what undici refused', async () => {
    for (const [path, expected, refused] of [
      ['/te-and-length', '<p>te</p>', 'Response does not match the HTTP/1.1 protocol (Content-Length can\'t be present with Transfer-Encoding)'],
      ['/length-and-te', '<p>lt</p>', 'the HTTP client refused the response head for Transfer-Encoding beside Content-Length'],
    ] as const) {
      const { outcome } = await fetchPath(path);
      assert.equal(body(outcome), expected, path);
      assert.ok(outcome.ok);
      assert.equal(outcome.note, `${refused}: read by a lenient parser, its Content-Length, beside Transfer-Encoding, which frames the body, left out of the archived head`, path);
      assert.equal(outcome.exchange.responseHead.toString('latin1'), 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\n\r\n', path);
    }
    // Another line undici refuses after a length: said as such, the length kept (it framed the body).
    const { outcome } = await fetchPath('/length-then-fold');
    assert.equal(body(outcome), '<p>lf</p>');
    assert.equal(outcome.ok && outcome.note, 'the HTTP client refused the response head for a line after its Content-Length that it cannot parse: read by a lenient parser');
    assert.match(outcome.ok ? outcome.exchange.responseHead.toString('latin1') : '', /^HTTP\/1\.1 200 OK\r\ncontent-length: 9\r\n/);
  });

  test('a Content-Length too large for any parser: bad-http, saying so', async () => {
    const { outcome, requests } = await fetchPath('/length-too-large');
    assert.equal(!outcome.ok && outcome.reason, 'bad-http');
    assert.equal(!outcome.ok && outcome.message, 'the HTTP client refused the response head for a Content-Length too large to read (99999999999999999999); a lenient parser could not read it either (Parse Error: Content-Length overflow)');
    assert.equal(requests.length, 2);
  });

  test('a response no parser reads fails as bad-http saying what both found; one undici reads is asked once', async () => {
    const chunk = await fetchPath('/bad-chunk');
    assert.equal(!chunk.outcome.ok && chunk.outcome.reason, 'bad-http');
    assert.match(!chunk.outcome.ok ? chunk.outcome.message : '', /\(Invalid character in chunk size\); a lenient parser could not read it either \(/);
    assert.equal(chunk.requests.length, 2);
    // Two lengths: where the body ends is unknown to any parser (undici cannot tell it from one length twice, so it asks again).
    const twice = await fetchPath('/length-twice');
    assert.equal(!twice.outcome.ok && twice.outcome.reason, 'bad-http');
    assert.match(!twice.outcome.ok ? twice.outcome.message : '', /^the HTTP client refused the response head for Content-Length given more than once with different values \(9, 7\): where its body ends is unknown; a lenient parser could not read it either \(.*Duplicate Content-Length\)$/);
    assert.equal(twice.requests.length, 2);
    const fine = await fetchPath('/fine');
    assert.equal(body(fine.outcome), '<p>ok</p>');
    assert.equal(fine.outcome.ok && fine.outcome.note, undefined);
    assert.equal(fine.requests.length, 1);
  });

  test("the second request waits the host's delay, as a retry does", async () => {
    const fetcher = createFetcher({ userAgent: UA, limits, spoolDir, retryGapMs: () => 300 });
    const asked = server.log.length;
    try {
      assert.equal(body(await fetcher.fetch(`${server.url}/obs-fold`)), '<p>of</p>');
    } finally {
      await fetcher.close();
    }
    const [strict, lenient] = server.log.slice(asked);
    assert.ok(lenient!.at - strict!.at >= 300, `${lenient!.at - strict!.at} ms between the two requests`);
  });

  test('over TLS: the lenient request connects to the IP with the host name as SNI', async () => {
    const tls = await startRawServer(answer, { tls: testTlsCredentials() });
    const dns = createDnsCache({ lookup: async () => '127.0.0.1' });
    const fetcher = createFetcher({ userAgent: UA, limits, spoolDir, dns, rejectUnauthorized: false });
    try {
      const outcome = await fetcher.fetch(`https://tidemark-tls.test:${tls.port}/obs-fold`);
      assert.equal(body(outcome), '<p>of</p>');
      // Through the repair between the TLS socket and the parser too.
      const twice = await fetcher.fetch(`https://tidemark-tls.test:${tls.port}/same-length-twice`);
      assert.equal(body(twice), '<p>st</p>');
      assert.deepEqual(tls.log.map((r) => r.sni), Array(4).fill('tidemark-tls.test'));
      assert.match(tls.log[1]!.rawHead!.toString('latin1'), new RegExp(`^GET /obs-fold HTTP/1\\.1\\r\\nhost: tidemark-tls\\.test:${tls.port}\\r\\nconnection: keep-alive\\r\\n`));
    } finally {
      await fetcher.close();
      await tls.close();
    }
  });
});

describe('fetcher: a body cut off or late after a head only the lenient parser reads', () => {
  const FOLDED = 'HTTP/1.1 200 OK\r\ncontent-type: text/html\r\nx-folded: a\r\n  b\r\n';
  const PART = '<p>the first part of a longer page</p>';
  const NOTE = /; Response does not match the HTTP\/1\.1 protocol \(Unexpected whitespace after header value\): read by a lenient parser$/;
  let server: FixtureServer;
  let spoolDir: string;
  const requests = (path: string) => server.log.filter((r) => r.path === path).length;
  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-fetch-lenient-cut-'));
    server = await startRawServer((socket, head) => {
      const path = head.toString('latin1').split(' ')[1]!;
      const cut = () => socket.write(`${FOLDED}content-length: 1000\r\n\r\n${PART}`, () => setTimeout(() => socket.resetAndDestroy(), 50));
      if (path === '/cut') return cut();
      // Cut for undici's request and the lenient one, whole from then on.
      if (path === '/cut-once') return requests(path) <= 2 ? cut() : socket.end(`${FOLDED}content-length: ${PART.length}\r\n\r\n${PART}`);
      if (path === '/stalls') return socket.write(`${FOLDED}content-length: 1000\r\n\r\n${PART}`);
      if (path === '/bad-chunk-later') return socket.end(`${FOLDED}transfer-encoding: chunked\r\n\r\n${PART.length.toString(16)}\r\n${PART}\r\nzz\r\nmore\r\n0\r\n\r\n`);
      socket.end('HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\n\r\n');
    });
  });
  after(async () => {
    await server.close();
    await rm(spoolDir, { recursive: true, force: true });
  });
  const fetchPath = async (path: string, overrides: Partial<typeof limits> = {}) => {
    const fetcher = createFetcher({ userAgent: UA, limits: { ...limits, ...overrides }, spoolDir, backoff: { baseMs: 5, maxMs: 20 } });
    try {
      return await fetcher.fetch(`${server.url}${path}`);
    } finally {
      await fetcher.close();
    }
  };
  const partialBody = (o: FetchOutcome) => (!o.ok && o.partial?.body.kind === 'memory' ? o.partial.body.bytes.toString('latin1') : undefined);

  test('a reset mid-body: what came is kept, truncated as disconnect, and the failure is connection-reset, said with the lenient read', async () => {
    const outcome = await fetchPath('/cut');
    assert.equal(!outcome.ok && outcome.reason, 'connection-reset', JSON.stringify(outcome));
    assert.match(!outcome.ok ? outcome.message : '', NOTE);
    assert.equal(partialBody(outcome), PART);
    assert.equal(!outcome.ok && outcome.partial?.truncated, 'disconnect');
    assert.match(!outcome.ok ? outcome.partial!.responseHead.toString('latin1') : '', /^HTTP\/1\.1 200 OK\r\ncontent-type: text\/html\r\nx-folded: a  b\r\ncontent-length: 1000\r\n\r\n$/);
  });

  test('a reset mid-body is retried as a connection reset is: the next answer, read leniently again, is the exchange', async () => {
    const outcome = await fetchPath('/cut-once', { maxRetries: 1 });
    assert.equal(body(outcome), PART);
    assert.equal(outcome.ok && outcome.retries, 1);
    assert.equal(requests('/cut-once'), 4, "undici's request and the lenient one, twice");
  });

  test('the total timeout mid-body: what came is kept, truncated as time, and the failure is total-timeout', async () => {
    const outcome = await fetchPath('/stalls', { totalTimeoutMs: 800 });
    assert.equal(!outcome.ok && outcome.reason, 'total-timeout', JSON.stringify(outcome));
    assert.match(!outcome.ok ? outcome.message : '', NOTE);
    assert.equal(partialBody(outcome), PART);
    assert.equal(!outcome.ok && outcome.partial?.truncated, 'time');
  });

  test('a chunk size that is no number part-way: bad-http as no parser reads it, what came before it kept', async () => {
    const outcome = await fetchPath('/bad-chunk-later');
    assert.equal(!outcome.ok && outcome.reason, 'bad-http', JSON.stringify(outcome));
    assert.match(!outcome.ok ? outcome.message : '', /^Response does not match the HTTP\/1\.1 protocol \(Unexpected whitespace after header value\); a lenient parser could not read it either \(.*chunk size\)$/);
    assert.equal(partialBody(outcome), PART);
    // WARC 1.1's `disconnect` is a network disconnect; the connection was fine, the response broke HTTP.
    assert.equal(!outcome.ok && outcome.partial?.truncated, 'unspecified');
    assert.equal(requests('/bad-chunk-later'), 2, 'not retried');
  });
});
