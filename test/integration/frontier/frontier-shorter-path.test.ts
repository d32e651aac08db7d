/**
 * A URL waiting in the queue that a link from a page nearer the seeds finds again waits from then
 * on as that link found it (depth, kind, page), so its own links are judged from the nearer depth;
 * the stored row keeps it across a restart, and a resumed frontier takes a nearer link to a row an
 * earlier run queued. Links found again as deep, the hot path, cost no write.
 * Real SQLite, simulated time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cand, tempFrontier } from './frontier-fixture';

const TARGET = 'http://a.test/chain/3';
const deep = cand(TARGET, 0.5, { depth: 3, kind: 'navigation', viaUrl: 'http://a.test/chain/2', scopeHops: 0 });
const near = cand(TARGET, 0.5, { depth: 2, kind: 'navigation', viaUrl: 'http://a.test/near', scopeHops: 0 });
const way = (f: { lookup(crawlId: number, url: string): { depth: number; viaUrl: string | null; state: string } | null }) => {
  const r = f.lookup(1, TARGET)!;
  return [r.state, r.depth, r.viaUrl];
};

test('a queued URL found from a page nearer the seeds is leased at the nearer depth; found as deep, nothing is written', (t) => {
  const fx = tempFrontier({ maxDepth: 5 });
  t.after(fx.cleanup);
  const f = fx.open();
  const db = fx.handles[0]!;
  assert.equal(f.add(1, [deep]).added, 1);
  const changes = db.prepare('SELECT total_changes()').pluck();
  const before = changes.get();
  assert.deepEqual(f.add(1, [deep, { ...deep, depth: 4 }]), { added: 0, duplicates: 2, budgetExcluded: 0 });
  assert.equal(changes.get(), before, 'found again as deep or deeper: no write');
  assert.equal(f.queuedDeeper(1, TARGET, 2), true);

  assert.deepEqual(f.add(1, [near]), { added: 0, duplicates: 1, budgetExcluded: 0 });
  assert.deepEqual(way(f), ['queued', 2, 'http://a.test/near'], 'the row waits as the nearer link found it');
  assert.equal(f.queuedDeeper(1, TARGET, 2), false);
  const lease = f.next(fx.clock.now())!;
  assert.deepEqual([lease.url, lease.depth, lease.viaUrl], [TARGET, 2, 'http://a.test/near'], 'the host\'s held row was lowered too');
  assert.deepEqual(f.add(1, [{ ...near, depth: 1 }]), { added: 0, duplicates: 1, budgetExcluded: 0 });
  assert.equal(f.lookup(1, TARGET)?.depth, 2, 'leased: it keeps the depth it is fetched at');
  f.close();
});

test('a nearer way through more out-of-scope links leaves the URL as it waits', (t) => {
  const fx = tempFrontier({ maxDepth: 5 });
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [{ ...deep, scopeHops: 1 }]);
  f.add(1, [{ ...near, scopeHops: 2 }]);
  assert.deepEqual([...way(f), f.lookup(1, TARGET)?.scopeHops], ['queued', 3, 'http://a.test/chain/2', 1]);
  f.add(1, [{ ...near, scopeHops: 1 }]);
  assert.deepEqual([...way(f), f.lookup(1, TARGET)?.scopeHops], ['queued', 2, 'http://a.test/near', 1]);
  f.close();
});

test('the lowered depth survives a restart, and a resumed frontier lowers a row an earlier run queued', (t) => {
  const fx = tempFrontier({ maxDepth: 5 });
  t.after(fx.cleanup);
  const other = 'http://a.test/chain/4';
  let f = fx.open();
  f.add(1, [deep, cand(other, 0.5, { depth: 4, kind: 'navigation', viaUrl: TARGET, scopeHops: 0 })]);
  f.add(1, [near]);
  f.close();

  // The known set is empty now: the nearer link's insert finds the row and reads its state once.
  f = fx.open();
  assert.deepEqual(f.add(1, [cand(other, 0.5, { depth: 2, kind: 'navigation', viaUrl: 'http://a.test/near', scopeHops: 0 })]), { added: 0, duplicates: 1, budgetExcluded: 0 });
  const leased = [f.next(fx.clock.now())!, f.next(fx.clock.now())!].map((l) => [l.url, l.depth]);
  assert.deepEqual(leased, [[TARGET, 2], [other, 2]]);
  f.close();
});

test('a URL given back to the queue is lowered too; without a depth limit no depth is kept', (t) => {
  const fx = tempFrontier({ maxDepth: 5 });
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [deep]);
  f.release(f.next(fx.clock.now())!);
  f.add(1, [near]);
  assert.equal(f.next(fx.clock.now())?.depth, 2);
  f.close();

  const unlimited = tempFrontier();
  t.after(unlimited.cleanup);
  const g = unlimited.open();
  g.add(1, [deep]);
  assert.equal(g.queuedDeeper(1, TARGET, 2), false);
  g.add(1, [near]);
  assert.equal(g.lookup(1, TARGET)?.depth, 3);
  g.close();
});
