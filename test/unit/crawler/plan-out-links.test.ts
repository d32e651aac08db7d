import { test } from 'node:test';
import assert from 'node:assert/strict';
import { planOutLinks, type ScopeInput } from '../../../worker/crawler/plan-out-links';
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
