import { test } from 'node:test';
import assert from 'node:assert/strict';
import { outLinksOf, planOutLinks, SITEMAP_MAX_URLS, type ScopeInput } from '../../../worker/crawler/plan-out-links';
import type { CrawlItem } from '../../../worker/crawler/stage';
import { compileScope, TrapDetector } from '../../../worker/url';

const input: ScopeInput = {
  scope: compileScope(
    { allowedHosts: [], surtPrefixes: [], include: [], exclude: ['/private/'], maxDepth: 3, maxUrlLength: 2048, includeRequisites: true },
    ['http://example.org/'],
  ),
  defaultPriority: 0.5,
};

type OutLink = NonNullable<CrawlItem['links']>[number];

function page(links: Array<Omit<OutLink, 'anchorText' | 'context' | 'source'>>, depth = 1): CrawlItem {
  const full = links.map((l): OutLink => ({ anchorText: '', context: '', source: 'a@href', ...l }));
  return { url: 'http://example.org/page', host: 'example.org', depth, priority: 0.5, lease: null, links: full } as CrawlItem;
}

test('out-links become candidates once each; AAH, spam and scope rejections keep their reasons', () => {
  const plan = planOutLinks(
    page([
      { url: 'http://example.org/a', kind: 'navigation', priority: 0.9, breakdown: JSON.stringify({ scores: { text: 0.9 }, weights: { text: 1 } }) },
      { url: 'http://example.org/a', kind: 'navigation' },
      { url: 'http://example.org/b', kind: 'navigation' },
      { url: 'http://example.org/forum/skip', kind: 'navigation', excludedReason: 'aah' },
      { url: 'http://other.org/x', kind: 'navigation' },
      { url: 'http://example.org/private/1', kind: 'navigation' },
    ]),
    input,
    new TrapDetector(),
  );
  assert.deepEqual(plan.candidates.map((c) => [c.url, c.priority, c.depth, c.viaUrl]), [
    ['http://example.org/a', 0.9, 2, 'http://example.org/page'],
    ['http://example.org/b', 0.5, 2, 'http://example.org/page'],
  ]);
  assert.deepEqual(JSON.parse(plan.candidates[0]!.breakdown!), { scores: { text: 0.9 }, weights: { text: 1 } });
  assert.deepEqual(plan.rejected.map((r) => [r.url, r.reason]), [
    ['http://example.org/forum/skip', 'aah'],
    ['http://other.org/x', 'out-of-scope-host'],
    ['http://example.org/private/1', 'exclude-match'],
  ]);
});

test('URLs the frontier already holds skip the checks: they only carry a new score, and a rejection is dropped', () => {
  const known = new Set(['http://other.org/x', 'http://example.org/old', 'http://example.org/spam']);
  const plan = planOutLinks(
    page([
      { url: 'http://other.org/x', kind: 'navigation', priority: 0.7 }, // out of scope, yet it was queued (a seed host once, say)
      { url: 'http://example.org/old', kind: 'navigation', priority: 0.2 },
      { url: 'http://example.org/spam', kind: 'navigation', excludedReason: 'spam' },
      { url: 'http://example.org/new', kind: 'navigation', excludedReason: 'spam' },
    ], 3),
    input,
    new TrapDetector(),
    (url) => known.has(url),
  );
  assert.deepEqual(plan.candidates.map((c) => [c.url, c.priority]), [['http://other.org/x', 0.7], ['http://example.org/old', 0.2]]);
  assert.deepEqual(plan.rejected.map((r) => [r.url, r.reason]), [['http://example.org/new', 'spam']]);
});

test("a page's links that differ only by session ids are planned once, as the first was written: no query variants counted for the others", () => {
  const sessions = Array.from({ length: 50 }, (_, i) => `${i}`.padStart(2, '0').repeat(16));
  const plan = planOutLinks(
    page([
      { url: 'http://example.org/a', kind: 'navigation', priority: 0.9 },
      ...sessions.map((s) => ({ url: `http://example.org/a;jsessionid=${s}`, kind: 'navigation' as const })),
      ...sessions.map((s) => ({ url: `http://example.org/list?page=1&PHPSESSID=${s}`, kind: 'navigation' as const })),
      { url: 'http://example.org/list?page=2', kind: 'navigation' },
      { url: 'http://example.org/list?page=3', kind: 'navigation' },
    ]),
    input,
    // Three query variants of a path at most: 50 sessions of ?page=1 made ?page=2 and ?page=3 traps.
    new TrapDetector({ maxQueryVariantsPerPath: 3 }),
  );
  assert.deepEqual(plan.candidates.map((c) => c.url), [
    'http://example.org/a',
    `http://example.org/list?page=1&PHPSESSID=${sessions[0]}`,
    'http://example.org/list?page=2',
    'http://example.org/list?page=3',
  ]);
  assert.equal(plan.candidates[0]!.priority, 0.9, 'the first link, with its score');
  assert.deepEqual(plan.rejected, []);
});

