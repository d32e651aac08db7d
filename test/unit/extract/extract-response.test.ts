import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { extractFromResponse, type ResponseInput } from '../../../worker/extract';
import { firstElementName } from '../../../worker/extract/first-element';
import { headersRecord, headerUrlText } from '../../../worker/fetch/http-heads';

const base = (over: Partial<ResponseInput>): ResponseInput => ({
  url: 'http://example.org/page',
  status: 200,
  headers: {},
  body: Buffer.alloc(0),
  maxDecodedBytes: 1_000_000,
  ...over,
});

test('3xx gives one redirect link from Location', () => {
  const r = extractFromResponse(base({ status: 301, headers: { location: '/new?b=1&a=2#x' }, queryHandling: 'sort', body: Buffer.from('<a href="/ignored">') }));
  assert.deepEqual(r, { kind: 'other', links: [{ url: 'http://example.org/new?a=2&b=1', kind: 'redirect', source: 'header@location', anchorText: '', context: '' }] });
  assert.deepEqual(extractFromResponse(base({ status: 304 })).links, []);
});

test('a 3xx whose Location leads to nothing fetchable has no link and says why; 304 and 300 without Location say nothing', () => {
  const unfollowed = (status: number, location?: string) => {
    const r = extractFromResponse(base({ status, headers: location === undefined ? {} : { location } }));
    assert.deepEqual(r.links, []);
    return r.unfollowedRedirect;
  };
  assert.equal(unfollowed(302, 'mailto:harbour@example.org'), 'redirect to a mailto: URL not followed (only http and https are fetched): "mailto:harbour@example.org"');
  assert.equal(unfollowed(301, 'javascript:void(0)'), 'redirect to a javascript: URL not followed (only http and https are fetched): "javascript:void(0)"');
  assert.equal(unfollowed(307), 'a 307 without a Location header: no target to follow');
  assert.equal(unfollowed(302, ' '), 'a 302 with an empty Location header: no target to follow');
  assert.equal(unfollowed(303, 'http://[::zz/'), 'redirect not followed: its Location "http://[::zz/" is no valid URL');
  assert.equal(unfollowed(308, 'http://a..b/'), 'redirect not followed: its Location "http://a..b/" names no host the crawl can fetch');
  assert.equal(unfollowed(302, `ftp://x/${'a'.repeat(500)}`), `redirect to a ftp: URL not followed (only http and https are fetched): "ftp://x/${'a'.repeat(192)}…"`, 'a long Location is cut');
  assert.equal(unfollowed(304), undefined);
  assert.equal(unfollowed(300), undefined);
  assert.equal(extractFromResponse(base({ status: 302, headers: { location: '/there' } })).unfollowedRedirect, undefined);
});

test('a 3xx with different Location headers names no target, and says so; the same one twice is followed', () => {
  const twice = (second: string) => extractFromResponse(base({ status: 302, headers: headersRecord(['Location', '/target', 'Location', second]) }));
  assert.deepEqual(twice('/other'), { kind: 'other', links: [], unfollowedRedirect: 'a 302 with 2 different Location headers ("/target", "/other"): no target followed, as browsers refuse such an answer' });
  assert.deepEqual(twice('/target').links.map((l) => l.url), ['http://example.org/target']);
});

test('HTML: links, title, text, charset from the header; X-Robots-Tag nofollow marks links', () => {
  const body = Buffer.concat([Buffer.from('<title>Caf'), Buffer.from([0xe9]), Buffer.from('</title><p>See <a href="/b">b</a></p>')]);
  const r = extractFromResponse(base({ headers: { 'content-type': 'text/html; charset=iso-8859-1', 'x-robots-tag': 'nofollow' }, body }));
  assert.equal(r.kind, 'html');
  assert.equal(r.charset, 'windows-1252');
  assert.equal(r.title, 'Caf\u00e9');
  assert.equal(r.text, 'See b');
  assert.equal(r.mainText, 'See b');
  assert.equal(r.htmlText, '<title>Caf\u00e9</title><p>See <a href="/b">b</a></p>', 'the page decoded with its charset');
  assert.deepEqual(r.metaRobots, { noindex: false, nofollow: true });
  assert.deepEqual(r.links, [{ url: 'http://example.org/b', kind: 'navigation', source: 'a@href', anchorText: 'b', context: 'See b', nofollow: true }]);
});

