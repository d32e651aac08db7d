import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { extractFromResponse, parseFeed, parseSitemap, SitemapTooLargeError, type ResponseExtraction } from '../../../worker/extract';
import { canonicalize, checkScope, compileScope } from '../../../worker/url';
import { parseRobotsRules } from '../../../worker/robots/robots-rules';
import { parseKnowledgeBase } from '../../../worker/aah/kb-parser';
import { DEFAULT_KB_PATH } from '../../../worker/aah/default-kb';
import { testKnowledgeBase } from '../../../worker/aah/tester';
import { parseIcd } from '../../../worker/icd/schema';
import { createFocusScorer, pageFromHtml, scorePage } from '../../../worker/crawler/focus-scorer';

/**
 * Generated hostile input through every parser a crawl feeds with what servers send (and the
 * cockpit with what users paste): each must keep its contract — no exception escapes where none
 * is documented, and what comes out is well-formed — whatever the bytes. Runs are seeded, so a
 * failure prints the input that caused it and repeats.
 */
// A longer hunt: TIDEMARK_FUZZ_SEED=<n> TIDEMARK_FUZZ_SCALE=<k> node --import tsx --test <this file>.
const SEED = Number(process.env.TIDEMARK_FUZZ_SEED ?? 20261124);
const SCALE = Number(process.env.TIDEMARK_FUZZ_SCALE ?? 1);
const runs = (numRuns: number) => ({ seed: SEED, numRuns: Math.round(numRuns * SCALE) });

/** Pieces of markup that parsers trip on, to be strung together at random. */
const markupPiece = fc.oneof(
  fc.constantFrom(
    '<a href="', '<a href=\'', '<a href=', '">', "'>", '>', '</a>', '<p>', '</p>', '<div class="nav">', '</div>', '<main>', '</main>',
    '<base href="', '<meta http-equiv="refresh" content="0; url=', '<meta charset="', '<meta name="robots" content="noindex">',
    '<img srcset="', ' 2x, ', ' 100w,', '<img src=', '<link rel="stylesheet" href=', '<script>', '</script>', '<style>', '</style>',
    'url(', ')', '@import "', '<iframe src=', '<form action=', ' method="get">', '<area href=', '<object data=', '<embed src=',
    '<video poster=', '<source src=', '<script type="module">', '<script type="importmap">', '{"imports": {"a": "', '"}}', 'import "', '<!--', '-->', '<![CDATA[', ']]>', '<!DOCTYPE html>', '<title>', '</title>', '<svg><a xlink:href=',
    '&amp;', '&#0;', '&#x110000;', '&#xD800;', '&nbsp', '&unknown;', '\u0000', '\uD800', '\uDFFF', '\uFEFF', '\r\n', '\t', '  ',
    'http://', 'https://', '//', '/../', '/./', '?', '#', '%', '%zz', '%00', ':99999', '[::1]', 'xn--', 'xn--zz', 'javascript:', 'mailto:',
    'data:text/html,', 'ftp://', 'http://user:pw@', 'http://127.0.0.1', 'http://ex\u00e4mple.org', '\u202e', 'a'.repeat(300),
    '<div>'.repeat(1000), '<ul><li>'.repeat(600), '<table><tr><td>'.repeat(300), '</span>'.repeat(300),
  ),
  fc.string({ maxLength: 20 }),
  fc.string({ unit: 'grapheme', maxLength: 10 }),
);
const markup = fc.array(markupPiece, { maxLength: 60 }).map((parts) => parts.join(''));

/** `doc` with up to three edits: a range cut out, or replaced by hostile pieces, or repeated. */
function mangled(doc: fc.Arbitrary<string>): fc.Arbitrary<string> {
  const edit = fc.tuple(fc.double({ min: 0, max: 1, noNaN: true }), fc.double({ min: 0, max: 1, noNaN: true }), fc.oneof(markup, fc.constant(''), fc.constant(null)));
  return fc.tuple(doc, fc.array(edit, { maxLength: 3 })).map(([text, edits]) =>
    edits.reduce((t, [x, y, insert]) => {
      const [a, b] = [Math.floor(Math.min(x, y) * t.length), Math.floor(Math.max(x, y) * t.length)];
      return t.slice(0, a) + (insert ?? t.slice(a, b).repeat(3)) + t.slice(b);
    }, text),
  );
}

