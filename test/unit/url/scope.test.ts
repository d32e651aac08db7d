import { test } from 'node:test';
import assert from 'node:assert/strict';
import { checkScope, compileScope, deepestTaken, embedHopsOf, FEED_ITEM_KIND, IMPORT_KIND, MANIFEST_KIND, MAX_EMBED_HOPS, MAX_REQUISITE_REDIRECTS, mayRetakeRefused, moduleDocumentOf, requisiteRedirectsOf, RETAKABLE_REFUSALS, scopeWithoutPage, type ScopeRules } from '../../../worker/url';

const rules: ScopeRules = {
  allowedHosts: ['static.example.net'],
  surtPrefixes: [],
  include: [],
  exclude: ['/private/'],
  maxDepth: 2,
  maxUrlLength: 64,
  includeRequisites: true,
};
const seeds = ['http://www.example.org/'];

function reason(url: string, depth = 1, kind = 'navigation', r: ScopeRules = rules): string {
  const d = checkScope({ url, depth, kind }, r, seeds);
  return d.inScope ? 'in' : d.reason;
}

test('seed hosts (www-insensitive) and allowed hosts are in scope', () => {
  assert.equal(reason('http://www.example.org/a'), 'in');
  assert.equal(reason('https://example.org/a'), 'in');
  assert.equal(reason('http://static.example.net/x'), 'in');
  assert.equal(reason('http://other.org/'), 'out-of-scope-host');
  assert.equal(reason('http://sub.example.org/'), 'out-of-scope-host');
});

test('invalid, unsupported scheme, too long, excluded', () => {
  assert.equal(reason('::nonsense'), 'invalid-url');
  assert.equal(reason('ftp://example.org/file'), 'unsupported-scheme');
  assert.equal(reason('mailto:x@example.org'), 'unsupported-scheme');
  assert.equal(reason(`http://example.org/${'a'.repeat(60)}`), 'url-too-long');
  assert.equal(reason('http://example.org/private/x'), 'exclude-match');
  // exclusions win over the requisite allowance
  assert.equal(reason('http://example.org/private/x.png', 1, 'requisite'), 'exclude-match');
});

test('max depth, with one extra hop for requisites and redirects', () => {
  assert.equal(reason('http://example.org/a', 2), 'in');
  assert.equal(reason('http://example.org/a', 3), 'max-depth');
  assert.equal(reason('http://example.org/a.css', 3, 'requisite'), 'in');
  assert.equal(reason('http://example.org/b', 3, 'redirect'), 'in');
  assert.equal(reason('http://example.org/a.css', 4, 'requisite'), 'max-depth');
  assert.equal(reason('http://example.org/a.css', 3, 'requisite', { ...rules, includeRequisites: false }), 'max-depth');
});

// Found by an exploratory session: a feed's articles, queued as links of the first seed, were refused
// as max-depth with maxDepth 0 and never fetched, though the archivist subscribed to the feed.
test('a feed\'s articles (depth 1, one link from the feed) are taken whatever maxDepth says; the other rules still apply', () => {
  const none = { ...rules, maxDepth: 0 };
  assert.equal(reason('http://example.org/article', 1, FEED_ITEM_KIND, none), 'in');
  assert.equal(reason('http://example.org/article', 1, 'navigation', none), 'max-depth', 'a page\'s link at the same depth is refused');
  assert.equal(reason('http://example.org/private/article', 1, FEED_ITEM_KIND, none), 'exclude-match');
  assert.equal(reason('http://other.org/article', 1, FEED_ITEM_KIND, none), 'out-of-scope-host');
});

test('requisites may leave the host scope only when includeRequisites', () => {
  assert.equal(reason('http://cdn.other.net/a.js', 1, 'requisite'), 'in');
  assert.equal(reason('http://cdn.other.net/a.js', 1, 'requisite', { ...rules, includeRequisites: false }), 'out-of-scope-host');
});