test('HTML sniffed when there is no Content-Type', () => {
  const r = extractFromResponse(base({ body: Buffer.from('<!DOCTYPE html><a href="/x">x</a>') }));
  assert.equal(r.kind, 'html');
  assert.equal(r.links[0].url, 'http://example.org/x');
});

test('CSS resolves against the stylesheet URL', () => {
  const r = extractFromResponse(base({ url: 'http://example.org/css/a.css', headers: { 'content-type': 'text/css' }, body: Buffer.from('@import "b.css"; x{background:url(../i.png)}') }));
  assert.equal(r.kind, 'css');
  assert.deepEqual(r.links.map((l) => [l.url, l.source]), [['http://example.org/css/b.css', 'css@import'], ['http://example.org/i.png', 'css@url']]);
});

test('robots.txt yields sitemap links', () => {
  const r = extractFromResponse(base({ url: 'http://example.org/robots.txt', headers: { 'content-type': 'text/plain' }, body: Buffer.from('User-agent: *\nSitemap: /sm.xml\n') }));
  assert.deepEqual(r, { kind: 'robots', links: [{ url: 'http://example.org/sm.xml', kind: 'sitemap', source: 'robots@sitemap', anchorText: '', context: '' }] });
});

test('sitemaps: XML by sniffing, gzipped by URL, entries returned, bombs reported not thrown', () => {
  const xml = '<?xml version="1.0"?><urlset><url><loc>http://example.org/p?z=1&amp;a=2</loc><changefreq>weekly</changefreq></url></urlset>';
  const r = extractFromResponse(base({ url: 'http://example.org/sm.xml', headers: { 'content-type': 'text/xml' }, body: Buffer.from(xml), queryHandling: 'sort' }));
  assert.equal(r.kind, 'sitemap');
  assert.deepEqual(r.links.map((l) => [l.url, l.kind]), [['http://example.org/p?a=2&z=1', 'navigation']]);
  assert.deepEqual(r.sitemapEntries, [{ url: 'http://example.org/p?z=1&a=2', changefreq: 'weekly' }]);
  const index = '<sitemapindex><sitemap><loc>http://example.org/s2.xml</loc></sitemap></sitemapindex>';
  const gz = extractFromResponse(base({ url: 'http://example.org/sitemap.xml.gz', headers: { 'content-type': 'application/octet-stream' }, body: gzipSync(Buffer.from(index)) }));
  assert.deepEqual(gz.links.map((l) => [l.url, l.kind]), [['http://example.org/s2.xml', 'sitemap']]);
  const bomb = extractFromResponse(base({ url: 'http://example.org/sitemap.xml.gz', headers: { 'content-type': 'application/gzip' }, body: gzipSync(Buffer.alloc(4_000_000)), maxDecodedBytes: 100_000 }));
  assert.equal(bomb.kind, 'sitemap');
  assert.deepEqual(bomb.links, []);
  assert.equal(bomb.failure?.reason, 'decompression-bomb');
  // A .gz sitemap cut at the body-size cap: the extract stage would have thrown, and the capture
  // (archived after extraction) was lost with it.
  const whole = gzipSync(Buffer.from(`<urlset>${Array.from({ length: 200 }, (_, i) => `<url><loc>http://example.org/p${i}</loc></url>`).join('')}</urlset>`));
  const cut = extractFromResponse(base({ url: 'http://example.org/sitemap.xml.gz', headers: { 'content-type': 'application/x-gzip' }, body: whole.subarray(0, whole.length >> 1) }));
  assert.equal(cut.kind, 'sitemap');
  assert.equal(cut.links[0]?.url, 'http://example.org/p0');
});

// Before, any path ending in /robots.txt was read as robots.txt: an HTML page named so (a wiki's
// article /wiki/Robots.txt) gave no links, title or requisites.
test("only the site root's /robots.txt is robots.txt; a page named so elsewhere is what its type says", () => {
  const robots = Buffer.from('User-agent: *\nSitemap: /sm.xml\n');
  assert.equal(extractFromResponse(base({ url: 'http://example.org/robots.txt?x=1', headers: { 'content-type': 'text/plain' }, body: robots })).kind, 'robots');
  const page = extractFromResponse(base({ url: 'http://example.org/wiki/Robots.txt', headers: { 'content-type': 'text/html' }, body: Buffer.from('<title>Robots.txt</title><a href="/wiki/Crawler">c</a>') }));
  assert.equal(page.kind, 'html');
  assert.equal(page.title, 'Robots.txt');
  assert.deepEqual(page.links.map((l) => l.url), ['http://example.org/wiki/Crawler']);
  assert.equal(extractFromResponse(base({ url: 'http://example.org/docs/robots.txt', headers: { 'content-type': 'text/plain' }, body: robots })).kind, 'other');
});

// Before, a sitemap named in robots.txt was fetched but read only when its name or first 1 KB said
// "sitemap": a gzipped /maps/pages.xml.gz, a text /urls.txt or a <urlset> after a long comment gave no links.
test('a URL named as a sitemap is read as one whatever its name; an XML root is found past a long prolog', () => {
  const declared = (url: string, type: string, body: Buffer, declaredSitemap = true) => extractFromResponse(base({ url, headers: { 'content-type': type }, body, declaredSitemap }));
  const urlset = '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://example.org/from-gz</loc></url></urlset>';
  const gz = declared('http://example.org/maps/pages.xml.gz', 'application/gzip', gzipSync(urlset));
  assert.deepEqual([gz.kind, gz.links.map((l) => l.url)], ['sitemap', ['http://example.org/from-gz']]);
  assert.equal(declared('http://example.org/maps/pages.xml.gz', 'application/gzip', gzipSync(urlset), false).kind, 'other', 'undeclared and unnamed: not guessed');
  const text = declared('http://example.org/urls.txt', 'text/plain', Buffer.from('http://example.org/from-txt\n'));
  assert.deepEqual([text.kind, text.links.map((l) => l.url)], ['sitemap', ['http://example.org/from-txt']]);
  // A feed named as a sitemap (sitemaps.org accepts RSS and Atom) is read as a feed.
  const feed = declared('http://example.org/updates', 'application/xml', Buffer.from('<rss><channel><item><title>t</title><link>http://example.org/post</link></item></channel></rss>'));
  assert.deepEqual([feed.kind, feed.links.map((l) => l.url)], ['feed', ['http://example.org/post']]);
  const licence = `<?xml version="1.0"?>\n<!--\n${'Licence text, line after line.\n'.repeat(60)}-->\n<?xml-stylesheet href="/s.xsl"?>\n`;
  const prolog = extractFromResponse(base({ url: 'http://example.org/prolog.xml', headers: { 'content-type': 'application/xml' }, body: Buffer.from(`${licence}<urlset><url><loc>http://example.org/from-prolog</loc></url></urlset>`) }));
  assert.deepEqual([prolog.kind, prolog.links.map((l) => l.url)], ['sitemap', ['http://example.org/from-prolog']]);
});

test('firstElementName: past declarations, comments, processing instructions and a doctype with an internal subset', () => {
  assert.equal(firstElementName('<?xml version="1.0"?><!-- a <urlset> in a comment --><rss version="2.0">'), 'rss');
  assert.equal(firstElementName('\n <!DOCTYPE feed [ <!ENTITY a "<b>"> ]>\n<a:feed xmlns:a="http://www.w3.org/2005/Atom">'), 'a:feed');
  assert.equal(firstElementName('<!doctype html><html>'), 'html');
  assert.equal(firstElementName('http://example.org/a\n'), null);
  assert.equal(firstElementName('<!-- never closed <urlset>'), null);
});

// The WHATWG MIME sniffing standard takes a leading comment as HTML's signature.
test('without a Content-Type, HTML that begins with a comment is sniffed as HTML', () => {
  const r = extractFromResponse(base({ body: Buffer.from('<!-- generated --><p>See <a href="/x">x</a></p>') }));
  assert.equal(r.kind, 'html');
  assert.deepEqual(r.links.map((l) => l.url), ['http://example.org/x']);
});

test('a text sitemap whose body was cut short: its cut last line is no link', () => {
  const body = Buffer.from('http://example.org/a\nhttp://example.org/b\nhttp://example.org/c-long-na');
  const at = (truncated?: boolean) => extractFromResponse(base({ url: 'http://example.org/sitemap.txt', headers: { 'content-type': 'text/plain' }, body, truncated })).links.map((l) => l.url);
  assert.deepEqual(at(true), ['http://example.org/a', 'http://example.org/b']);
  assert.deepEqual(at(false), ['http://example.org/a', 'http://example.org/b', 'http://example.org/c-long-na']);
  assert.deepEqual(at(undefined), at(false));
});

test('UTF-16 XML with a byte order mark is sniffed as what it is', () => {
  const utf16 = (text: string, order: 'le' | 'be') => {
    const le = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(text, 'utf16le')]);
    return order === 'le' ? le : le.swap16();
  };
  const sitemap = '<?xml version="1.0" encoding="UTF-16"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://example.org/p</loc></url></urlset>';
  const rss = '<?xml version="1.0" encoding="UTF-16"?><rss version="2.0"><channel><title>T</title><item><title>One</title><link>/one</link></item></channel></rss>';
  for (const order of ['le', 'be'] as const) {
    for (const type of ['application/xml', 'text/xml', '']) {
      const map = extractFromResponse(base({ url: 'http://example.org/map.xml', headers: type ? { 'content-type': type } : {}, body: utf16(sitemap, order) }));
      assert.equal(map.kind, 'sitemap', `${order} ${type}`);
      assert.deepEqual(map.links.map((l) => l.url), ['http://example.org/p']);
      const feed = extractFromResponse(base({ url: 'http://example.org/news', headers: type ? { 'content-type': type } : {}, body: utf16(rss, order) }));
      assert.equal(feed.kind, 'feed', `${order} ${type}`);
      assert.deepEqual(feed.links.map((l) => l.url), ['http://example.org/one']);
    }
  }
  // A UTF-8 byte order mark, as before.
  const bom8 = extractFromResponse(base({ url: 'http://example.org/map.xml', headers: { 'content-type': 'application/xml' }, body: Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(sitemap.replace('UTF-16', 'UTF-8'))]) }));
  assert.equal(bom8.kind, 'sitemap');
});