test('links that differ by session ids and are of different kinds are each planned: a requisite is not lost behind a page link', () => {
  const plan = planOutLinks(
    page([
      { url: 'http://other.org/img.png;jsessionid=AAAAAAAAAAAAAAAAAAAA', kind: 'navigation' },
      { url: 'http://other.org/img.png;jsessionid=BBBBBBBBBBBBBBBBBBBB', kind: 'requisite' },
      { url: 'http://other.org/img.png;jsessionid=CCCCCCCCCCCCCCCCCCCC', kind: 'requisite' },
    ]),
    input,
    new TrapDetector(),
  );
  assert.deepEqual(plan.rejected.map((r) => [r.url, r.reason]), [['http://other.org/img.png;jsessionid=AAAAAAAAAAAAAAAAAAAA', 'out-of-scope-host']]);
  assert.deepEqual(plan.candidates.map((c) => [c.url, c.kind]), [['http://other.org/img.png;jsessionid=BBBBBBBBBBBBBBBBBBBB', 'requisite']]);
});

test('outLinksOf: the first maxOutLinksPerPage links in document order, a note on the rest; sitemaps up to 50,000', () => {
  const links = (n: number) => Array.from({ length: n }, (_, i) => ({ url: `http://a.example/${i}`, kind: 'navigation' as const, source: 'a@href', anchorText: `l${i}`, context: '' }));
  const page = outLinksOf({ kind: 'html', links: links(10) }, 4);
  assert.deepEqual(page.links.map((l) => l.url), ['http://a.example/0', 'http://a.example/1', 'http://a.example/2', 'http://a.example/3']);
  assert.equal(page.note, '6 links past the first 4 not followed (scope.maxOutLinksPerPage)');
  assert.deepEqual(outLinksOf({ kind: 'html', links: links(4) }, 4), { links: links(4), note: null });
  const sitemap = outLinksOf({ kind: 'sitemap', links: links(SITEMAP_MAX_URLS + 7) }, 6000);
  assert.equal(sitemap.links.length, SITEMAP_MAX_URLS);
  assert.equal(sitemap.note, `7 links past the first ${SITEMAP_MAX_URLS} not followed (a sitemap lists at most 50,000 URLs)`);
  // A cap above the protocol's is the ICD's to set.
  assert.equal(outLinksOf({ kind: 'sitemap', links: links(60_000) }, 70_000).links.length, 60_000);
});

test("outLinksOf: a note on a text sitemap's last line left out as possibly cut, quoted (200 characters at most)", () => {
  const link = { url: 'http://a.example/one', kind: 'navigation' as const, source: 'sitemap@loc', anchorText: '', context: '' };
  const cut = outLinksOf({ kind: 'sitemap', links: [link], sitemapCutLine: 'http://a.example/tw' }, 10);
  assert.deepEqual(cut.links.map((l) => l.url), ['http://a.example/one']);
  assert.equal(cut.note, 'last line of the sitemap not followed, as the body was cut short or its content coding damaged: "http://a.example/tw"');
  const long = outLinksOf({ kind: 'sitemap', links: [], sitemapCutLine: `http://a.example/${'x'.repeat(500)}` }, 10).note!;
  assert.ok(long.endsWith(`${'x'.repeat(200 - 'http://a.example/'.length)}…"`), long);
});

test("outLinksOf: a note on an XML sitemap's last value left out as the document ends inside it, quoted as a cut line is", () => {
  const link = { url: 'http://a.example/one', kind: 'navigation' as const, source: 'sitemap@loc', anchorText: '', context: '' };
  const loc = outLinksOf({ kind: 'sitemap', links: [link], sitemapCutValue: { element: 'loc', text: 'http://a.example/tw' } }, 10);
  assert.deepEqual(loc.links.map((l) => l.url), ['http://a.example/one']);
  const why = 'as the document ends inside it (the body cut short, its content coding damaged or its closing tag missing)';
  assert.equal(loc.note, `last <loc> of the sitemap not followed, ${why}: "http://a.example/tw"`);
  assert.equal(outLinksOf({ kind: 'sitemap', links: [link], sitemapCutValue: { element: 'lastmod', text: '2024-0' } }, 10).note, `last <lastmod> of the sitemap left out, ${why}: "2024-0"`);
  const long = outLinksOf({ kind: 'sitemap', links: [], sitemapCutValue: { element: 'loc', text: `http://a.example/${'x'.repeat(500)}` } }, 10).note!;
  assert.ok(long.endsWith(`${'x'.repeat(200 - 'http://a.example/'.length)}…"`), long);
});