test('SURT prefixes add to the host scope', () => {
  const r = { ...rules, surtPrefixes: ['http://(org,partner,)/shared/'] };
  assert.equal(reason('http://partner.org/shared/x', 1, 'navigation', r), 'in');
  assert.equal(reason('https://partner.org/shared/x', 1, 'navigation', r), 'in');
  assert.equal(reason('http://partner.org/other', 1, 'navigation', r), 'out-of-surt-scope');
  assert.equal(reason('http://example.org/x', 1, 'navigation', r), 'in');
});

test('include patterns narrow navigation but not requisites', () => {
  const r = { ...rules, include: ['^https?://(www\\.)?example\\.org/blog/'] };
  assert.equal(reason('http://example.org/blog/1', 1, 'navigation', r), 'in');
  assert.equal(reason('http://example.org/shop/1', 1, 'navigation', r), 'include-mismatch');
  assert.equal(reason('http://example.org/img/1.png', 1, 'requisite', r), 'in');
});

test('a compiled scope gives the same decisions', () => {
  const compiled = compileScope(rules, seeds);
  for (const url of ['http://example.org/a', 'http://other.org/', 'http://example.org/private/1']) {
    assert.deepEqual(checkScope({ url, depth: 1, kind: 'navigation' }, compiled), checkScope({ url, depth: 1, kind: 'navigation' }, rules, seeds));
  }
});

test('an allowed host written as a URL, or with a port or path, allows its host name', () => {
  const written = { ...rules, allowedHosts: ['https://Media.Example.net/', 'cdn.example.net:8443', 'img.example.net/assets', '  '] };
  assert.equal(reason('http://media.example.net/a', 1, 'navigation', written), 'in');
  assert.equal(reason('https://cdn.example.net:8443/a', 1, 'navigation', written), 'in');
  assert.equal(reason('http://img.example.net/x', 1, 'navigation', written), 'in');
  assert.equal(reason('http://other.example.net/x', 1, 'navigation', written), 'out-of-scope-host');
});

test('one extra hop: a page an in-scope page links to is taken, with its redirects, but nothing it links to outside', () => {
  const r = { ...rules, include: ['^https?://(www\\.)?example\\.org/(blog/|$)', '^https?://static\\.'], extraHops: 1 };
  const from = (url: string, viaUrl: string, kind = 'navigation', rs: ScopeRules = r) => {
    const d = checkScope({ url, depth: 1, kind, viaUrl }, rs, seeds);
    return d.inScope ? 'in' : d.reason;
  };
  const inScopePage = 'http://www.example.org/blog/1';
  assert.equal(from('http://other.org/cited', inScopePage), 'in', 'a page the blog links to');
  assert.equal(from('http://example.org/shop/1', inScopePage), 'in', 'a page the include patterns leave out, linked from the blog');
  assert.equal(from('http://further.org/', 'http://other.org/cited'), 'out-of-scope-host', 'the linked page\'s own links outside are not followed');
  assert.equal(from('http://example.org/shop/2', 'http://example.org/shop/1'), 'include-mismatch');
  assert.equal(from('http://www.example.org/blog/2', 'http://other.org/cited'), 'in', 'its links back into scope are, as any');
  assert.equal(from('https://other.org/cited', 'http://other.org/cited', 'redirect'), 'in', 'the redirect completing it');
  assert.equal(from('http://other.org/private/x', inScopePage), 'exclude-match', 'exclude patterns still win');
  assert.equal(checkScope({ url: 'http://other.org/deep', depth: 3, kind: 'navigation', viaUrl: inScopePage }, r, seeds).inScope, false, 'depth still applies');
  assert.equal(from('http://other.org/cited', inScopePage, 'navigation', { ...r, extraHops: 0 }), 'out-of-scope-host', 'off by default');
  assert.equal(from('https://other.org/cited', 'http://other.org/cited', 'redirect', { ...r, extraHops: 0 }), 'out-of-scope-host');
  assert.equal(reason('http://other.org/cited', 1, 'navigation', r), 'out-of-scope-host', 'a URL found on no page (an API post, a seed check) is not a hop');
});

