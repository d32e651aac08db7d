import { test } from 'node:test';
import assert from 'node:assert/strict';
import { discoveryPathHeading, inspectionVerdict, seedOutcome } from '../../../worker/frontier/url-outcome';
import { MAX_SEED_REDIRECTS } from '../../../worker/frontier/seed-chain';
import type { SeedHop } from '../../../worker/frontier/seed-chain';

const hop = (url: string, state: string, status: number | null, reason: string | null = null, message: string | null = null): SeedHop => ({ url, state, status, reason, message });

test('a seed captured directly or through redirects', () => {
  assert.deepEqual(seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', 'done', 200)], cut: null }), { steps: ['200, captured'], captured: true, problem: false });
  assert.deepEqual(seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', 'done', 301), hop('https://a/', 'done', 200)], cut: null }), {
    steps: ['301', '→ https://a/: 200, captured'], captured: true, problem: false,
  });
});

test('a seed that went wrong is a problem, with the step where it did', () => {
  const away = seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', 'done', 301), hop('https://www.a/', 'excluded', null, 'out-of-scope')], cut: null });
  assert.deepEqual(away, { steps: ['301', '→ https://www.a/: not followed: out-of-scope'], captured: false, problem: true });
  assert.deepEqual(seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', 'failed', null, 'dns-failed')], cut: null }).steps, ['failed: dns-failed']);
  assert.equal(seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', 'done', 404)], cut: null }).problem, true);
  const loop = seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', 'done', 301), hop('http://b/', 'done', 301)], cut: 'loop' });
  assert.deepEqual([loop.steps.at(-1), loop.captured, loop.problem], ['redirect loop', false, true]);
});

// Before: a 304 read "redirect without a usable Location", and a long chain "not followed further",
// though the crawl follows redirects as links, within its depth limit.
test('a seed answered 304 is a problem with no page; a long chain says the report, not the crawl, stopped following it', () => {
  assert.deepEqual(seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', 'done', 304)], cut: null }), { steps: ['304'], captured: false, problem: true });
  const hops = Array.from({ length: MAX_SEED_REDIRECTS + 1 }, (_, i) => hop(`http://a/${i}`, 'done', 302));
  const long = seedOutcome({ seed: 'http://a/0', hops, cut: 'too-many-redirects' });
  assert.deepEqual([long.steps.at(-1), long.problem], [`more than ${MAX_SEED_REDIRECTS} redirects in a row: the report follows the chain no further`, true]);
});

test('a seed still waiting is neither captured nor a problem', () => {
  for (const state of ['unseen', 'queued', 'in-flight', 'retrying']) {
    const o = seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', state, null, state === 'retrying' ? 'connect-timeout' : null)], cut: null });
    assert.deepEqual([o.captured, o.problem], [false, false], state);
  }
  assert.deepEqual(seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', 'unseen', null)], cut: null }).steps, ['not fetched yet']);
});

test('a looked-up URL is told in one sentence: seen and what became of it, or why the crawl never saw it', () => {
  const base = { discoveryPath: [], pathCut: false, captures: [], log: [], takenAs: null, viaScopeHops: null, extraHops: 0 };
  assert.match(inspectionVerdict({ ...base, url: null, entry: null, scope: null }), /not an http\(s\) URL/);
  const seen = { url: 'http://a/x', state: 'excluded', reason: 'exclude-match', depth: 2, kind: 'navigation', via: 'http://a/', status: null, attempts: 0, scopeHops: null };
  assert.equal(inspectionVerdict({ ...base, url: 'http://a/x', entry: seen, scope: null }), 'The crawl has seen it: not followed: exclude-match.');
  assert.match(inspectionVerdict({ ...base, url: 'http://a/y', entry: null, scope: { inScope: true, reason: null, takenIf: [] } }), /no page it fetched links to it/);
  assert.equal(inspectionVerdict({ ...base, url: 'http://b/', entry: null, scope: { inScope: false, reason: 'out-of-scope-host', takenIf: [] } }), 'The crawl has not seen it, and its scope would not take it: out-of-scope-host.');
});

test('with extra hops an unseen URL outside the scope is not called out of scope: whether it is taken depends on the page linking to it', () => {
  const base = { discoveryPath: [], pathCut: false, captures: [], log: [], takenAs: null, viaScopeHops: null, entry: null, url: 'http://b/' };
  const outside = { inScope: false, reason: 'out-of-scope-host' };
  assert.equal(
    inspectionVerdict({ ...base, extraHops: 1, scope: { ...outside, takenIf: ['extra-hops'] } }),
    'The crawl has not seen it. It lies outside the scope (out-of-scope-host), but with 1 extra hop the crawl takes it when a page in the scope links to it: whether it would depends on the page linking to it, which the crawl has not found.',
  );
  const two = inspectionVerdict({ ...base, extraHops: 2, scope: { ...outside, takenIf: ['extra-hops', 'requisite'] } });
  assert.match(two, /with 2 extra hops the crawl takes it when a page in the scope, or one at most 1 link outside it, links to it/);
  assert.match(two, /as a requisite/);
  assert.doesNotMatch(two, /would not take it/);
  assert.equal(
    inspectionVerdict({ ...base, extraHops: 0, scope: { ...outside, takenIf: ['requisite'] } }),
    'The crawl has not seen it, and its scope would not take it: out-of-scope-host. Only as a page requisite (an image, stylesheet, script… of a page it fetches) would it be taken.',
  );
});

test('a seen URL outside the scope says how far out it lies and what took it; one refused, how far out its page lay', () => {
  const base = { discoveryPath: [], pathCut: false, captures: [], log: [], scope: null, url: 'http://b/x' };
  const row = { url: 'http://b/x', state: 'done', reason: null, depth: 2, kind: 'navigation', via: 'http://b/', status: 200, attempts: 1 };
  assert.equal(
    inspectionVerdict({ ...base, extraHops: 2, takenAs: 'extra-hops', viaScopeHops: 1, entry: { ...row, scopeHops: 2 } }),
    "The crawl has seen it: 200, captured. It lies outside the scope, 2 links from it: taken within the crawl's 2 extra hops.",
  );
  assert.equal(
    inspectionVerdict({ ...base, extraHops: 0, takenAs: 'requisite', viaScopeHops: 1, entry: { ...row, kind: 'redirect', scopeHops: 1 } }),
    'The crawl has seen it: 200, captured. It lies outside the scope, 1 link from it: taken as a page requisite.',
  );
  assert.equal(inspectionVerdict({ ...base, extraHops: 0, takenAs: null, viaScopeHops: 0, entry: { ...row, scopeHops: 0 } }), 'The crawl has seen it: 200, captured.');
  const refused = { ...row, state: 'excluded', reason: 'out-of-scope-host', status: null, scopeHops: null };
  assert.equal(
    inspectionVerdict({ ...base, extraHops: 1, takenAs: null, viaScopeHops: 1, entry: refused }),
    'The crawl has seen it: not followed: out-of-scope-host. The page it was found on lies 1 link outside the scope; the crawl takes at most 1 extra hop.',
  );
  assert.equal(inspectionVerdict({ ...base, extraHops: 0, takenAs: null, viaScopeHops: 0, entry: refused }), 'The crawl has seen it: not followed: out-of-scope-host.');
});

// Found by an exploratory session: every path was headed "from its seed", a feed's article's included.
test('a discovery path\'s heading names where it starts: a seed, a feed, a robots.txt, a posted URL, or not known', () => {
  const headed = (kind: string, pathCut = false) => discoveryPathHeading({ discoveryPath: [{ url: 'http://a/', kind }], pathCut });
  assert.deepEqual([headed('seed'), headed('feed'), headed('robots.txt'), headed('page'), headed('navigation', true)], [
    'How the crawl found it, from its seed',
    'How the crawl found it, from a feed of the crawl',
    'How the crawl found it, from a robots.txt',
    'How the crawl found it, from a URL posted to the crawl',
    'How the crawl found it (the start of the path is not known)',
  ]);
});
