/**
 * Pages and redirects that lead a crawler astray: a redirect whose URL grows each hop, redirects to
 * javascript:, file: and data: URLs, a page of 1,000,000 links, a meta refresh loop, a <base href>
 * that is no URL, a charset label nobody knows and UTF-16 without a byte order mark. One crawl of a
 * loopback site with the engine finishes; each URL has a crawl-log entry (or an exclusion) with its
 * reason, and the WARC files read back with digests verified.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { crawlHostile, type HostileCrawl } from '../../support/hostile-crawl';

const MILLION = 1_000_000;
/** A page of a million links, each to a page of its own (~16 MB). */
const millionLinks = Buffer.from(Array.from({ length: MILLION }, (_, i) => `<a href=/m/${i}>`).join(''));

const page = (res: ServerResponse, body: string | Buffer, type = 'text/html; charset=utf-8') => void res.writeHead(200, { 'content-type': type }).end(body);
const redirect = (res: ServerResponse, location: string) => void res.writeHead(302, { location }).end();

const routes: Record<string, (req: IncomingMessage, res: ServerResponse) => void> = {
  '/': (_q, res) =>
    page(res, ['/grow/a', '/to/javascript', '/to/file', '/to/data', '/million', '/refresh/a', '/base/garbage', '/charset/nonsense', '/utf16/labelled', '/utf16/unlabelled']
      .map((p) => `<a href="${p}">${p}</a>`).join(' ')),
  '/robots.txt': (_q, res) => void res.writeHead(404).end(),
  '/to/javascript': (_q, res) => redirect(res, 'javascript:alert(document.cookie)'),
  '/to/file': (_q, res) => redirect(res, 'file:///etc/passwd'),
  '/to/data': (_q, res) => redirect(res, 'data:text/html,<a href=/from-data>x</a>'),
  '/million': (_q, res) => page(res, millionLinks),
  '/refresh/a': (_q, res) => page(res, '<meta http-equiv="refresh" content="0; url=/refresh/b"><p>a</p>'),
  '/refresh/b': (_q, res) => page(res, '<meta http-equiv="refresh" content="0;URL=\'/refresh/a\'"><p>b</p>'),
  // A base that is no URL: links resolve against the page's own URL, as in a browser.
  '/base/garbage': (_q, res) => page(res, '<base href="http://[::zz/x/"><a href="resolved">relative</a>'),
  '/charset/nonsense': (_q, res) => page(res, Buffer.from('<p>caf\u00e9 <a href="/charset/after">next</a></p>'), 'text/html; charset=x-nonsense'),
  // "utf-16" without a byte order mark is UTF-16LE (WHATWG Encoding): a browser reads its link.
  '/utf16/labelled': (_q, res) => page(res, Buffer.from('<p>tide <a href="/utf16/after">next</a></p>', 'utf16le'), 'text/html; charset=utf-16'),
  // No label and no mark: every other byte is NUL, no markup a parser sees; archived as it came.
  '/utf16/unlabelled': (_q, res) => page(res, Buffer.from('<p>tide <a href="/utf16/never">never</a></p>', 'utf16le'), 'text/html'),
};

let server: Server;
let crawl: HostileCrawl;
let requested: string[];

before(async () => {
  requested = [];
  server = createServer((req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    // Each hop of /grow/ one letter longer, without end.
    if (path.startsWith('/grow/')) return redirect(res, `${path}a`);
    const route = routes[path];
    if (route) return route(req, res);
    page(res, `<p>${path}</p>`);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  crawl = await crawlHostile('tm-hostile-pages-', origin, {
    // The million links are planned, and refused: fetching them is no part of the test.
    scope: { maxDepth: 5, exclude: ['/m/[0-9]+$'] },
    limits: { connectTimeoutMs: 2000, headersTimeoutMs: 5000, totalTimeoutMs: 20_000, maxRetries: 0 },
  });
});

after(() => {
  server.closeAllConnections();
  server.close();
});

test('a redirect whose URL grows each hop is followed hop by hop until the depth limit refuses the next', () => {
  const hops = requested.filter((p) => p.startsWith('/grow/'));
  assert.ok(hops.length >= 2 && hops.length <= 6, `${hops.length} hops fetched`);
  for (const hop of hops) assert.equal(crawl.captures.get(hop)?.status, 302, hop);
  const next = `${hops.at(-1)}a`;
  assert.equal(crawl.excluded.get(next), 'max-depth', `${next} is refused, saying why`);
});

test('redirects to javascript:, file: and data: URLs are archived, and their log entries say why nothing follows', () => {
  const cases: [string, string][] = [
    ['/to/javascript', 'javascript'],
    ['/to/file', 'file'],
    ['/to/data', 'data'],
  ];
  for (const [path, scheme] of cases) {
    assert.equal(crawl.captures.get(path)?.status, 302, path);
    assert.match(crawl.log.get(path)?.message ?? '', new RegExp(`^redirect to a ${scheme}: URL not followed \\(only http and https are fetched\\)`), path);
  }
  assert.ok(!requested.includes('/from-data'), 'nothing inside the data: URL is followed');
});

test('a page of 1,000,000 links is archived whole, its first scope.maxOutLinksPerPage links taken and the rest counted in its log entry', () => {
  assert.equal(crawl.captures.get('/million')?.size, millionLinks.length);
  assert.equal(crawl.log.get('/million')?.outcome, 'ok');
  assert.equal(crawl.log.get('/million')?.message, `${MILLION - 6000} links past the first 6000 not followed (scope.maxOutLinksPerPage)`);
  assert.equal(crawl.excluded.get('/m/5999'), 'exclude-match', 'the links taken are planned');
  assert.equal(crawl.excluded.has('/m/6000'), false, 'the rest are not');
});

test('a meta refresh loop is fetched once each way, then ends', () => {
  assert.equal(requested.filter((p) => p === '/refresh/a').length, 1);
  assert.equal(requested.filter((p) => p === '/refresh/b').length, 1);
  assert.equal(crawl.captures.get('/refresh/b')?.status, 200);
});

test('a <base href> that is no URL is ignored: links resolve against the page', () => {
  assert.equal(crawl.log.get('/base/garbage')?.outcome, 'ok');
  assert.equal(crawl.captures.get('/base/resolved')?.status, 200);
});

test('a charset label nobody knows: the page is archived as it came and its links read all the same', () => {
  assert.equal(crawl.log.get('/charset/nonsense')?.outcome, 'ok');
  assert.equal(crawl.captures.get('/charset/after')?.status, 200);
});

test('UTF-16 without a byte order mark: read as UTF-16LE when labelled utf-16, archived unread without a label', () => {
  assert.equal(crawl.log.get('/utf16/labelled')?.outcome, 'ok');
  assert.equal(crawl.captures.get('/utf16/after')?.status, 200, 'the link of the labelled page is followed');
  assert.equal(crawl.log.get('/utf16/unlabelled')?.outcome, 'ok');
  assert.equal(crawl.captures.get('/utf16/unlabelled')?.size, Buffer.byteLength('<p>tide <a href="/utf16/never">never</a></p>') * 2);
  assert.ok(!requested.includes('/utf16/never'));
});