test('extra hops 0–3: a URL is taken through at most that many consecutive out-of-scope links, its decision counting them', () => {
  const hop = (url: string, viaUrl: string, viaHops: number | null | undefined, extraHops: number, kind = 'navigation') => {
    const d = checkScope({ url, depth: 1, kind, viaUrl, viaHops }, { ...rules, extraHops }, seeds);
    return d.inScope ? d.hops : d.reason;
  };
  const home = 'http://example.org/';
  // seed site → out1 → out2 → out3 → out4, each link one more hop
  for (const extraHops of [0, 1, 2, 3]) {
    const taken = [1, 2, 3, 4].map((n) => hop(`http://out${n}.test/`, n === 1 ? home : `http://out${n - 1}.test/`, n - 1, extraHops));
    assert.deepEqual(taken, [1, 2, 3, 4].map((n) => (n <= extraHops ? n : 'out-of-scope-host')), `extraHops ${extraHops}`);
  }
  assert.equal(hop('http://example.org/a', 'http://out3.test/', 3, 3), 0, 'back in scope the count starts again');
  assert.equal(hop('http://out1.test/', 'http://example.org/a', 0, 1), 1, 'and a link out of it is one hop again');
  assert.equal(hop('http://out2.test/landing', 'http://out2.test/moved', 2, 2, 'redirect'), 2, 'a redirect completing a hop is none');
  assert.equal(hop('http://out2.test/landing', 'http://out2.test/moved', 2, 1, 'redirect'), 2, 'it completes a URL taken outside, whatever took it');
  assert.equal(hop('http://out1.test/landing', home, 0, 1, 'redirect'), 1, 'an in-scope page redirecting out of the scope is a hop');
  assert.equal(hop('http://out1.test/landing', home, 0, 0, 'redirect'), 'out-of-scope-host');
  assert.equal(hop('http://cdn.test/a.png', 'http://out2.test/', 2, 2, 'requisite'), 3, 'a requisite outside is taken (includeRequisites) and counted');
  assert.equal(hop('http://out3.test/private/x', 'http://out2.test/', 2, 3), 'exclude-match', 'exclude patterns still win');
  assert.equal(checkScope({ url: 'http://out3.test/', depth: 3, kind: 'navigation', viaUrl: 'http://out2.test/', viaHops: 2 }, { ...rules, extraHops: 3 }, seeds).inScope, false, 'depth still applies');
  assert.equal(hop('http://example.org/a', home, 0, 0), 0, 'an in-scope URL is 0 hops');
});

test('a page whose count is unknown (stored before the frontier kept it) counts 0 in scope and 1 outside', () => {
  const hop = (url: string, viaUrl: string, extraHops: number) => {
    const d = checkScope({ url, depth: 1, kind: 'navigation', viaUrl, viaHops: null }, { ...rules, extraHops }, seeds);
    return d.inScope ? d.hops : d.reason;
  };
  assert.equal(hop('http://out1.test/', 'http://example.org/', 1), 1);
  assert.equal(hop('http://out2.test/', 'http://out1.test/', 1), 'out-of-scope-host', 'as one extra hop left it');
  assert.equal(hop('http://out2.test/', 'http://out1.test/', 2), 2);
});