test("outLinksOf: a note on a sitemap's or feed's DOCTYPE whose entities or external DTD were neither expanded nor fetched, after the other notes", () => {
  const link = { url: 'http://a.example/one', kind: 'navigation' as const, source: 'feed@link', anchorText: '', context: '' };
  const dtd = { entities: 1, externalEntities: 1, references: 2, names: ['xxe'] };
  const feed = outLinksOf({ kind: 'feed', links: [link], unexpandedDtd: dtd }, 10);
  assert.deepEqual(feed.links.map((l) => l.url), ['http://a.example/one']);
  assert.equal(feed.note, "the feed's DOCTYPE declares 1 entity, 1 of them external (not expanded nor fetched), as only XML's predefined entities and character references are read: 2 entity references left as written (&xxe;)");
  const sitemap = outLinksOf({ kind: 'sitemap', links: [], sitemapCutValue: { element: 'loc', text: 'http://a.example/tw' }, unexpandedDtd: { ...dtd, externalDtd: 'http://e.example/e.dtd' } }, 10).note!;
  assert.match(sitemap, /^last <loc> of the sitemap not followed, .*"http:\/\/a\.example\/tw"; the sitemap's DOCTYPE declares 1 entity, .* and names the external DTD "http:\/\/e\.example\/e\.dtd" \(not fetched\), /);
});

test('the redirect a requisite (or its redirect) answers is planned as a requisite; another page\'s redirect out of scope is rejected', () => {
  const redirectOf = (requisiteRedirects: number | null | undefined) => {
    const item = { ...page([{ url: 'http://storage.other.net/a.png', kind: 'redirect' }]), url: 'http://cdn.other.net/a.png', requisiteRedirects, scopeHops: 1 };
    const plan = planOutLinks(item, input, new TrapDetector());
    return plan.candidates.length ? `in ${plan.candidates[0]!.scopeHops}` : plan.rejected[0]!.reason;
  };
  assert.equal(redirectOf(0), 'in 1', 'a requisite\'s redirect');
  assert.equal(redirectOf(1), 'in 1', 'the redirect of a requisite\'s redirect');
  assert.equal(redirectOf(null), 'out-of-scope-host');
  assert.equal(redirectOf(undefined), 'out-of-scope-host');
});

test('a stylesheet past the depth limit plans its own requisites from its embed hops; its page\'s links stay refused', () => {
  // maxDepth 3: the stylesheet of a page at 3 sits at 4, its image at 5.
  const sheet = (embedHops: number | null | undefined) => {
    const item = { ...page([{ url: 'http://example.org/bg.png', kind: 'requisite' }, { url: 'http://example.org/next', kind: 'navigation' }], 4), url: 'http://example.org/main.css', embedHops };
    const plan = planOutLinks(item, input, new TrapDetector());
    return [...plan.candidates.map((c) => `${c.url} in`), ...plan.rejected.map((r) => `${r.url} ${r.reason}`)];
  };
  assert.deepEqual(sheet(1), ['http://example.org/bg.png in', 'http://example.org/next max-depth']);
  assert.deepEqual(sheet(undefined), ['http://example.org/bg.png max-depth', 'http://example.org/next max-depth'], 'unknown: one hop past only');
});

test('a link refused as too deep says whether a page nearer the seeds would take it: in the scope yes, off the site no', () => {
  const plan = planOutLinks(
    page([
      { url: 'http://example.org/deep', kind: 'navigation' },
      { url: 'http://other.org/deep', kind: 'navigation' },
      { url: 'http://example.org/private/deep', kind: 'navigation' },
    ], 3),
    input,
    new TrapDetector(),
  );
  assert.deepEqual(plan.rejected.map((r) => [r.url, r.reason, r.withinScopeShallower ?? false]), [
    ['http://example.org/deep', 'max-depth', true],
    ['http://other.org/deep', 'max-depth', false],
    ['http://example.org/private/deep', 'exclude-match', false],
  ]);
});