test('feeds: by MIME type and by sniffing XML', () => {
  const rss = '<rss><channel><title>T</title><item><title>One</title><link>/one</link></item></channel></rss>';
  for (const ct of ['application/rss+xml', 'application/xml', 'text/xml; charset=utf-8']) {
    const r = extractFromResponse(base({ headers: { 'content-type': ct }, body: Buffer.from(rss) }));
    assert.equal(r.kind, 'feed', ct);
    assert.equal(r.title, 'T');
    assert.deepEqual(r.links, [{ url: 'http://example.org/one', kind: 'navigation', source: 'feed@link', anchorText: 'One', context: '' }]);
  }
  const json = JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 'J', items: [{ id: '1', url: '/j' }] });
  assert.equal(extractFromResponse(base({ headers: { 'content-type': 'application/json' }, body: Buffer.from(json) })).links[0].url, 'http://example.org/j');
});

test('other types are not parsed', () => {
  for (const ct of ['image/png', 'application/pdf', 'application/json', 'text/plain']) {
    assert.deepEqual(extractFromResponse(base({ headers: { 'content-type': ct }, body: Buffer.from('<a href="/x">x</a>{}') })), { kind: 'other', links: [] }, ct);
  }
});

test("a Location's raw UTF-8 bytes are read as UTF-8; other bytes from 0x80 are percent-encoded as they are, as Chromium requests them", () => {
  // Header values arrive one character a byte (headersRecord reads them as Latin-1).
  const received = (bytes: Buffer) => headersRecord([Buffer.from('Location'), bytes]);
  const utf8 = extractFromResponse(base({ status: 302, headers: received(Buffer.from('/redir-café-target', 'utf8')) }));
  assert.equal(utf8.links[0]!.url, 'http://example.org/redir-caf%C3%A9-target', 'not /redir-caf%C3%83%C2%A9-target');
  const latin1 = extractFromResponse(base({ status: 302, headers: received(Buffer.from('/new/caf\xe9?q=\xe9', 'latin1')) }));
  assert.equal(latin1.links[0]!.url, 'http://example.org/new/caf%E9?q=%E9', 'invalid UTF-8: each byte escaped, in the path and the query');
  const mixed = extractFromResponse(base({ status: 302, headers: received(Buffer.concat([Buffer.from('/é/', 'utf8'), Buffer.from([0xff])])) }));
  assert.equal(mixed.links[0]!.url, 'http://example.org/%C3%A9/%FF', 'a UTF-8 sequence beside an invalid byte: the same bytes');
  assert.equal(headerUrlText('/plain?a=1'), '/plain?a=1');
});