test('a redirect a page requisite answers is taken as a requisite, up to MAX_REQUISITE_REDIRECTS, exclude patterns and length still applying', () => {
  const redirect = (url: string, n: number | null, depth = 2, r: ScopeRules = rules) => {
    const d = checkScope({ url, depth, kind: 'redirect', viaUrl: 'http://cdn.other.net/a.png', viaHops: 1, requisiteRedirect: n }, r, seeds);
    return d.inScope ? `in ${d.hops}` : d.reason;
  };
  assert.equal(redirect('http://storage.third.net/a.png', 1), 'in 1', 'the CDN image\'s redirect to its storage host');
  assert.equal(redirect('http://storage.third.net/a.png', MAX_REQUISITE_REDIRECTS), 'in 1', 'and the last redirect of the chain');
  assert.equal(redirect('http://storage.third.net/a.png', MAX_REQUISITE_REDIRECTS + 1), 'out-of-scope-host', 'one redirect too many');
  assert.equal(redirect('http://storage.third.net/a.png', null), 'out-of-scope-host', 'a redirect of no requisite is not one');
  assert.equal(redirect('http://storage.third.net/a.png', 1, 2, { ...rules, includeRequisites: false }), 'out-of-scope-host', 'only with includeRequisites');
  assert.equal(redirect('http://storage.third.net/private/a.png', 1), 'exclude-match', 'exclude patterns still win');
  assert.equal(redirect(`http://storage.third.net/${'x'.repeat(64)}.png`, 1), 'url-too-long');
  // maxDepth 2: a requisite may sit at 3, its redirects one further each.
  assert.equal(redirect('http://storage.third.net/a.png', 1, 4), 'in 1', 'a requisite at the depth limit keeps its redirect');
  assert.equal(redirect('http://storage.third.net/a.png', 2, 5), 'in 1');
  assert.equal(redirect('http://storage.third.net/a.png', 1, 5), 'max-depth', 'but no deeper than the chain goes');
  assert.equal(redirect('http://storage.third.net/a.png', null, 4), 'max-depth');
  assert.equal(checkScope({ url: 'http://storage.third.net/a.png', depth: 2, kind: 'navigation', viaUrl: 'http://cdn.other.net/', requisiteRedirect: 1 }, rules, seeds).inScope, false, 'only a redirect is one');
});

// Found by an exploratory session: with maxDepth 0 the seed's stylesheet and iframe were fetched,
// but their images, fonts, @import-ed sheets and the iframe's stylesheet were refused as too deep.
test('requisites of requisites are taken past maxDepth within MAX_EMBED_HOPS embed hops of their page (Heritrix\'s transclusions)', () => {
  const none = { ...rules, maxDepth: 0 };
  const embed = (depth: number, viaEmbeds: number | null | undefined, kind = 'requisite', r: ScopeRules = none, requisiteRedirect: number | null = null) => {
    const d = checkScope({ url: 'http://example.org/x', depth, kind, viaUrl: 'http://example.org/p', viaEmbeds, requisiteRedirect }, r, seeds);
    return d.inScope ? 'in' : d.reason;
  };
  assert.equal(embed(1, 0), 'in', 'the seed\'s stylesheet or iframe');
  assert.equal(embed(2, 1), 'in', 'the stylesheet\'s image, font or @import, the iframe\'s stylesheet');
  assert.equal(embed(3, 2), 'in', 'the iframe\'s stylesheet\'s image');
  assert.equal(embed(MAX_EMBED_HOPS + 1, MAX_EMBED_HOPS), 'max-depth', 'one embed hop too many');
  assert.equal(embed(2, 1, 'navigation'), 'max-depth', 'an iframe document\'s link is no embed');
  assert.equal(embed(3, 2, 'redirect', none, 1), 'in', 'the redirect an image answers is the image still');
  assert.equal(embed(4, 3, 'redirect', none, 1), 'in', 'and counts no embed hop');
  assert.equal(embed(5, MAX_EMBED_HOPS + 1, 'redirect', none, 1), 'max-depth');
  assert.equal(embed(3, 0, 'redirect'), 'max-depth', 'a page\'s redirect stays one hop past the limit');
  assert.equal(embed(2, 1, 'requisite', { ...none, includeRequisites: false }), 'max-depth', 'only with includeRequisites');
  assert.equal(embed(2, null), 'max-depth', 'a page whose count is unknown: one hop past, as before the count');
  assert.equal(embed(1, null), 'in');
  // A page deep within the limit: its requisites are within it too, whatever their embed hops.
  assert.equal(embed(2, 5, 'requisite', rules), 'in');
  assert.equal(embed(3, 5, 'requisite', rules), 'in', 'and one hop past it, as before the count');
  assert.equal(embed(4, 5, 'requisite', rules), 'max-depth');
  assert.ok(deepestTaken(0) >= 1 + MAX_EMBED_HOPS * (1 + MAX_REQUISITE_REDIRECTS), 'the frontier\'s backstop lets the deepest of them through');
});

