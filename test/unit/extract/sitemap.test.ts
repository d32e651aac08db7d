import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants, deflateRawSync, gzipSync } from 'node:zlib';
import { parseSitemap, robotsSitemaps, SitemapTooLargeError } from '../../../worker/extract';

const URL_ = 'http://example.org/sitemap.xml';
const opts = { url: URL_, contentType: 'application/xml', maxDecodedBytes: 1_000_000 };

const URLSET = `<?xml version="1.0" encoding="UTF-8"?>
<!DOCTYPE urlset [<!ENTITY xxe SYSTEM "file:///etc/passwd"><!ENTITY big "BIG">]>
<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <url><loc>http://example.org/</loc><lastmod>2024-05-01</lastmod><changefreq>Daily</changefreq><priority>1.0</priority></url>
  <url><loc> http://example.org/a?x=1&amp;y=2 </loc><priority>0.3</priority><image:image><image:loc>http://example.org/i.png</image:loc></image:image></url>
  <url><loc>/relative</loc><priority>nonsense</priority></url>
  <url><loc>http://example.org/&xxe;&big;</loc></url>
  <url><loc><![CDATA[http://example.org/cdata]]></loc></url>
  <url><loc>javascript:alert(1)</loc></url>
</urlset>`;

test('urlset with lastmod, changefreq, priority; entities from a DOCTYPE are not resolved', () => {
  const r = parseSitemap(Buffer.from(URLSET), opts);
  assert.deepEqual(r.sitemaps, []);
  assert.deepEqual(r.urls, [
    { url: 'http://example.org/', lastmod: '2024-05-01', changefreq: 'daily', priority: 1 },
    { url: 'http://example.org/a?x=1&y=2', priority: 0.3 },
    { url: 'http://example.org/relative' },
    { url: 'http://example.org/&xxe;&big;' },
    { url: 'http://example.org/cdata' },
  ]);
  assert.ok(!JSON.stringify(r).includes('root:'), 'no file contents');
});

test('predefined and numeric references are decoded, a CDATA section is taken as written', () => {
  const xml = `<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <url><loc>http://example.org/a?x=1&amp;y=2&#38;z=3</loc></url>
    <url><loc><![CDATA[http://example.org/b?x=1&amp;y=2]]></loc></url>
    <url><loc>http://example.org/c?q=&lt;&gt;&quot;&apos;</loc><lastmod>2024-05-01&#x54;10:00:00Z</lastmod></url>
  </urlset>`;
  const { urls } = parseSitemap(Buffer.from(xml), opts);
  assert.deepEqual(urls.map((u) => u.url), ['http://example.org/a?x=1&y=2&z=3', 'http://example.org/b?x=1&amp;y=2', 'http://example.org/c?q=%3C%3E%22%27']);
  assert.equal(urls[2]!.lastmod, '2024-05-01T10:00:00Z');
});

test('sitemap index', () => {
  const xml = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">
    <sitemap><loc>http://example.org/s1.xml.gz</loc><lastmod>2024-01-01</lastmod></sitemap>
    <sitemap><loc>http://example.org/s2.xml</loc></sitemap></sitemapindex>`;
  assert.deepEqual(parseSitemap(Buffer.from(xml), opts), { urls: [], sitemaps: ['http://example.org/s1.xml.gz', 'http://example.org/s2.xml'] });
});

test('a sitemap whose elements carry a namespace prefix, with extension elements of other prefixes left alone', () => {
  const xml = `<?xml version="1.0"?>
<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">
  <sm:url><sm:loc>http://example.org/a</sm:loc><sm:changefreq>weekly</sm:changefreq><image:image><image:loc>http://example.org/i.png</image:loc></image:image></sm:url>
  <sm:url><sm:loc>http://example.org/b</sm:loc></sm:url>
</sm:urlset>`;
  assert.deepEqual(parseSitemap(Buffer.from(xml), opts), { urls: [{ url: 'http://example.org/a', changefreq: 'weekly' }, { url: 'http://example.org/b' }], sitemaps: [] });
  const index = `<ns0:sitemapindex xmlns:ns0="http://www.sitemaps.org/schemas/sitemap/0.9"><ns0:sitemap><ns0:loc>http://example.org/s1.xml</ns0:loc></ns0:sitemap></ns0:sitemapindex>`;
  assert.deepEqual(parseSitemap(Buffer.from(index), opts), { urls: [], sitemaps: ['http://example.org/s1.xml'] });
});

test('gzipped sitemap, and a gzip bomb stopped at the cap', () => {
  const r = parseSitemap(gzipSync(Buffer.from(URLSET)), { ...opts, contentType: 'application/x-gzip' });
  assert.equal(r.urls.length, 5);
  const bomb = gzipSync(Buffer.alloc(50 * 1024 * 1024, 0x20));
  assert.ok(bomb.length < 100_000);
  assert.throws(
    () => parseSitemap(bomb, { ...opts, maxDecodedBytes: 1024 * 1024 }),
    (err: unknown) => err instanceof SitemapTooLargeError && err.reason === 'decompression-bomb' && err.limit === 1024 * 1024,
  );
  assert.throws(() => parseSitemap(Buffer.from(URLSET), { ...opts, maxDecodedBytes: 100 }), SitemapTooLargeError);
});

