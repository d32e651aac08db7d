/**
 * A URL excluded for a refusal a later discovery may overturn (out of the scope, too deep) is
 * queued once when a discovery the scope takes (a requisite, an extra hop) offers it, and counted
 * as queued rather than excluded; other exclusions stand; links refusing it again write nothing.
 * Real SQLite, simulated time.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cand, drain, tempFrontier } from './frontier-fixture';

const PIC = 'http://cdn.test/pic.png';
const refused = (url: string, reason: 'out-of-scope-host' | 'max-depth' | 'exclude-match' | 'trap-calendar' = 'out-of-scope-host') =>
  ({ url, host: new URL(url).host, reason, depth: 1, viaUrl: 'http://a.test/', kind: 'navigation' });
const requisite = (url: string) => cand(url, 0.5, { kind: 'requisite', depth: 2, viaUrl: 'http://a.test/gallery', scopeHops: 1 });

test('a URL refused out of scope is queued once when a page uses it as a requisite, and the counters follow', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  const db = fx.handles[0]!;
  assert.equal(f.exclude(1, [refused(PIC)]), 1);
  assert.equal(f.refused(1, PIC), true);
  // Found again as a plain link: nothing written.
  const changes = db.prepare('SELECT total_changes()').pluck();
  const before = changes.get();
  assert.equal(f.exclude(1, [refused(PIC), refused(PIC)]), 0);
  assert.equal(changes.get(), before, 'a refused URL found again as an out-of-scope link costs no write');
  assert.deepEqual(f.counters(1).excludedByReason, { 'out-of-scope-host': 1 });

  assert.deepEqual(f.add(1, [requisite(PIC)]), { added: 1, duplicates: 0, budgetExcluded: 0 });
  const row = f.lookup(1, PIC)!;
  assert.deepEqual([row.state, row.reason, row.kind, row.depth, row.viaUrl, row.scopeHops], ['queued', null, 'requisite', 2, 'http://a.test/gallery', 1]);
  assert.equal(f.refused(1, PIC), false);
  const c = f.counters(1);
  assert.deepEqual([c.queued, c.excluded, c.excludedByReason], [1, 0, {}]);
  assert.deepEqual(f.hostCounters(1).find((h) => h.host === 'cdn.test'), { host: 'cdn.test', queued: 1, inFlight: 0, retrying: 0, done: 0, failed: 0, excluded: 0 });
  assert.deepEqual(f.add(1, [requisite(PIC)]), { added: 0, duplicates: 1, budgetExcluded: 0 }, 'queued once');
  assert.deepEqual(drain(f, fx.clock.now()), [PIC]);
  assert.deepEqual(f.add(1, [requisite(PIC)]), { added: 0, duplicates: 1, budgetExcluded: 0 }, 'fetched once');
  assert.equal(f.exclude(1, [refused(PIC)]), 0);
  assert.equal(f.lookup(1, PIC)?.state, 'done');
  f.close();
});

test('a URL refused as too deep is taken as a requisite one hop past the limit', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  f.exclude(1, [refused('http://a.test/edge.png', 'max-depth')]);
  assert.equal(f.add(1, [cand('http://a.test/edge.png', 0.5, { kind: 'requisite', depth: 3, scopeHops: 0 })]).added, 1);
  assert.equal(f.lookup(1, 'http://a.test/edge.png')?.state, 'queued');
  f.close();
});

test('exclusions no discovery overturns stand: exclude patterns, traps', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  f.exclude(1, [refused('http://cdn.test/private.png', 'exclude-match'), refused('http://cdn.test/2026/01/01/x.png', 'trap-calendar')]);
  assert.equal(f.refused(1, 'http://cdn.test/private.png'), false);
  const res = f.add(1, [requisite('http://cdn.test/private.png'), requisite('http://cdn.test/2026/01/01/x.png')]);
  assert.deepEqual(res, { added: 0, duplicates: 2, budgetExcluded: 0 });
  assert.deepEqual(f.counters(1).excludedByReason, { 'exclude-match': 1, 'trap-calendar': 1 });
  f.close();
});

test('over the page budget a retaken URL stays excluded, with the budget as its reason', (t) => {
  const fx = tempFrontier({ maxPages: 1 });
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [cand('http://a.test/')]);
  f.exclude(1, [refused(PIC)]);
  assert.deepEqual(f.add(1, [requisite(PIC)]), { added: 0, duplicates: 0, budgetExcluded: 1 });
  assert.deepEqual([f.lookup(1, PIC)?.state, f.lookup(1, PIC)?.reason], ['excluded', 'max-pages']);
  const c = f.counters(1);
  assert.deepEqual([c.queued, c.excluded, c.excludedByReason], [1, 1, { 'max-pages': 1 }]);
  assert.deepEqual(f.add(1, [requisite(PIC)]), { added: 0, duplicates: 1, budgetExcluded: 0 }, 'settled from then on');
  f.close();
});

type Fixture = ReturnType<typeof tempFrontier>;
type OpenFrontier = ReturnType<Fixture['open']>;

/** Closes `f` and its database handle (the latest opened), as a run ends, and opens the frontier again. */
function reopen(fx: Fixture, f: OpenFrontier): OpenFrontier {
  f.close();
  fx.handles.at(-1)!.close();
  return fx.open();
}