test('embedHopsOf counts the requisites back to the page a chain hangs from, redirects counting as what they answer', () => {
  // [url, kind, viaUrl]: each URL's way as the frontier stores it.
  const ways: [string, string, string | null][] = [
    ['http://example.org/', 'seed', null],
    ['http://example.org/frame', 'requisite', 'http://example.org/'],
    ['http://example.org/frame/', 'redirect', 'http://example.org/frame'],
    ['http://example.org/frame.css', 'requisite', 'http://example.org/frame/'],
    ['http://example.org/more.css', 'requisite', 'http://example.org/frame.css'],
    ['http://example.org/deeper.css', 'requisite', 'http://example.org/more.css'],
    ['http://example.org/next', 'navigation', 'http://example.org/frame/'],
    ['http://example.org/next/', 'redirect', 'http://example.org/next'],
    ['http://loop.test/1', 'requisite', 'http://loop.test/2'],
    ['http://loop.test/2', 'redirect', 'http://loop.test/1'],
  ];
  const rows = Object.fromEntries(ways.map(([url, kind, viaUrl]) => [url, { kind, viaUrl }]));
  const looked: string[] = [];
  const lookup = (u: string) => (looked.push(u), rows[u] ?? null);
  const of = (url: string) => embedHopsOf(rows[url]!.kind, rows[url]!.viaUrl, lookup);
  assert.equal(of('http://example.org/'), 0);
  assert.equal(of('http://example.org/next'), 0, 'a navigation link');
  assert.deepEqual(looked, [], 'neither costs a lookup');
  assert.equal(of('http://example.org/next/'), 0, 'a page\'s redirect');
  assert.equal(of('http://example.org/frame'), 1);
  assert.equal(of('http://example.org/frame/'), 1, 'the iframe\'s redirect is the iframe');
  assert.equal(of('http://example.org/frame.css'), 2);
  assert.equal(of('http://example.org/more.css'), 3);
  assert.equal(of('http://example.org/deeper.css'), MAX_EMBED_HOPS + 1, 'past MAX_EMBED_HOPS the walk stops');
  assert.equal(embedHopsOf('requisite', 'http://unknown.test/', () => null), 1, 'a step the frontier lacks ends the count');
  assert.ok(of('http://loop.test/1') > MAX_EMBED_HOPS, 'a loop ends');
});

