import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { extractFromResponse, type ResponseInput } from '../../../worker/extract';
import { responseInput as base } from '../../support/response-input';
import { extractOnThread } from '../../../worker/crawler/extract-client';
import { packExtraction, unpackExtraction } from '../../../worker/crawler/extract-job';

// The thread from the first page (rather than after EXTRACT_THREAD_AFTER pages), on this machine's cores.
process.env.TIDEMARK_EXTRACT_THREAD = '1';


const sitemap = (n: number) =>
  `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${Array.from({ length: n }, (_, i) => `<url><loc>http://example.org/p/${i}?b=2&amp;a=1</loc><lastmod>2026-01-0${(i % 9) + 1}</lastmod></url>`).join('')}</urlset>`;

/** Responses of every kind the extract stage parses, the damaged and hostile ones too. */
const RESPONSES: Record<string, Omit<ResponseInput, 'text' | 'references'>> = {
  'HTML in Latin-1, X-Robots-Tag nofollow': base({
    headers: { 'content-type': 'text/html; charset=iso-8859-1', 'x-robots-tag': 'nofollow' },
    body: Buffer.concat([Buffer.from('<title>Caf'), Buffer.from([0xe9]), Buffer.from('</title><p>See <a href="/b">b</a> <a href="c?z=1&y=2#f">c</a></p><img srcset="/i1.png 1x, /i2.png 2x">')]),
    queryHandling: 'sort',
  }),
  'HTML with meta robots, base href, a form, rel=nofollow, and a link with a line break in it': base({
    headers: { 'content-type': 'text/html' },
    body: Buffer.from('<meta name="robots" content="noindex"><base href="http://example.org/dir/"><a href="x" rel="nofollow">x</a><a href="/a\nb">ab</a><form action="/s"><input name=q></form><link rel=stylesheet href=s.css><script src=/j.js></script>'),
  }),
  'malformed HTML, cut short': base({
    headers: { 'content-type': 'text/html; charset=utf-8' },
    body: Buffer.from('<html><body><div><a href="/one">1<a href=\'/two\'>2</div></span><p><a href="/thr'),
    truncated: true,
  }),
  'a page of 3,000 links': base({ headers: { 'content-type': 'text/html' }, body: Buffer.from(Array.from({ length: 3000 }, (_, i) => `<a href="/l/${i}">${i}</a>`).join('')) }),
  'HTML sniffed without a Content-Type, UTF-8 BOM': base({ body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('<!DOCTYPE html><a href="/x">x</a>')]) }),
  CSS: base({ url: 'http://example.org/css/a.css', headers: { 'content-type': 'text/css' }, body: Buffer.from('@import "b.css"; x{background:url(../i.png)}') }),
  'robots.txt': base({ url: 'http://example.org/robots.txt', headers: { 'content-type': 'text/plain' }, body: Buffer.from('User-agent: *\nSitemap: /sm.xml\nSitemap: http://example.org/sm2.xml.gz\n') }),
  'XML sitemap of 2,000 URLs': base({ url: 'http://example.org/sitemap.xml', headers: { 'content-type': 'application/xml' }, body: Buffer.from(sitemap(2000)), queryHandling: 'sort' }),
  'gzipped sitemap': base({ url: 'http://example.org/sitemap.xml.gz', headers: { 'content-type': 'application/octet-stream' }, body: gzipSync(sitemap(10)) }),
  'sitemap over the size cap': base({ url: 'http://example.org/big-sitemap.xml.gz', headers: { 'content-type': 'application/gzip' }, body: gzipSync(Buffer.alloc(3_000_000, 32)), maxDecodedBytes: 1_000_000 }),
  'text sitemap cut short': base({ url: 'http://example.org/sitemap.txt', headers: { 'content-type': 'text/plain' }, body: Buffer.from('http://example.org/a\nhttp://example.org/b\nhttp://example.org/c-cut'), truncated: true }),
  'RSS feed': base({
    url: 'http://example.org/feed',
    headers: { 'content-type': 'application/rss+xml' },
    body: Buffer.from('<rss><channel><title>News</title><item><title>One</title><link>/n/1</link><pubDate>Mon, 02 Nov 2026 10:00:00 GMT</pubDate></item><item><title>Two</title><link>http://example.org/n/2</link></item></channel></rss>'),
  }),
  'JSON feed': base({ url: 'http://example.org/feed.json', headers: { 'content-type': 'application/feed+json' }, body: Buffer.from(JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'J', items: [{ id: '1', url: '/j/1', title: 'J1' }] })) }),
  'a body that is no format we parse': base({ url: 'http://example.org/a.bin', headers: { 'content-type': 'application/octet-stream' }, body: Buffer.from([0, 1, 2, 3]) }),
};

/** What the crawl's thread gets for the same response, less what the thread never sends (extract-client.ts). */
function parsedHere(input: Omit<ResponseInput, 'text' | 'references'>) {
  const result = extractFromResponse({ ...input, text: false });
  delete result.htmlText;
  delete result.resolved;
  return result;
}

test('every kind of response parsed on the extraction thread gives what parsing on the crawl thread gives', async (t) => {
  const errors: unknown[] = [];
  t.mock.method(console, 'error', (msg: unknown) => errors.push(msg));
  for (const [name, input] of Object.entries(RESPONSES)) {
    const threaded = await extractOnThread(input);
    assert.ok(threaded, `${name}: parsed on the thread`);
    assert.deepEqual(threaded, parsedHere(input), name);
  }
  const links = (await extractOnThread(RESPONSES['HTML in Latin-1, X-Robots-Tag nofollow']!))!.links;
  assert.ok(links.length >= 4 && links.every((l) => l.nofollow), 'the header marked every link nofollow, and the marks came back');
  assert.ok(parsedHere(RESPONSES['sitemap over the size cap']!).failure, 'the cap case fails on either thread (so its equality above says something)');
  assert.deepEqual(errors, [], 'no thread failure was reported');
});

test("a caller's body is left as it was: the thread gets a copy, even of a Buffer that is a view into a larger one", async () => {
  const page = Buffer.from('xxxx<a href="/v">v</a>yyyy');
  const view = page.subarray(4, page.length - 4);
  const threaded = await extractOnThread(base({ headers: { 'content-type': 'text/html' }, body: view }));
  assert.deepEqual(threaded!.links.map((l) => l.url), ['http://example.org/v']);
  assert.equal(page.toString(), 'xxxx<a href="/v">v</a>yyyy');
  assert.equal(view.byteLength, page.length - 8);
});

test('packing keeps each link as it was: kinds, sources, nofollow marks, anchor texts and contexts', () => {
  const result = extractFromResponse({ ...RESPONSES['HTML with meta robots, base href, a form, rel=nofollow, and a link with a line break in it']!, text: true });
  assert.ok(result.links.some((l) => l.nofollow) && result.links.some((l) => !l.nofollow), 'a mix of marked and unmarked links');
  assert.ok(result.links.some((l) => l.anchorText), 'links with texts');
  assert.deepEqual(unpackExtraction(structuredClone(packExtraction(result))), result);
  const none = extractFromResponse(base({ headers: { 'content-type': 'text/html' }, body: Buffer.from('<p>no links</p>') }));
  assert.deepEqual(unpackExtraction(packExtraction(none)).links, []);
});
