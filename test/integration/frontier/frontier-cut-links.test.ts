/**
 * A page fetched at the depth limit refused its links as too deep; found again from a page nearer
 * the seeds, its row records the nearer way and the links it refused (its row named as via_url) go
 * back to the caller, who plans them from there; a link the scope takes then is queued as any URL
 * refused as too deep is (counters, markers). Links found again as deep cost no write; after a
 * restart the stored rows answer. Real SQLite, simulated time; the test plays the crawler's part
 * (scope maxDepth 3, the frontier's own limit looser, as crawler/frontier-config.ts sets it).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Rejected } from '../../../worker/frontier';
import { cand, drain, tempFrontier } from './frontier-fixture';

const PAGE = 'http://a.test/chain/3';
const CHILD = 'http://a.test/chain/4';
const OFF_SITE = 'http://b.test/elsewhere';
const FIRST_FROM_OTHER = 'http://a.test/shared';
const atLimit = cand(PAGE, 0.5, { depth: 3, kind: 'navigation', viaUrl: 'http://a.test/chain/2', scopeHops: 0 });
const from = (depth: number, viaUrl: string) => ({ ...atLimit, depth, viaUrl });
const tooDeep = (url: string, viaUrl: string, withinScopeShallower = true): Rejected =>
  ({ url, host: new URL(url).host, reason: 'max-depth', depth: 4, viaUrl, kind: 'navigation', withinScopeShallower });
/** As the crawler plans a cut link the scope takes from the nearer depth. */
const retaken = (found: { url: string; depth: number; scopeHops: number | null }) =>
  cand(CHILD, 0.5, { depth: found.depth + 1, kind: 'navigation', viaUrl: found.url, scopeHops: found.scopeHops ?? 0 });

type Fixture = ReturnType<typeof tempFrontier>;
type OpenFrontier = ReturnType<Fixture['open']>;

/** Queues PAGE at depth 3, fetches it, and records its links refused as too deep (one off the site, one another page refused first). */
function fetchPageAtLimit(f: OpenFrontier, now: number): void {
  f.exclude(1, [tooDeep(FIRST_FROM_OTHER, 'http://a.test/other')]);
  f.add(1, [atLimit]);
  const lease = f.next(now)!;
  assert.equal(lease.url, PAGE);
  f.exclude(1, [tooDeep(CHILD, PAGE), tooDeep(OFF_SITE, PAGE, false), tooDeep(FIRST_FROM_OTHER, PAGE)]);
  f.complete(lease, { status: 200, durationMs: 0 });
}

const row = (f: OpenFrontier, url: string) => {
  const r = f.lookup(1, url)!;
  return [r.state, r.depth, r.viaUrl, r.reason];
};