test('an import (a module\'s import, a sheet\'s @import) counts no embed hop of its own; what it embeds does', () => {
  const rows: Record<string, { kind: string; viaUrl: string | null }> = {
    'http://example.org/': { kind: 'seed', viaUrl: null },
    'http://example.org/frame': { kind: 'requisite', viaUrl: 'http://example.org/' },
    'http://example.org/a.css': { kind: 'requisite', viaUrl: 'http://example.org/frame' },
    'http://example.org/b.css': { kind: IMPORT_KIND, viaUrl: 'http://example.org/a.css' },
    'http://example.org/c.css': { kind: 'redirect', viaUrl: 'http://example.org/b.css' },
    'http://example.org/d.css': { kind: IMPORT_KIND, viaUrl: 'http://example.org/c.css' },
    'http://example.org/d.png': { kind: 'requisite', viaUrl: 'http://example.org/d.css' },
  };
  const of = (url: string) => embedHopsOf(rows[url]!.kind, rows[url]!.viaUrl, (u) => rows[u] ?? null);
  assert.deepEqual(['a.css', 'b.css', 'c.css', 'd.css', 'd.png'].map((p) => of(`http://example.org/${p}`)), [2, 2, 2, 2, 3]);
  assert.equal(requisiteRedirectsOf('redirect', 'http://example.org/b.css', (u) => rows[u] ?? null), 1, 'an import\'s redirect is a requisite\'s');
  const at = (depth: number, viaEmbeds: number, kind: string) => checkScope({ url: 'http://cdn.test/x', depth, kind, viaUrl: 'http://example.org/p', viaEmbeds }, { ...rules, maxDepth: 0 }, ['http://example.org/']);
  assert.ok(at(9, MAX_EMBED_HOPS, IMPORT_KIND).inScope, 'the import of a requisite at the last embed hop, deep past the limit and off the site');
  assert.ok(!at(9, MAX_EMBED_HOPS, 'requisite').inScope, 'what that requisite embeds is one hop too many');
  assert.ok(at(2, 1, MANIFEST_KIND).inScope, 'a manifest is a requisite');
  assert.equal(mayRetakeRefused(IMPORT_KIND, rules), true);
});

test('requisiteRedirectsOf counts the redirects back to the requisite a chain began at', () => {
  const rows: Record<string, { kind: string; viaUrl: string | null }> = {
    'http://example.org/': { kind: 'seed', viaUrl: null },
    'http://cdn.test/a.png': { kind: 'requisite', viaUrl: 'http://example.org/' },
    'http://cdn.test/b.png': { kind: 'redirect', viaUrl: 'http://cdn.test/a.png' },
    'http://cdn.test/c.png': { kind: 'redirect', viaUrl: 'http://cdn.test/b.png' },
    'http://out.test/moved': { kind: 'navigation', viaUrl: 'http://example.org/' },
    'http://out.test/landing': { kind: 'redirect', viaUrl: 'http://out.test/moved' },
    'http://loop.test/1': { kind: 'redirect', viaUrl: 'http://loop.test/2' },
    'http://loop.test/2': { kind: 'redirect', viaUrl: 'http://loop.test/1' },
  };
  const of = (url: string) => requisiteRedirectsOf(rows[url]!.kind, rows[url]!.viaUrl, (u) => rows[u] ?? null);
  assert.equal(of('http://cdn.test/a.png'), 0, 'a requisite');
  assert.equal(of('http://cdn.test/b.png'), 1);
  assert.equal(of('http://cdn.test/c.png'), 2);
  assert.equal(of('http://out.test/landing'), null, 'a chain from a navigation link');
  assert.equal(of('http://example.org/'), null);
  assert.equal(of('http://loop.test/1'), null, 'a loop ends');
  assert.equal(requisiteRedirectsOf('redirect', 'http://unknown.test/', () => null), null, 'a step the frontier lacks');
  const chain: Record<string, { kind: string; viaUrl: string | null }> = { 'r0': { kind: 'requisite', viaUrl: 'p' } };
  for (let i = 1; i <= MAX_REQUISITE_REDIRECTS + 1; i++) chain[`r${i}`] = { kind: 'redirect', viaUrl: `r${i - 1}` };
  const at = (i: number) => requisiteRedirectsOf('redirect', `r${i - 1}`, (u) => chain[u] ?? null);
  assert.equal(at(MAX_REQUISITE_REDIRECTS), MAX_REQUISITE_REDIRECTS);
  assert.equal(at(MAX_REQUISITE_REDIRECTS + 1), null, 'past the limit');
});