test('a gzipped sitemap is read in the encoding its XML declaration names (the gzip\'s Content-Type has no charset)', () => {
  const xml = Buffer.concat([
    Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>http://example.org/caf'),
    Buffer.from([0xe9]), // é in Latin-1, not valid UTF-8
    Buffer.from('</loc></url></urlset>'),
  ]);
  for (const contentType of ['application/x-gzip', 'application/octet-stream', undefined]) {
    assert.deepEqual(parseSitemap(gzipSync(xml), { ...opts, contentType }).urls, [{ url: 'http://example.org/caf%C3%A9' }], String(contentType));
  }
  // Without a declaration UTF-8 stays the reading of UTF-8 bytes.
  const utf8 = Buffer.from('<urlset><url><loc>http://example.org/caf\u00e9</loc></url></urlset>');
  assert.deepEqual(parseSitemap(gzipSync(utf8), { ...opts, contentType: 'application/x-gzip' }).urls, [{ url: 'http://example.org/caf%C3%A9' }]);
});

test('a gzipped sitemap cut short or damaged gives what decoded before the cut, and never throws', () => {
  const xml = `<urlset>${Array.from({ length: 300 }, (_, i) => `<url><loc>http://example.org/p${i}</loc></url>`).join('')}</urlset>`;
  const gz = gzipSync(Buffer.from(xml));
  // As a capture cut at the body-size cap (WARC-Truncated: length) arrives.
  const cut = parseSitemap(gz.subarray(0, gz.length >> 1), { ...opts, contentType: 'application/x-gzip' });
  assert.ok(cut.urls.length > 10 && cut.urls.length < 300, `${cut.urls.length} URLs`);
  assert.deepEqual(cut.urls.slice(0, 2), [{ url: 'http://example.org/p0' }, { url: 'http://example.org/p1' }]);
  // Not deflate data at all past the gzip header.
  const damaged = Buffer.concat([gz.subarray(0, 10), Buffer.alloc(200, 0xff)]);
  assert.deepEqual(parseSitemap(damaged, { ...opts, contentType: 'application/x-gzip' }), { urls: [], sitemaps: [] });
  // The cap still holds for a stream that is cut short.
  const bomb = gzipSync(Buffer.alloc(5 * 1024 * 1024, 0x20));
  assert.throws(() => parseSitemap(bomb.subarray(0, bomb.length - 20), { ...opts, maxDecodedBytes: 1024 * 1024 }), SitemapTooLargeError);
});

/** Page URLs that compress poorly enough to fill many KB of gzip. */
const pages = (n: number) => Array.from({ length: n }, (_, i) => `http://example.org/p${i}-${((i * 2654435761) % 4294967296).toString(36)}`);

/** A gzip stream of `text` flushed to a byte boundary and followed by damage: a block of the reserved type. */
function gzipThenDamage(text: string): Buffer {
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff]);
  return Buffer.concat([header, deflateRawSync(Buffer.from(text), { finishFlush: constants.Z_SYNC_FLUSH }), Buffer.alloc(64, 0xff)]);
}

test('a gzipped sitemap damaged midway gives the URLs decoded before the damage', () => {
  const gz = { ...opts, contentType: 'application/x-gzip' };
  const all = pages(3000);
  const xml = `<urlset>${all.map((u) => `<url><loc>${u}</loc></url>`).join('')}`;
  const damaged = gzipThenDamage(xml);
  assert.ok(damaged.length > 16 * 1024, `${damaged.length} bytes: many slices before the damage`);
  const { urls } = parseSitemap(damaged, gz);
  // All but those decoded from the last KB before the damage, in order, none cut.
  assert.ok(urls.length > 2500, `${urls.length} URLs`);
  assert.deepEqual(urls.map((u) => u.url), all.slice(0, urls.length));
  // Damage that still decodes as something, told only by the checksum: what came before it is read.
  const whole = gzipSync(Buffer.from(`${xml}</urlset>`));
  const overwritten = Buffer.from(whole);
  overwritten.fill(0x55, whole.length >> 1, (whole.length >> 1) + 40);
  const before = parseSitemap(overwritten, gz).urls.map((u) => u.url);
  assert.ok(before.length > 1000, `${before.length} URLs`);
  assert.deepEqual(before.slice(0, 1000), all.slice(0, 1000));
  // A plain-text sitemap damaged mid-line: the line cut by the damage is left out.
  const text = parseSitemap(gzipThenDamage(`${all.join('\n')}\nhttp://example.org/cut-by-the-dam`), gz).urls.map((u) => u.url);
  assert.ok(text.length > 2500, `${text.length} URLs`);
  assert.deepEqual(text, all.slice(0, text.length));
  // A bomb damaged past the cap still hits the cap.
  const bomb = Buffer.from(gzipSync(Buffer.alloc(5 * 1024 * 1024, 0x20)));
  bomb.fill(0xff, bomb.length - 200, bomb.length - 100);
  assert.throws(() => parseSitemap(bomb, { ...gz, maxDecodedBytes: 1024 * 1024 }), SitemapTooLargeError);
});

