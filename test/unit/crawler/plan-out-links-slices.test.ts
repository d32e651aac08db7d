/**
 * A page's links planned slice by slice (planOutLinksInSlices, for a large sitemap's) give what
 * the one-piece planning gives, and the event loop has its turns meanwhile.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PLAN_SLICE_LINKS, planOutLinks, planOutLinksInSlices, type ScopeInput } from '../../../worker/crawler/plan-out-links';
import type { CrawlItem, OutLink } from '../../../worker/crawler/stage';
import { compileScope, TrapDetector } from '../../../worker/url';

const input: ScopeInput = {
  scope: compileScope(
    { allowedHosts: [], surtPrefixes: [], include: [], exclude: ['/private/'], maxDepth: 3, maxUrlLength: 2048, includeRequisites: true },
    ['http://example.org/'],
  ),
  defaultPriority: 0.5,
};

function page(links: Array<Pick<OutLink, 'url' | 'kind'> & Partial<OutLink>>): CrawlItem {
  return {
    url: 'http://example.org/sitemap.xml', host: 'example.org', depth: 1, priority: 0.5, lease: null,
    links: links.map((l): OutLink => ({ anchorText: '', context: '', source: 'sitemap@loc', ...l })),
  };
}

/** Every kind of link the planning tells apart, its repeats and a path's query variants spread over the list. */
function mixedLinks(): CrawlItem {
  const links: Array<Pick<OutLink, 'url' | 'kind'> & Partial<OutLink>> = [];
  for (let i = 0; i < 60; i++) {
    links.push({ url: `http://example.org/p/${i}`, kind: 'navigation', priority: (i % 10) / 10 });
    if (i % 3 === 0) links.push({ url: `http://example.org/p/${Math.max(0, i - 5)}`, kind: 'navigation' }); // a repeat, often in an earlier slice
    if (i % 4 === 1) links.push({ url: `http://other.org/${i}`, kind: 'navigation' });
    if (i % 5 === 2) links.push({ url: `http://example.org/private/${i}`, kind: 'navigation' });
    if (i % 6 === 3) links.push({ url: `http://example.org/aah/${i}`, kind: 'navigation', excludedReason: i % 12 === 3 ? 'aah' : 'spam' });
    if (i % 7 === 4) links.push({ url: `http://example.org/a/b/a/b/a/b/a/b/${i}`, kind: 'navigation' });
    links.push({ url: `http://example.org/list?page=${i}`, kind: 'navigation' }); // past 20 variants, a trap
  }
  return page(links);
}

test('planned in slices of 1, 7 or more than the list, the links give the one-piece plan: repeats once, rejections and traps in order', async () => {
  const item = mixedLinks();
  const traps = () => new TrapDetector({ maxQueryVariantsPerPath: 20 });
  const whole = planOutLinks(item, input, traps());
  const reasons = new Set(whole.rejected.map((r) => r.reason));
  for (const reason of ['out-of-scope-host', 'exclude-match', 'aah', 'spam', 'trap-repeating-path', 'trap-query-variants']) assert.ok(reasons.has(reason as never), `${reason} among ${[...reasons]}`);
  assert.equal(new Set(whole.candidates.map((c) => c.url)).size, whole.candidates.length, 'each URL once');
  for (const slice of [1, 7, item.links!.length + 1, PLAN_SLICE_LINKS]) {
    assert.deepEqual(await planOutLinksInSlices(item, input, traps(), undefined, slice), whole, `slices of ${slice}`);
  }
  // URLs the frontier holds: carried as candidates whatever their scope, the same way.
  const known = (url: string) => url.startsWith('http://other.org/');
  assert.deepEqual(await planOutLinksInSlices(item, input, traps(), known, 7), planOutLinks(item, input, traps(), known));
});

test('between slices the event loop has its turn: a timer armed before planning 20,000 links runs before the plan is done', async () => {
  const item = page(Array.from({ length: 20_000 }, (_, i) => ({ url: `http://example.org/p/${i}.html`, kind: 'navigation' })));
  let fired = false;
  setTimeout(() => (fired = true), 0);
  const plan = await planOutLinksInSlices(item, input, new TrapDetector());
  assert.ok(fired, 'the timer ran while the links were planned');
  assert.equal(plan.candidates.length, 20_000);
});
