/**
 * A site whose answers break HTTP framing in ways node:http will not write (a raw node:net server):
 * a body dripped a byte at a time forever, a Content-Length larger or smaller than the body, a chunk
 * size that is no number, chunks with no last chunk on a connection left open, thousands of header
 * lines, one header of 1 MB, and status lines that are not HTTP. One crawl of it with the engine
 * finishes; each URL has a crawl-log entry naming what went wrong, the links of the pages that
 * could be read are followed, and the WARC files read back with digests verified.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Socket } from 'node:net';
import { startRawServer, type FixtureServer } from '../../fixtures/servers/fixture-server';
import { crawlHostile, type HostileCrawl } from '../../support/hostile-crawl';

const html = (body: string) => `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;
const link = (path: string) => `<a href="${path}">${path}</a>`;
const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`;
const withHeaderLines = (n: number) =>
  `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n${Array.from({ length: n }, (_, i) => `X-Header-${i}: ${i}\r\n`).join('')}Content-Length: 2\r\nConnection: close\r\n\r\nok`;
const smallerBody = '<a href="/after-smaller">next</a>';
const smuggled = '<a href="/smuggled">smuggled</a>';
/** What the site answers a path it has no route for. */
const plainPage = (path: string) => `<p>${path}</p>`;
/** What /length-larger sends of the 1,000 bytes it announces. */
const shortBody = '<a href="/after-short">a few bytes of a thousand</a>';

/** Each route writes its answer on the raw socket; the index links them all. */
const routes: Record<string, (socket: Socket) => void> = {
  '/robots.txt': (s) => void s.write('HTTP/1.1 404 Not Found\r\nContent-Length: 0\r\n\r\n'),
  // A head, then one byte of the body every 150 ms, forever: the total timeout ends it.
  '/drip': (s) => {
    s.write('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000000\r\n\r\n<p>');
    const timer = setInterval(() => s.writable && s.write('.'), 150);
    s.on('close', () => clearInterval(timer));
  },
  // Announces 1,000 bytes, sends 40, hangs up.
  '/length-larger': (s) => void s.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: 1000\r\n\r\n' + shortBody),
  // Announces a page with one link and sends more: a whole answer of its own, smuggled onto the
  // connection for the next request it may carry (the link's, with one fetch at a time).
  '/length-smaller': (s) => void s.write(`${html(smallerBody)}HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${smuggled.length}\r\n\r\n${smuggled}`),
  '/bad-chunk': (s) => void s.end('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n5\r\n<p>hi\r\nzz\r\nnever\r\n0\r\n\r\n'),
  // Two whole chunks (a link in the first), then nothing: no last chunk, the connection left open.
  '/unterminated-chunks': (s) => void s.write(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nTransfer-Encoding: chunked\r\n\r\n${chunk('<a href="/from-chunks">in the first chunk</a>')}${chunk('<p>and')}`),
  // 5,000 header lines (~100 KB) are within the head the fetcher reads (256 KB); 20,000 (~400 KB) are not.
  '/many-headers': (s) => void s.end(withHeaderLines(5000)),
  '/too-many-headers': (s) => void s.end(withHeaderLines(20_000)),
  '/huge-header': (s) => void s.end(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nX-Huge: ${'h'.repeat(1024 * 1024)}\r\nContent-Length: 2\r\nConnection: close\r\n\r\nok`),
  // Another protocol's greeting, then a hang-up.
  '/not-http': (s) => void s.end('SSH-2.0-OpenSSH_9.6\r\n'),
  // A page with no status line nor headers (HTTP/0.9), then a hang-up.
  '/no-status-line': (s) => void s.end('<html><a href="/from-no-status">link</a></html>\r\n'),
};
const targets = ['/after-short', '/after-smaller', '/from-chunks', '/from-no-status'];

let site: FixtureServer;
let crawl: HostileCrawl;