/** A frontier opened again on a crawl whose earlier run did `earlier`. */
function afterAnEarlierRun(fx: Fixture, earlier: (f: OpenFrontier) => unknown): OpenFrontier {
  const first = fx.open();
  earlier(first);
  return reopen(fx, first);
}

/** A frontier opened again on a crawl whose earlier run refused PIC out of scope. */
function refusedInAnEarlierRun(fx: Fixture): OpenFrontier {
  return afterAnEarlierRun(fx, (f) => f.exclude(1, [refused(PIC)]));
}

test('a URL an earlier run refused is taken by a requisite after a restart, and the counters read back agree', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = refusedInAnEarlierRun(fx);
  assert.deepEqual(f.counters(1).excludedByReason, { 'out-of-scope-host': 1 });
  assert.equal(f.exclude(1, [refused(PIC)]), 0, 'refused again by a plain link');
  assert.equal(f.refused(1, PIC), true);
  assert.deepEqual(f.add(1, [requisite(PIC)]), { added: 1, duplicates: 0, budgetExcluded: 0 });
  assert.deepEqual([f.counters(1).queued, f.counters(1).excluded], [1, 0]);
  const again = reopen(fx, f);
  // This run never saw it: the requisite's insert finds the row, and reads its state once.
  assert.deepEqual(again.add(1, [requisite(PIC)]), { added: 0, duplicates: 1, budgetExcluded: 0 });
  assert.deepEqual([again.counters(1).queued, again.counters(1).excluded, again.counters(1).excludedByReason], [1, 0, {}]);
  again.close();
});

test('a URL refused in an earlier run and never seen by this one is taken by the first requisite to find it', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = refusedInAnEarlierRun(fx);
  assert.deepEqual(f.add(1, [requisite(PIC)]), { added: 1, duplicates: 0, budgetExcluded: 0 });
  assert.deepEqual([f.counters(1).queued, f.counters(1).excluded, f.lookup(1, PIC)?.kind], [1, 0, 'requisite']);
  f.close();
});

const DEEP = 'http://a.test/deep';
/** Refused as too deep at depth 3 (maxDepth 2) by a link the scope would take from a page nearer the seeds. */
const tooDeep = { ...refused(DEEP, 'max-depth'), depth: 3, withinScopeShallower: true };
const nearer = cand(DEEP, 0.5, { kind: 'navigation', depth: 2, viaUrl: 'http://a.test/near', scopeHops: 0 });

