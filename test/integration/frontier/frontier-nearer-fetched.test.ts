/**
 * A page fetched at the depth limit, found again from a page nearer the seeds, is reported to the
 * caller with its nearer depth (AddResult.nearerFetched) and its links refused as too deep are
 * listed (tooDeepLinksOf), once per shorter way; links found again as deep cost no write; a
 * resumed frontier does the same from the stored row; a page being fetched is reported once done.
 * Real SQLite, simulated time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { SqliteFrontier } from '../../../worker/frontier';
import { cand, tempFrontier } from './frontier-fixture';

const P = 'http://a.test/chain/p';
const Q = 'http://a.test/chain/q';
const atLimit = cand(P, 0.5, { depth: 3, kind: 'navigation', viaUrl: 'http://a.test/chain/b', scopeHops: 0 });
const nearer = cand(P, 0.5, { depth: 1, kind: 'navigation', viaUrl: 'http://a.test/near', scopeHops: 0 });
const tooDeep = { url: Q, host: 'a.test', reason: 'max-depth' as const, depth: 4, viaUrl: P, kind: 'navigation', withinScopeShallower: true };
const nearerPage = { url: P, host: 'a.test', depth: 1, scopeHops: 0 };
// The frontier's own limit is a backstop past the pages' (crawler/frontier-config.ts).
const limits = { maxDepth: 14, pageMaxDepth: 3 };

/** Queues, leases and completes P at the limit, its link to Q refused as too deep on the way. */
function fetchAtLimit(f: SqliteFrontier, now: number): void {
  f.add(1, [atLimit]);
  const lease = f.next(now)!;
  f.exclude(1, [tooDeep]);
  f.complete(lease, { status: 200, durationMs: 0 });
}

test('a page fetched at the limit and found nearer is reported once with its links refused as too deep; found as deep, nothing is written', (t) => {
  const fx = tempFrontier(limits);
  t.after(fx.cleanup);
  const f = fx.open();
  fetchAtLimit(f, fx.clock.now());
  const changes = fx.handles[0]!.prepare('SELECT total_changes()').pluck();
  const before = changes.get();
  assert.deepEqual(f.add(1, [atLimit, { ...atLimit, depth: 4 }]), { added: 0, duplicates: 2, budgetExcluded: 0 });
  assert.equal(changes.get(), before, 'found again as deep or deeper: no write');
  assert.equal(f.fetchedDeeper(1, P, 1), true);

  assert.deepEqual(f.add(1, [nearer]).nearerFetched, [nearerPage]);
  assert.deepEqual(f.tooDeepLinksOf(1, P), [{ url: Q, kind: 'navigation' }]);
  assert.equal(f.lookup(1, P)?.depth, 1, 'the row is reachable at the nearer depth');
  assert.equal(f.add(1, [nearer]).nearerFetched, undefined, 'once per shorter way');
  f.close();
});

test('a resumed frontier reports a page an earlier run fetched at the limit when a nearer link finds it', (t) => {
  const fx = tempFrontier(limits);
  t.after(fx.cleanup);
  let f = fx.open();
  fetchAtLimit(f, fx.clock.now());
  f.close();
  f = fx.open();
  assert.equal(f.add(1, [atLimit]).nearerFetched, undefined, 'as deep: nothing to offer');
  assert.deepEqual(f.add(1, [nearer]).nearerFetched, [nearerPage]);
  f.close();
  f = fx.open();
  assert.equal(f.add(1, [nearer]).nearerFetched, undefined, 'the nearer depth was kept across the restart');
  f.close();
});

test('a page found nearer while being fetched is reported once completed; one released to the queue is not', (t) => {
  const fx = tempFrontier(limits);
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [atLimit]);
  let lease = f.next(fx.clock.now())!;
  assert.equal(f.add(1, [nearer]).nearerFetched, undefined, 'not done yet: its links are not planned');
  f.release(lease);
  assert.deepEqual(f.takeNearerWhileFetched(1, P), [], 'released: no longer found while fetched');
  lease = f.next(fx.clock.now())!;
  assert.equal(lease.depth, 3, 'a leased row keeps its depth until done');
  f.add(1, [nearer]);
  f.exclude(1, [tooDeep]);
  f.complete(lease, { status: 200, durationMs: 0 });
  assert.deepEqual(f.takeNearerWhileFetched(1, P), [nearerPage]);
  assert.deepEqual(f.takeNearerWhileFetched(1, P), [], 'once');
  assert.equal(f.lookup(1, P)?.depth, 1);
  f.close();
});