test('a fetched page whose links were cut, found nearer the seeds, hands them back once per nearer depth; found as deep, nothing is written', (t) => {
  const fx = tempFrontier({ maxDepth: 5 });
  t.after(fx.cleanup);
  const f = fx.open();
  const db = fx.handles[0]!;
  fetchPageAtLimit(f, fx.clock.now());
  assert.deepEqual([f.linksCutDeeper(1, PAGE, 2), f.linksCutDeeper(1, PAGE, 3), f.settled(1, PAGE)], [true, false, true]);

  const changes = db.prepare('SELECT total_changes()').pluck();
  const before = changes.get();
  assert.deepEqual(f.add(1, [atLimit, from(4, 'http://a.test/chain/3b')]), { added: 0, duplicates: 2, budgetExcluded: 0 });
  assert.equal(changes.get(), before, 'found again as deep or deeper: no write');

  const nearer = f.add(1, [from(2, 'http://a.test/near')]);
  assert.deepEqual(nearer.cutLinksFoundNearer, [
    { url: PAGE, host: 'a.test', depth: 2, scopeHops: 0, kind: 'navigation', viaUrl: 'http://a.test/near', links: [{ url: CHILD, kind: 'navigation' }, { url: OFF_SITE, kind: 'navigation' }] },
  ], 'the links it refused first; the one another page refused first is left to that page');
  assert.deepEqual(row(f, PAGE), ['done', 2, 'http://a.test/near', null], 'its row records the nearer way');
  assert.deepEqual(f.counters(1).excludedByReason, { 'max-depth': 3 });

  // The crawler's scope takes the child at depth 3 and refuses the off-site link again.
  assert.deepEqual(f.add(1, [retaken(nearer.cutLinksFoundNearer![0]!)]), { added: 1, duplicates: 0, budgetExcluded: 0 });
  assert.deepEqual(row(f, CHILD), ['queued', 3, PAGE, null]);
  const c = f.counters(1);
  assert.deepEqual([c.queued, c.done, c.excluded, c.excludedByReason], [1, 1, 2, { 'max-depth': 2 }]);
  assert.equal(f.refused(1, CHILD), false);

  assert.equal(f.add(1, [from(2, 'http://a.test/near2')]).cutLinksFoundNearer, undefined, 'as near again: nothing handed back');
  const nearest = f.add(1, [from(1, 'http://a.test/')]);
  assert.deepEqual(nearest.cutLinksFoundNearer?.map((p) => [p.depth, p.links.map((l) => l.url)]), [[1, [OFF_SITE]]], 'nearer still: what is still cut');
  assert.deepEqual(row(f, PAGE), ['done', 1, 'http://a.test/', null]);
  assert.deepEqual(drain(f, fx.clock.now()), [CHILD], 'the child is fetched once');
  f.close();
});

test('after a restart the stored rows answer: a fetched page found nearer hands back its cut links, and the child is queued once', (t) => {
  const fx = tempFrontier({ maxDepth: 5 });
  t.after(fx.cleanup);
  const first = fx.open();
  fetchPageAtLimit(first, fx.clock.now());
  first.close();
  fx.handles[0]!.close();

  // The known set is empty: found as deep, the page's row is read once and it is marked as cut.
  let f = fx.open();
  assert.deepEqual(f.add(1, [atLimit]), { added: 0, duplicates: 1, budgetExcluded: 0 });
  assert.equal(f.linksCutDeeper(1, PAGE, 2), true);
  const nearer = f.add(1, [from(2, 'http://a.test/near')]);
  assert.deepEqual(nearer.cutLinksFoundNearer?.map((p) => p.links.map((l) => l.url)), [[CHILD, OFF_SITE]]);
  // The child this run never saw: its insert finds the row refused as too deep, and takes it.
  assert.deepEqual(f.add(1, [retaken(nearer.cutLinksFoundNearer![0]!)]), { added: 1, duplicates: 0, budgetExcluded: 0 });
  f.close();
  fx.handles[1]!.close();

  // Reopened counters agree with the rows; a first link after a restart nearer still hands back what is still cut.
  f = fx.open();
  const c = f.counters(1);
  assert.deepEqual([c.queued, c.done, c.excluded, c.excludedByReason], [1, 1, 2, { 'max-depth': 2 }]);
  assert.deepEqual(f.add(1, [from(1, 'http://a.test/')]).cutLinksFoundNearer?.map((p) => p.links.map((l) => l.url)), [[OFF_SITE]]);
  assert.deepEqual(row(f, PAGE), ['done', 1, 'http://a.test/', null]);
  assert.deepEqual(drain(f, fx.clock.now()), [CHILD]);
  f.close();
});

test('without a depth limit a fetched page found nearer is left as it is', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  fetchPageAtLimit(f, fx.clock.now());
  assert.equal(f.linksCutDeeper(1, PAGE, 2), false);
  assert.deepEqual(f.add(1, [from(2, 'http://a.test/near')]), { added: 0, duplicates: 1, budgetExcluded: 0 });
  assert.deepEqual(row(f, PAGE), ['done', 3, 'http://a.test/chain/2', null]);
  f.close();
});