test('a URL refused as too deep is queued once, at its new depth, when a link within the depth limit finds it', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  const db = fx.handles[0]!;
  assert.equal(f.exclude(1, [tooDeep]), 1);
  assert.deepEqual([f.refused(1, DEEP), f.refusedTooDeep(1, DEEP)], [true, true]);
  assert.equal(f.refusedTooDeep(1, PIC), false);
  // Too deep again, and an off-site URL refused again: nothing written.
  f.exclude(1, [refused(PIC)]);
  const changes = db.prepare('SELECT total_changes()').pluck();
  const before = changes.get();
  assert.equal(f.exclude(1, [tooDeep, refused(PIC)]), 0);
  assert.equal(changes.get(), before, 'refusals found again cost no write');
  assert.equal(f.refusedTooDeep(1, PIC), false, 'an off-site URL stays refused for plain links');

  assert.deepEqual(f.add(1, [nearer]), { added: 1, duplicates: 0, budgetExcluded: 0 });
  const row = f.lookup(1, DEEP)!;
  assert.deepEqual([row.state, row.reason, row.kind, row.depth, row.viaUrl], ['queued', null, 'navigation', 2, 'http://a.test/near']);
  assert.equal(f.refused(1, DEEP), false);
  const c = f.counters(1);
  assert.deepEqual([c.queued, c.excluded, c.excludedByReason], [1, 1, { 'out-of-scope-host': 1 }]);
  assert.deepEqual(f.add(1, [nearer]), { added: 0, duplicates: 1, budgetExcluded: 0 }, 'queued once');
  assert.equal(f.exclude(1, [tooDeep]), 0, 'a deep link to it again changes nothing');
  assert.deepEqual(drain(f, fx.clock.now()), [DEEP]);
  f.close();
});

test('after a restart a link within the depth limit takes a URL an earlier run refused as too deep, and reopened counters agree', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = afterAnEarlierRun(fx, (first) => first.exclude(1, [tooDeep]));
  assert.deepEqual(f.counters(1).excludedByReason, { 'max-depth': 1 });
  // This run never saw it: the in-scope link's insert finds the row, whose state is read once.
  assert.deepEqual(f.add(1, [nearer]), { added: 1, duplicates: 0, budgetExcluded: 0 });
  const row = f.lookup(1, DEEP)!;
  assert.deepEqual([row.state, row.depth, row.kind], ['queued', 2, 'navigation']);
  assert.deepEqual([f.counters(1).queued, f.counters(1).excluded, f.counters(1).excludedByReason], [1, 0, {}]);
  assert.deepEqual(f.add(1, [nearer]), { added: 0, duplicates: 1, budgetExcluded: 0 }, 'queued once');
  const again = reopen(fx, f);
  assert.deepEqual([again.counters(1).queued, again.counters(1).excluded, again.counters(1).excludedByReason], [1, 0, {}]);
  assert.deepEqual(again.add(1, [nearer]), { added: 0, duplicates: 1, budgetExcluded: 0 });
  assert.deepEqual(drain(again, fx.clock.now()), [DEEP]);
  again.close();
});

test('after a restart a queued URL found again is still rescored once its state was read, and a fetched one is left alone', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  let done = '';
  const f = afterAnEarlierRun(fx, (first) => {
    first.add(1, [cand('http://a.test/waits', 0.2), cand('http://b.test/done', 0.2)]);
    const l = first.next(fx.clock.now())!;
    first.complete(l, { status: 200, durationMs: 0 });
    done = l.url;
  });
  const waits = done === 'http://a.test/waits' ? 'http://b.test/done' : 'http://a.test/waits';
  assert.deepEqual(f.add(1, [cand(waits, 0.9), cand(done, 0.9)], { update: 'MAX' }), { added: 0, duplicates: 2, budgetExcluded: 0 });
  assert.equal(f.lookup(1, waits)?.rawScore, 0.9, 'rescored by MAX');
  assert.deepEqual([f.lookup(1, done)?.state, f.lookup(1, done)?.rawScore], ['done', 0.2]);
  assert.equal(f.settled(1, done), true, 'known as fetched from then on');
  f.close();
});