test('a sitemap cut inside a value leaves out the cut value, and keeps the entries read whole', () => {
  const head = '<urlset><url><loc>http://example.org/first</loc></url><url><loc>http://example.org/second</loc><lastmod>2024-0';
  assert.deepEqual(parseSitemap(Buffer.from(head), opts).urls, [{ url: 'http://example.org/first' }, { url: 'http://example.org/second' }]);
  const cutLoc = '<urlset><url><loc>http://example.org/first</loc></url><url><loc>http://example.org/second-long-pa';
  assert.deepEqual(parseSitemap(Buffer.from(cutLoc), opts).urls, [{ url: 'http://example.org/first' }]);
  const cutIndex = '<sitemapindex><sitemap><loc>http://example.org/s1.xml</loc></sitemap><sitemap><loc>http://example.org/s2.x';
  assert.deepEqual(parseSitemap(Buffer.from(cutIndex), opts).sitemaps, ['http://example.org/s1.xml']);
});

test('an XML sitemap whose document ends inside a value says which value it left out, none when no value was open', () => {
  const cutLoc = '<urlset><url><loc>http://example.org/first</loc></url><url><loc> http://example.org/second-long-pa';
  assert.deepEqual(parseSitemap(Buffer.from(cutLoc), opts).cutValue, { element: 'loc', text: 'http://example.org/second-long-pa' });
  const cutDate = '<sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc>http://example.org/a</sm:loc><sm:lastmod>2024-0';
  assert.deepEqual(parseSitemap(Buffer.from(cutDate), opts).cutValue, { element: 'lastmod', text: '2024-0' });
  const cutIndex = '<sitemapindex><sitemap><loc>http://example.org/s1.xml</loc></sitemap><sitemap><loc><![CDATA[http://example.org/s2.x';
  assert.deepEqual(parseSitemap(Buffer.from(cutIndex), opts).cutValue, { element: 'loc', text: 'http://example.org/s2.x' });
  for (const whole of [
    '<urlset><url><loc>http://example.org/first</loc></url><url><lo',
    '<urlset><url><loc>http://example.org/first</loc></url><url><loc>  ',
    '<urlset><url><loc>http://example.org/first</loc></url></urlset>',
  ]) assert.equal('cutValue' in parseSitemap(Buffer.from(whole), opts), false, whole);
});

test('plain-text sitemap', () => {
  const text = 'http://example.org/one\r\n\n  http://example.org/two  \nnot a url\nftp://example.org/x\n';
  assert.deepEqual(parseSitemap(Buffer.from(text), { ...opts, contentType: 'text/plain' }).urls, [
    { url: 'http://example.org/one' },
    { url: 'http://example.org/two' },
  ]);
});

test('a plain-text sitemap cut short leaves out its cut last line', () => {
  const text = { ...opts, contentType: 'text/plain' };
  const cut = 'http://example.org/first\nhttp://example.org/second-long-pa';
  assert.deepEqual(parseSitemap(Buffer.from(cut), { ...text, truncated: true }).urls, [{ url: 'http://example.org/first' }]);
  // Cut just after a line break (either kind): every line is whole.
  for (const end of ['\n', '\r\n', '\r']) {
    assert.deepEqual(parseSitemap(Buffer.from(`http://example.org/first${end}http://example.org/second${end}`), { ...text, truncated: true }).urls, [{ url: 'http://example.org/first' }, { url: 'http://example.org/second' }], JSON.stringify(end));
  }
  // A whole file's last line needs no line break.
  assert.deepEqual(parseSitemap(Buffer.from(cut), text).urls, [{ url: 'http://example.org/first' }, { url: 'http://example.org/second-long-pa' }]);
});

test('a plain-text sitemap cut short says which last line it left out, none when the cut fell after a line break', () => {
  const text = { ...opts, contentType: 'text/plain', truncated: true };
  assert.equal(parseSitemap(Buffer.from('http://example.org/first\nhttp://example.org/second-long-pa'), text).cutLine, 'http://example.org/second-long-pa');
  assert.equal('cutLine' in parseSitemap(Buffer.from('http://example.org/first\n'), text), false);
  assert.equal('cutLine' in parseSitemap(Buffer.from('http://example.org/first\nhttp://example.org/second'), { ...text, truncated: false }), false);
});

test('robots.txt Sitemap lines', () => {
  const robots = `User-agent: *\nDisallow: /private\nSitemap: http://example.org/sitemap.xml\nsitemap:/relative-map.xml\n  SITEMAP :  https://cdn.example.net/map.xml.gz # comment\nSitemap: http://example.org/sitemap.xml\n# Sitemap: http://example.org/commented.xml\n`;
  assert.deepEqual(robotsSitemaps(robots, 'http://example.org/robots.txt'), [
    'http://example.org/sitemap.xml',
    'http://example.org/relative-map.xml',
    'https://cdn.example.net/map.xml.gz',
  ]);
});