/** Real pages of the test fixtures, cut and spliced at random places. */
const fixturePages = ['wordpress/single.html', 'mediawiki/article.html', 'phpbb/viewtopic.html'].map((f) => readFileSync(new URL(`../../fixtures/aah/${f}`, import.meta.url), 'utf8'));
const mangledPage = mangled(fc.constantFrom(...fixturePages));

const urlish = fc.oneof(fc.webUrl({ withQueryParameters: true, withFragments: true }), markup, fc.string());
/** What a server puts where a URL belongs: mostly URLs, relative or absolute, some of them broken. */
const reference = fc.oneof(fc.webUrl({ withQueryParameters: true }), fc.webPath(), fc.constantFrom('../x', '?q=1', '//127.0.0.1/y', 'a b', '#top'), urlish);
const defaultKb = readFileSync(DEFAULT_KB_PATH, 'utf8');
const PAGE_URL = 'http://127.0.0.1:8080/dir/page.html?x=1';

/** Every link a response yields is an absolute http(s) URL that canonicalises to itself. */
function assertWellFormed(out: ResponseExtraction): void {
  for (const link of out.links) {
    assert.match(link.url, /^https?:\/\//, `link ${JSON.stringify(link.url)}`);
    assert.equal(canonicalize(link.url), link.url, `link ${JSON.stringify(link.url)} is not canonical`);
  }
}

const response = (contentType: string, body: Buffer, status = 200) =>
  extractFromResponse({ url: PAGE_URL, status, headers: { 'content-type': contentType }, body, maxDecodedBytes: 1 << 20 });

test('HTML extraction: generated and mangled markup, any bytes, any charset label', () => {
  const contentType = fc.constantFrom('text/html', 'text/html; charset=utf-8', 'text/html; charset=windows-1252', 'text/html; charset=shift_jis', 'text/html; charset=bogus', 'text/html; charset=utf-16le', '');
  fc.assert(
    fc.property(fc.oneof(markup, mangledPage), contentType, (html, type) => {
      const out = response(type || 'text/html', Buffer.from(html, 'utf8'));
      assert.equal(out.kind, 'html');
      assertWellFormed(out);
    }),
    runs(400),
  );
  fc.assert(
    fc.property(fc.uint8Array({ maxLength: 2000 }), contentType, (bytes, type) => assertWellFormed(response(type || 'text/html', Buffer.from(bytes)))),
    runs(200),
  );
});

test('JavaScript modules: generated source gives well-formed links or none, and never throws', () => {
  const jsPiece = fc.oneof(
    fc.constantFrom('import ', 'export * from ', 'export { a } from ', 'import(', ')', "'", '"', '`', '${', '}', '{', '/', '/*', '*/', '//', '\n', ';',
      ' with { type: "json" }', 'import.meta', 'import type { T } from ', '\\u{110000}', '\\x', '<!--', '-->', '('.repeat(2000), '`${'.repeat(600)),
    reference,
  );
  fc.assert(fc.property(mangled(fc.array(jsPiece, { maxLength: 30 }).map((p) => p.join(''))), (js) => assertWellFormed(response('text/javascript', Buffer.from(js)))), runs(300));
});

test('CSS, robots.txt and redirects: generated input gives well-formed links or none', () => {
  const cssPiece = fc.oneof(
    fc.constantFrom('body{background:url(', ')}', "url('", "')", 'url("', '")', '@import "', '";', '@import url(', '\\', '\\29 ', '/*', '*/', '@font-face{src:url(', '}', '\n',
      'image-set(', '-webkit-image-set("', '" 1x, "', '" type("image/avif")', '@import/**/"'),
    reference,
  );
  fc.assert(fc.property(mangled(fc.array(cssPiece, { maxLength: 30 }).map((p) => p.join(''))), (css) => assertWellFormed(response('text/css', Buffer.from(css)))), runs(300));
  fc.assert(
    fc.property(urlish, (location) => {
      const out = extractFromResponse({ url: PAGE_URL, status: 302, headers: { location }, body: Buffer.alloc(0), maxDecodedBytes: 1024 });
      assert.ok(out.links.length <= 1);
      assertWellFormed(out);
    }),
    runs(300),
  );
  fc.assert(
    fc.property(mangled(fc.array(fc.tuple(fc.constantFrom('User-agent: ', 'Disallow: ', 'Allow: ', 'Crawl-delay: ', 'Sitemap: ', 'sitemap:', '# '), fc.oneof(reference, fc.constantFrom('*', '/', '/*.php$', '-1', '1e9', 'NaN')))).map((lines) => lines.map(([k, v]) => k + v).join('\n'))), (text) => {
      const out = extractFromResponse({ url: 'http://127.0.0.1:8080/robots.txt', status: 200, headers: { 'content-type': 'text/plain' }, body: Buffer.from(text), maxDecodedBytes: 1024 });
      assertWellFormed(out);
      const rules = parseRobotsRules('http://127.0.0.1:8080/robots.txt', text, 'Tidemark/0.1 (+http://example.org/contact)');
      assert.equal(typeof rules.isAllowed('http://127.0.0.1:8080/a'), 'boolean');
    }),
    runs(300),
  );
});

test('sitemaps and feeds: hostile XML (entity expansion, deep nesting, junk) never escapes as an exception', () => {
  const laughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;"><!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">]>';
  const xmlPiece = fc.oneof(
    fc.constantFrom(laughs, '<urlset>', '</urlset>', '<sitemapindex>', '<url>', '</url>', '<loc>', '</loc>', '<rss>', '<channel>', '<item>', '<link>', '</link>',
      '<feed xmlns="http://www.w3.org/2005/Atom">', '<entry>', '<link href="', '"/>', '&lol3;', '<![CDATA[', ']]>', '<?xml', '?>', '<'.repeat(50), '<a>'.repeat(200)),
    urlish,
  );
  const refs = fc.array(reference, { maxLength: 8 });
  const sitemap = refs.map((r) => `<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${r.map((u) => `<url><loc>${u}</loc><lastmod>2026-11-24</lastmod></url>`).join('')}</urlset>`);
  const sitemapIndex = refs.map((r) => `<sitemapindex>${r.map((u) => `<sitemap><loc>${u}</loc></sitemap>`).join('')}</sitemapindex>`);
  const rss = refs.map((r) => `<rss version="2.0"><channel><title>t</title>${r.map((u) => `<item><title>${u}</title><link>${u}</link><pubDate>Mon, 23 Nov 2026 10:00:00 GMT</pubDate></item>`).join('')}</channel></rss>`);
  const atom = refs.map((r) => `<feed xmlns="http://www.w3.org/2005/Atom"><title>t</title>${r.map((u) => `<entry><link href="${u}"/><updated>2026-11-24T10:00:00Z</updated></entry>`).join('')}</feed>`);
  const json = refs.map((r) => JSON.stringify({ version: 'https://jsonfeed.org/version/1.1', title: 't', items: r.map((u, i) => ({ id: i, url: u })) }));
  const xml = fc.oneof(mangled(fc.oneof(sitemap, sitemapIndex, rss, atom, json)), fc.array(xmlPiece, { maxLength: 40 }).map((p) => p.join('')));
  fc.assert(
    fc.property(xml, fc.constantFrom('application/xml', 'text/xml', 'application/rss+xml', 'application/atom+xml', 'application/feed+json', 'text/plain'), (doc, type) => {
      const body = Buffer.from(doc);
      assertWellFormed(response(type, body));
      // Both parsers straight, whatever the sniffing would have chosen.
      for (const entry of parseSitemap(body, { url: PAGE_URL, contentType: type, maxDecodedBytes: 1 << 20 }).urls) assert.match(entry.url, /^https?:\/\//);
      for (const item of parseFeed(body, type, PAGE_URL).items) assert.match(item.url, /^https?:\/\//);
      // No entity of a DOCTYPE is ever expanded.
      assert.doesNotMatch(JSON.stringify(parseFeed(body, type, PAGE_URL)), /lollol/);
    }),
    runs(300),
  );
  // A sitemap over the cap is refused with the documented error, before it is parsed.
  assert.throws(() => parseSitemap(Buffer.alloc(2048, 'a'), { url: PAGE_URL, maxDecodedBytes: 1024 }), SitemapTooLargeError);
});

test('URLs: canonicalisation is total and idempotent, and scope decisions always come with a reason', () => {
  const scope = compileScope(parseIcd({ name: 'fuzz', seeds: ['http://127.0.0.1:8080/'], scope: { exclude: ['\\.pdf$'] } }).scope, ['http://127.0.0.1:8080/']);
  fc.assert(
    fc.property(urlish, fc.option(fc.constantFrom(PAGE_URL, 'https://xn--bcher-kva.example/a/b?c#d', 'http://[::1]:8080/')), fc.constantFrom('keep', 'sort', 'strip'), (raw, base, queryHandling) => {
      const url = canonicalize(raw, base ?? undefined, { queryHandling });
      if (url === null) return;
      assert.match(url, /^https?:\/\/[^/?#]+/);
      assert.equal(canonicalize(url, undefined, { queryHandling }), url);
      const decision = checkScope({ url, depth: 1, kind: 'page' }, scope);
      assert.equal(typeof decision.inScope, 'boolean');
      if (!decision.inScope) assert.ok(decision.reason, `no reason for ${url}`);
    }),
    runs(1000),
  );
});

test('ICDs: any JSON is either a valid ICD or refused with a ZodError naming the field', () => {
  const value = fc.letrec((tie) => ({
    any: fc.oneof({ depthSize: 'small' }, fc.string(), fc.double(), fc.integer(), fc.boolean(), fc.constant(null), fc.array(tie('any'), { maxLength: 4 }), tie('obj')),
    obj: fc.dictionary(fc.constantFrom('name', 'seeds', 'scope', 'politeness', 'focus', 'keywords', 'maxPages', 'coherence', 'fetch', 'userAgent', 'x'), tie('any'), { maxKeys: 5 }),
  }));
  const icdLike = fc.record({ name: fc.oneof(fc.string(), value.any), seeds: fc.oneof(fc.array(urlish, { maxLength: 3 }), value.any) }).chain((base) =>
    value.obj.map((extra) => ({ ...extra, ...base })),
  );
  let valid = 0;
  fc.assert(
    fc.property(icdLike, (input) => {
      try {
        parseIcd(input);
        valid++;
      } catch (err) {
        assert.equal((err as Error).name, 'ZodError', String(err));
        const issues = (err as { issues: { path: unknown[]; message: string }[] }).issues;
        assert.ok(issues.length > 0 && issues.every((i) => typeof i.message === 'string' && Array.isArray(i.path)));
      }
    }),
    runs(500),
  );
  assert.ok(valid > 0, 'the generator never made a valid ICD: it tests only refusals');
});

test('knowledge bases: pasted XML and pages never make the parser or the tester throw', () => {
  const kbPiece = fc.oneof(
    fc.constantFrom('<knowledge-base version="1">', '</knowledge-base>', '<application id="x" name="X" category="blog">', '</application>', '<detect>', '</detect>',
      '<xpath weight="2">', '</xpath>', '//div[@class="post"]', '//a[', 'count(//*)', '<navigate id="n" select="', '" follow="true"/>',
      '<extract id="e" type="post" select="', '"/>', '<field name="f" select="', '<url>', '</url>', '(a+)+$', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]>', '&e;'),
    fc.string({ maxLength: 15 }),
  );
  const kb = fc.oneof(mangled(fc.constant(defaultKb)), fc.array(kbPiece, { maxLength: 30 }).map((p) => p.join('')));
  fc.assert(
    fc.property(kb, fc.oneof(markup, mangledPage), (xml, html) => {
      const parsed = parseKnowledgeBase(xml);
      if (!parsed.ok) assert.ok(parsed.errors.length > 0 && parsed.errors.every((e) => typeof e.message === 'string'));
      const report = testKnowledgeBase(xml, { url: PAGE_URL, html });
      assert.equal(typeof report, 'object');
      assert.doesNotMatch(JSON.stringify(report), /root:/); // an external entity is never read
    }),
    runs(150),
  );
});

test('focused analysis: any page is scored, each link gets a priority in [0, 1]', () => {
  const scorer = createFocusScorer(parseIcd({ name: 'fuzz', seeds: [PAGE_URL], focus: { enabled: true, keywords: [{ term: 'harbour' }] } }).focus);
  fc.assert(
    fc.property(fc.oneof(markup, mangledPage), fc.array(urlish, { maxLength: 5 }), (html, extra) => {
      const links = [...extra.map((u) => canonicalize(u, PAGE_URL)).filter((u): u is string => u !== null)].map((url) => ({ url }));
      const { verdicts } = scorePage(scorer, pageFromHtml({ url: PAGE_URL, html, links }, { queryHandling: 'keep', submitForms: false }), false);
      assert.equal(verdicts.priorities.length, links.length);
      for (const p of verdicts.priorities) assert.ok(p >= 0 && p <= 1, `priority ${p}`);
      assert.ok(verdicts.similarity >= 0 && verdicts.similarity <= 1);
    }),
    runs(300),
  );
});