test('a windows-1252 page: its title and a link with œ in its path read as a browser reads them', () => {
  const body = Buffer.concat([Buffer.from('<html><head><title>Le c'), Buffer.from([0x9c]), Buffer.from('ur '), Buffer.from([0x80]), Buffer.from('</title></head><body><a href="/c'), Buffer.from([0x9c]), Buffer.from('ur">x</a></body></html>')]);
  const r = extractFromResponse(base({ headers: { 'content-type': 'text/html; charset=iso-8859-1' }, body }));
  assert.equal(r.charset, 'windows-1252');
  assert.deepEqual(r.links.map((l) => l.url), ['http://example.org/c%C5%93ur']);
  assert.equal(r.title, 'Le cœur €');
});

test("a windows-1252 page's link queries are encoded in windows-1252, as browsers request them; a style attribute's in UTF-8", () => {
  const html = '<style>p{background:url(/i/block.png?q=café)}</style><a href="/a?q=café">a</a><img src="/i.png?q=café"><a href="/e?q=&eacute;">e</a><a href="http://other.example/x?q=é">x</a><p style="background:url(/i/attr.png?q=é)">';
  const r = extractFromResponse(base({ headers: { 'content-type': 'text/html; charset=windows-1252' }, body: Buffer.from(html, 'latin1') }));
  assert.deepEqual(r.links.map((l) => l.url).sort(), [
    'http://example.org/a?q=caf%E9', 'http://example.org/e?q=%E9', 'http://example.org/i.png?q=caf%E9', 'http://example.org/i/attr.png?q=%C3%A9',
    'http://example.org/i/block.png?q=caf%E9', 'http://other.example/x?q=%E9',
  ]);
  const sheet = extractFromResponse(base({ url: 'http://example.org/s.css', headers: { 'content-type': 'text/css; charset=windows-1252' }, body: Buffer.from('body{background:url(/i/sheet.png?q=café)}', 'latin1') }));
  assert.deepEqual(sheet.links.map((l) => l.url), ['http://example.org/i/sheet.png?q=caf%E9']);
  const utf8 = extractFromResponse(base({ headers: { 'content-type': 'text/html; charset=utf-8' }, body: Buffer.from('<a href="/a?q=café">a</a>') }));
  assert.deepEqual(utf8.links.map((l) => l.url), ['http://example.org/a?q=caf%C3%A9']);
});