test('scopeWithoutPage: a URL outside the scope is refused as a link from no page, and says what a linking page could still make of it', () => {
  const of = (url: string, r: ScopeRules) => {
    const { decision, takenIf } = scopeWithoutPage(url, compileScope(r, seeds));
    return [decision.inScope ? 'in' : decision.reason, takenIf];
  };
  assert.deepEqual(of('http://example.org/a', rules), ['in', []]);
  assert.deepEqual(of('http://other.org/a', { ...rules, extraHops: 0 }), ['out-of-scope-host', ['requisite']]);
  assert.deepEqual(of('http://other.org/a', { ...rules, extraHops: 1 }), ['out-of-scope-host', ['extra-hops', 'requisite']]);
  assert.deepEqual(of('http://other.org/a', { ...rules, extraHops: 2, includeRequisites: false }), ['out-of-scope-host', ['extra-hops']]);
  assert.deepEqual(of('http://other.org/private/a', { ...rules, extraHops: 2 }), ['exclude-match', []], 'nothing takes an excluded URL');
  assert.deepEqual(of('http://other.org/a', { ...rules, includeRequisites: false }), ['out-of-scope-host', []]);
});

test('mayRetakeRefused: which links to a URL refused out of scope or too deep are checked again', () => {
  // The refusals a later link may overturn are those that depend on the link.
  for (const reason of ['out-of-scope-host', 'out-of-surt-scope', 'include-mismatch', 'max-depth']) assert.ok(RETAKABLE_REFUSALS.has(reason), reason);
  for (const reason of ['exclude-match', 'url-too-long', 'trap-calendar', 'max-pages', 'spam', 'robots']) assert.ok(!RETAKABLE_REFUSALS.has(reason), reason);
  assert.equal(mayRetakeRefused('requisite', rules), true);
  assert.equal(mayRetakeRefused('redirect', rules), true, 'a requisite\'s redirect');
  assert.equal(mayRetakeRefused('navigation', rules), false, 'an off-site link found again: not checked again');
  assert.equal(mayRetakeRefused('requisite', { ...rules, includeRequisites: false }), false);
  assert.equal(mayRetakeRefused('navigation', { ...rules, extraHops: 1 }), true, 'extra hops depend on the page linking');
  // What it answers false for, the scope would refuse again: an off-site navigation link from any page.
  const url = 'http://other.org/pic.png';
  const refusedFirst = checkScope({ url, depth: 1, kind: 'navigation', viaUrl: 'http://example.org/' }, rules, seeds);
  assert.deepEqual(refusedFirst, { inScope: false, reason: 'out-of-scope-host' });
  assert.equal(checkScope({ url, depth: 1, kind: 'navigation', viaUrl: 'http://example.org/gallery', viaHops: 0 }, rules, seeds).inScope, false);
  assert.deepEqual(checkScope({ url, depth: 2, kind: 'requisite', viaUrl: 'http://example.org/gallery', viaHops: 0 }, rules, seeds), { inScope: true, hops: 1 });
});

// Found by an exploratory session (international names): an allowed host written in its own script
// (`bücher.example`), as an archivist types it, or with the root's trailing dot, was compared with
// URLs that hold it in punycode and without the dot, and its pages stayed out of scope.
test('an allowed host written in its script, in capitals or with a trailing dot, takes the URLs of that host', () => {
  for (const entry of ['bücher.example', 'BÜCHER.example', 'xn--bcher-kva.example', 'bücher.example.', 'http://Bücher.example./a']) {
    const scope = compileScope({ ...rules, allowedHosts: [entry] }, seeds);
    assert.equal(checkScope({ url: 'http://xn--bcher-kva.example/a', depth: 1, kind: 'navigation' }, scope).inScope, true, entry);
  }
  const dotted = compileScope({ ...rules, allowedHosts: ['static.example.net.'] }, seeds);
  assert.equal(checkScope({ url: 'http://static.example.net/x', depth: 1, kind: 'navigation' }, dotted).inScope, true);
  assert.equal(checkScope({ url: 'http://xn--bcher-kva.example/a', depth: 1, kind: 'navigation' }, compileScope(rules, seeds)).inScope, false);
});

