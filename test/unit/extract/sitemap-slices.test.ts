import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { parseSitemap, parseSitemapYielding, sliceEnd, SITEMAP_SLICE_CHARS } from '../../../worker/extract/sitemap';
import { extractFromResponse, extractFromResponseYielding, type ResponseInput } from '../../../worker/extract';

const opts = { url: 'http://example.org/sitemap.xml', contentType: 'application/xml', maxDecodedBytes: 50_000_000 };

/** A sitemap whose values hold what a slice boundary could cut: references, CDATA with '>', '>' in text, comments. */
function awkwardSitemap(n: number): string {
  const entries = Array.from({ length: n }, (_, i) => {
    const loc = i % 4 === 0 ? `<loc><![CDATA[http://example.org/c?a=1>2&b=${i}]]></loc>`
      : i % 4 === 1 ? `<loc>http://example.org/e?x=1&amp;y=${i}&#38;z=&#x26;</loc>`
      : i % 4 === 2 ? `<loc>http://example.org/gt/${i}?q=a>b</loc><!-- a comment > with > marks -->`
      : `<loc>  http://example.org/p/${i}.html  </loc><lastmod>2026-11-${String((i % 28) + 1).padStart(2, '0')}</lastmod><priority>0.${i % 10}</priority>`;
    return `<url>${loc}</url>`;
  });
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${entries.join('\n')}\n</urlset>\n`;
}

test('parsed slice by slice, a sitemap gives what the whole parse gives, whatever the slice size', async () => {
  const xml = Buffer.from(awkwardSitemap(400));
  const whole = parseSitemap(xml, opts);
  assert.equal(whole.urls.length, 400);
  assert.ok(whole.urls.some((u) => u.url === 'http://example.org/c?a=1%3E2&b=0' || u.url.startsWith('http://example.org/c?a=1')), JSON.stringify(whole.urls[0]));
  for (const slice of [1, 7, 64, 1000, SITEMAP_SLICE_CHARS]) assert.deepEqual(await parseSitemapYielding(xml, opts, slice), whole, `slices of ${slice}`);
  // Gzipped, and cut short inside a value: the cut value is said the same way.
  assert.deepEqual(await parseSitemapYielding(gzipSync(xml), opts, 50), parseSitemap(gzipSync(xml), opts));
  const cut = xml.subarray(0, xml.indexOf('</loc>', 20_000) - 5);
  const cutWhole = parseSitemap(cut, { ...opts, truncated: true });
  assert.ok(cutWhole.cutValue, 'the last value is cut');
  assert.deepEqual(await parseSitemapYielding(cut, { ...opts, truncated: true }, 33), cutWhole);
});

test('between slices the event loop has its turn; a text sitemap is parsed at once', async () => {
  const xml = Buffer.from(awkwardSitemap(2000));
  let turns = 0;
  const ticking = setInterval(() => turns++, 0);
  const slices = Math.ceil(xml.length / 4096);
  await parseSitemapYielding(xml, opts, 4096);
  clearInterval(ticking);
  assert.ok(turns >= 2, `timers ran ${turns} times during ${slices} slices`);
  const text = Buffer.from('http://example.org/a\nhttp://example.org/b\n');
  assert.deepEqual(await parseSitemapYielding(text, { ...opts, contentType: 'text/plain' }, 1), parseSitemap(text, { ...opts, contentType: 'text/plain' }));
});

test('a slice ends just after a ">" at or past the wanted end, or at the end of the text', () => {
  assert.equal(sliceEnd('<a>bc</a>', 0), 3);
  assert.equal(sliceEnd('<a>bc</a>', 3), 9);
  assert.equal(sliceEnd('<a>bc', 3), 5);
  assert.equal(sliceEnd('<a>', 10), 3);
});

test('the extract stage\'s yielding extraction gives what extractFromResponse gives: a large sitemap, a gzipped one over the cap, a page, a redirect', async () => {
  const xml = Buffer.from(awkwardSitemap(3000));
  assert.ok(xml.length > 2 * SITEMAP_SLICE_CHARS, 'several slices');
  const base = { url: 'http://example.org/sitemap.xml', status: 200, maxDecodedBytes: 50_000_000, queryHandling: 'strip' as const };
  const inputs: ResponseInput[] = [
    { ...base, headers: { 'content-type': 'application/xml' }, body: xml },
    { ...base, headers: { 'content-type': 'application/x-gzip' }, body: gzipSync(xml), maxDecodedBytes: 1000 },
    { ...base, url: 'http://example.org/', headers: { 'content-type': 'text/html' }, body: Buffer.from('<title>t</title><a href="/a?b=1">a</a>') },
    { ...base, status: 301, headers: { location: '/moved' }, body: Buffer.alloc(0) },
  ];
  for (const input of inputs) assert.deepEqual(await extractFromResponseYielding(input), extractFromResponse(input), input.url);
  const big = await extractFromResponseYielding(inputs[0]!);
  assert.equal(big.kind, 'sitemap');
  // With the query stripped, the 750 CDATA locations and the 750 with references come down to one each.
  assert.equal(big.links.length, 750 + 750 + 1 + 1);
  assert.equal((await extractFromResponseYielding(inputs[1]!)).failure?.reason, 'decompression-bomb');
});