before(async () => {
  site = await startRawServer((socket, head) => {
    const path = head.toString('latin1').split(' ')[1] ?? '/';
    if (path === '/') return void socket.write(html(Object.keys(routes).filter((p) => p !== '/robots.txt').map(link).join(' ')));
    const route = routes[path];
    if (route) return route(socket);
    socket.write(html(plainPage(path)));
  });
  crawl = await crawlHostile('tm-hostile-transport-', site.url, {
    politeness: { enabled: false, concurrency: 1 },
    limits: { connectTimeoutMs: 1000, headersTimeoutMs: 1500, totalTimeoutMs: 2500, maxRetries: 0 },
  });
});

after(() => site.close());

test('a body dripped a byte at a time is cut at the total timeout: what came is archived, truncated "time"', () => {
  assert.equal(crawl.log.get('/drip')?.outcome, 'total-timeout');
  assert.equal(crawl.captures.get('/drip')?.truncated, 'time');
  assert.ok(crawl.captures.get('/drip')!.size >= 3, 'the bytes that came are kept');
});

test('a Content-Length larger than the body, then a hang-up: the bytes that came are archived as cut by a disconnect', () => {
  assert.equal(crawl.log.get('/length-larger')?.outcome, 'connection-reset');
  assert.equal(crawl.log.get('/length-larger')?.message, `connection closed after ${shortBody.length} of 1,000 bytes announced by Content-Length`);
  assert.equal(crawl.captures.get('/length-larger')?.truncated, 'disconnect');
  assert.equal(crawl.captures.get('/length-larger')?.size, shortBody.length);
  assert.equal(crawl.captures.get('/after-short')?.status, 200, 'its link is followed');
});

test('a Content-Length smaller than what is sent: the announced length is the body, and the excess (an answer of its own) is no later answer', () => {
  assert.equal(crawl.log.get('/length-smaller')?.outcome, 'ok');
  assert.equal(crawl.captures.get('/length-smaller')?.size, smallerBody.length);
  assert.equal(crawl.captures.get('/after-smaller')?.size, plainPage('/after-smaller').length, "the next page's own answer, not the smuggled one");
  assert.equal(crawl.log.has('/smuggled'), false, 'the link of the smuggled answer is not followed');
  for (const path of Object.keys(routes).filter((p) => p !== '/robots.txt')) assert.ok(crawl.log.has(path), `${path} is in the crawl log`);
});

test('a chunk size that is no number is bad-http', () => {
  assert.equal(crawl.log.get('/bad-chunk')?.outcome, 'bad-http');
});

test('chunks with no last chunk on a connection left open: cut at the total timeout, the whole chunks archived and their link followed', () => {
  assert.equal(crawl.log.get('/unterminated-chunks')?.outcome, 'total-timeout');
  assert.equal(crawl.captures.get('/unterminated-chunks')?.truncated, 'time');
  assert.equal(crawl.captures.get('/from-chunks')?.status, 200);
});

test('5,000 header lines are an answer, archived; 20,000 header lines, or one header of 1 MB, are bad-http, saying the head is too large', () => {
  assert.equal(crawl.log.get('/many-headers')?.outcome, 'ok');
  assert.equal(crawl.captures.get('/many-headers')?.status, 200);
  for (const path of ['/too-many-headers', '/huge-header']) {
    const entry = crawl.log.get(path);
    assert.equal(entry?.outcome, 'bad-http', path);
    assert.equal(entry?.message, 'response head larger than 256 KB, the most the crawler reads of one', path);
  }
});

test('a status line that is not HTTP, or none at all: bad-http, nothing archived for it', () => {
  for (const path of ['/not-http', '/no-status-line']) {
    assert.equal(crawl.log.get(path)?.outcome, 'bad-http', path);
    assert.equal(crawl.captures.has(path), false, path);
  }
  assert.equal(crawl.captures.has('/from-no-status'), false);
  for (const path of targets) assert.notEqual(crawl.log.get(path)?.outcome, 'internal', path);
});