// Found by an exploratory session: a bare IPv6 address (`::1`) matched no URL, which names the host `[::1]`.
test('an allowed IPv6 host, bare or in brackets, compressed or in full, in capitals, takes the URLs of that address', () => {
  for (const entry of ['::1', '[::1]', '0:0:0:0:0:0:0:1', '[::1]:8080', 'http://[::1]/a']) {
    const scope = compileScope({ ...rules, allowedHosts: [entry] }, seeds);
    assert.equal(checkScope({ url: 'http://[::1]:8080/a', depth: 1, kind: 'navigation' }, scope).inScope, true, entry);
  }
  for (const entry of ['2001:DB8::A', '2001:0db8:0:0:0:0:0:000a', '[2001:db8::a]']) {
    const scope = compileScope({ ...rules, allowedHosts: [entry] }, seeds);
    assert.equal(checkScope({ url: 'http://[2001:db8::a]/a', depth: 1, kind: 'navigation' }, scope).inScope, true, entry);
    assert.equal(checkScope({ url: 'http://[2001:db8::b]/a', depth: 1, kind: 'navigation' }, scope).inScope, false, `${entry}: another address`);
  }
  const named = compileScope({ ...rules, allowedHosts: ['cdn.example.net:8443'] }, seeds);
  assert.equal(checkScope({ url: 'http://cdn.example.net/a', depth: 1, kind: 'navigation' }, named).inScope, true, 'a host and its port, as before');
});

// Found by an exploratory session (international names): a seed written with the root's trailing dot
// put `example.org.` among the scope's hosts, and every link of the seed's own host was refused.
test('a seed written with a trailing dot or in its own script takes the links of its host', () => {
  for (const seed of ['http://Example.org./', 'http://bücher.example./', 'http://BÜCHER.example/']) {
    const scope = compileScope({ ...rules, allowedHosts: [] }, [seed]);
    const host = seed.includes('xample.org') ? 'example.org' : 'xn--bcher-kva.example';
    assert.equal(checkScope({ url: `http://${host}/a`, depth: 1, kind: 'navigation' }, scope).inScope, true, seed);
  }
});

test('moduleDocumentOf finds the document a module graph hangs from, through imports and redirects', () => {
  const rows: Record<string, { kind: string; viaUrl: string | null }> = {
    'http://example.org/': { kind: 'seed', viaUrl: null },
    'http://example.org/frame': { kind: 'requisite', viaUrl: 'http://example.org/' },
    'http://example.org/main.js': { kind: 'requisite', viaUrl: 'http://example.org/frame' },
    'http://example.org/dep.js': { kind: IMPORT_KIND, viaUrl: 'http://example.org/main.js' },
    'http://example.org/dep2.js': { kind: 'redirect', viaUrl: 'http://example.org/dep.js' },
    'http://example.org/deeper.js': { kind: IMPORT_KIND, viaUrl: 'http://example.org/dep2.js' },
    'http://example.org/linked.js': { kind: 'navigation', viaUrl: 'http://example.org/' },
    'http://example.org/from-linked.js': { kind: IMPORT_KIND, viaUrl: 'http://example.org/linked.js' },
  };
  const of = (url: string) => moduleDocumentOf(rows[url]!.kind, rows[url]!.viaUrl, (u) => rows[u] ?? null);
  assert.equal(of('http://example.org/main.js'), 'http://example.org/frame');
  assert.equal(of('http://example.org/deeper.js'), 'http://example.org/frame');
  assert.equal(of('http://example.org/linked.js'), null, 'a script reached by a link hangs from no document');
  assert.equal(of('http://example.org/from-linked.js'), null);
  assert.equal(moduleDocumentOf(IMPORT_KIND, 'http://unknown.test/', () => null), null, 'a step the frontier lacks');
});
