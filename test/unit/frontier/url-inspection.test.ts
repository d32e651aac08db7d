import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoveryPath, entryPointKind, MAX_PATH, takenOutsideAs, type FrontierEntry } from '../../../worker/frontier/url-inspection';

const entry = (url: string, via: string | null, kind = 'navigation'): FrontierEntry => ({ url, state: 'done', reason: null, depth: 0, kind, via, status: 200, attempts: 1, scopeHops: null });
const frontierOf = (entries: FrontierEntry[]) => {
  const byUrl = new Map(entries.map((e) => [e.url, e]));
  return (url: string) => byUrl.get(url) ?? null;
};

test('the discovery path runs from the seed to the page that linked to the URL', () => {
  const lookup = frontierOf([entry('s', null, 'seed'), entry('a', 's'), entry('b', 'a', 'redirect')]);
  assert.deepEqual(discoveryPath(entry('c', 'b', 'requisite'), lookup), { path: [{ url: 's', kind: 'seed' }, { url: 'a', kind: 'navigation' }, { url: 'b', kind: 'redirect' }], cut: false });
  assert.deepEqual(discoveryPath(entry('s', null, 'seed'), lookup), { path: [], cut: false }, 'a seed has none');
});

test('a path whose step is missing, that loops, or that runs past MAX_PATH is cut, and says so', () => {
  assert.deepEqual(discoveryPath(entry('c', 'b'), frontierOf([entry('b', 'gone')])), { path: [{ url: 'b', kind: 'navigation' }], cut: true });
  assert.deepEqual(discoveryPath(entry('c', 'b'), frontierOf([entry('b', 'a'), entry('a', 'b')])), { path: [{ url: 'a', kind: 'navigation' }, { url: 'b', kind: 'navigation' }], cut: true });
  const chain = Array.from({ length: MAX_PATH + 10 }, (_, i) => entry(`u${i}`, `u${i + 1}`));
  const long = discoveryPath(entry('start', 'u0'), frontierOf(chain));
  assert.deepEqual([long.path.length, long.cut], [MAX_PATH, true]);
});

// Found by an exploratory session: a feed's articles were stored as links of the first seed, and the
// path read "seed → article" though the seed has no link to it.
test('a path from a feed of the ICD or a robots.txt (no frontier URLs) starts there, not cut', () => {
  const icd = { coherence: { feeds: ['HTTP://Example.org:80/feed.xml'] }, scope: { queryHandling: 'keep' } } as Parameters<typeof entryPointKind>[0];
  const kindOf = entryPointKind(icd);
  assert.deepEqual([kindOf('http://example.org/feed.xml'), kindOf('http://example.org/robots.txt'), kindOf('http://example.org/other.xml'), kindOf('http://example.org/robots.txt?x')], ['feed', 'robots.txt', null, null]);
  const lookup = frontierOf([entry('http://example.org/a', 'http://example.org/feed.xml', 'feed-item'), entry('http://example.org/sitemap.xml', 'http://example.org/robots.txt', 'sitemap')]);
  assert.deepEqual(discoveryPath(entry('http://example.org/b', 'http://example.org/a'), lookup, kindOf), {
    path: [{ url: 'http://example.org/feed.xml', kind: 'feed' }, { url: 'http://example.org/a', kind: 'feed-item' }], cut: false,
  });
  assert.deepEqual(discoveryPath(entry('http://example.org/s', 'http://example.org/sitemap.xml'), lookup, kindOf), {
    path: [{ url: 'http://example.org/robots.txt', kind: 'robots.txt' }, { url: 'http://example.org/sitemap.xml', kind: 'sitemap' }], cut: false,
  });
  assert.deepEqual(discoveryPath(entry('http://example.org/c', 'http://example.org/gone'), lookup, kindOf), { path: [], cut: true }, 'any other missing step still cuts it');
});

test('a URL stored outside the scope was taken as a requisite (or a requisite\'s redirect) or by the extra hops', () => {
  const at = (e: FrontierEntry, scopeHops: number | null): FrontierEntry => ({ ...e, scopeHops });
  const rows = [entry('s', null, 'seed'), at(entry('img', 's', 'requisite'), 1), at(entry('stored', 'img', 'redirect'), 1), at(entry('out', 's'), 1), at(entry('landing', 'out', 'redirect'), 1)];
  const lookup = (u: string) => { const r = frontierOf(rows)(u); return r && { kind: r.kind, viaUrl: r.via }; };
  assert.deepEqual(rows.map((r) => takenOutsideAs(r, lookup)), [null, 'requisite', 'requisite', 'extra-hops', 'extra-hops']);
  assert.equal(takenOutsideAs(at(entry('in', 's'), 0), lookup), null, 'in the scope');
});
