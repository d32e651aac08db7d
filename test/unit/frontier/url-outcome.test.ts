import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inspectionVerdict, seedOutcome } from '../../../worker/frontier/url-outcome';
import type { SeedHop } from '../../../worker/frontier/seed-report';

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

test('a seed still waiting is neither captured nor a problem', () => {
  for (const state of ['unseen', 'queued', 'in-flight', 'retrying']) {
    const o = seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', state, null, state === 'retrying' ? 'connect-timeout' : null)], cut: null });
    assert.deepEqual([o.captured, o.problem], [false, false], state);
  }
  assert.deepEqual(seedOutcome({ seed: 'http://a/', hops: [hop('http://a/', 'unseen', null)], cut: null }).steps, ['not fetched yet']);
});

test('a looked-up URL is told in one sentence: seen and what became of it, or why the crawl never saw it', () => {
  const base = { discoveryPath: [], pathCut: false, captures: [], log: [] };
  assert.match(inspectionVerdict({ ...base, url: null, entry: null, scope: null }), /not an http\(s\) URL/);
  const seen = { url: 'http://a/x', state: 'excluded', reason: 'exclude-match', depth: 2, kind: 'navigation', via: 'http://a/', status: null, attempts: 0 };
  assert.equal(inspectionVerdict({ ...base, url: 'http://a/x', entry: seen, scope: null }), 'The crawl has seen it: not followed: exclude-match.');
  assert.match(inspectionVerdict({ ...base, url: 'http://a/y', entry: null, scope: { inScope: true, reason: null } }), /no page it fetched links to it/);
  assert.equal(inspectionVerdict({ ...base, url: 'http://b/', entry: null, scope: { inScope: false, reason: 'out-of-scope-host' } }), 'The crawl has not seen it, and its scope would not take it: out-of-scope-host.');
});
