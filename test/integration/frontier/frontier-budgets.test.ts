import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cand, drain, tempFrontier } from './frontier-fixture';

test('duplicates are counted once, whatever state the URL is in', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  assert.deepEqual(f.add(1, [cand('http://a.test/1'), cand('http://a.test/2'), cand('http://a.test/1')]), { added: 2, duplicates: 1, budgetExcluded: 0 });
  drain(f, fx.clock.now());
  assert.deepEqual(f.add(1, [cand('http://a.test/1'), cand('http://a.test/3')]), { added: 1, duplicates: 1, budgetExcluded: 0 });
  f.openCrawl(2, fx.config);
  assert.equal(f.add(2, [cand('http://a.test/1')]).added, 1, 'another crawl has its own seen-set');
  f.close();
});

test('maxPages and maxPagesPerHost exclude URLs over budget with the reason', (t) => {
  const fx = tempFrontier({ maxPages: 5, maxPagesPerHost: 3 });
  t.after(fx.cleanup);
  const f = fx.open();
  const res = f.add(1, [
    cand('http://a.test/1'), cand('http://a.test/2'), cand('http://a.test/3'), cand('http://a.test/4'),
    cand('http://b.test/1'), cand('http://b.test/2'), cand('http://c.test/1'),
  ]);
  assert.deepEqual(res, { added: 5, duplicates: 0, budgetExcluded: 2 });
  assert.equal(f.lookup(1, 'http://a.test/4')?.reason, 'max-pages-per-host');
  assert.equal(f.lookup(1, 'http://a.test/4')?.state, 'excluded');
  assert.equal(f.lookup(1, 'http://c.test/1')?.reason, 'max-pages');
  const c = f.counters(1);
  assert.equal(c.queued, 5);
  assert.deepEqual(c.excludedByReason, { 'max-pages-per-host': 1, 'max-pages': 1 });
  assert.equal(f.add(1, [cand('http://c.test/1')]).duplicates, 1, 'an excluded URL stays seen');
  f.close();
});

test('depth and provenance are stored; maxDepth excludes deeper URLs', (t) => {
  const fx = tempFrontier({ maxDepth: 2 });
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [cand('http://a.test/deep', 0.5, { depth: 2, viaUrl: 'http://a.test/', kind: 'requisite' }), cand('http://a.test/deeper', 0.5, { depth: 3 })]);
  const rec = f.lookup(1, 'http://a.test/deep')!;
  assert.deepEqual([rec.depth, rec.viaUrl, rec.kind, rec.state], [2, 'http://a.test/', 'requisite', 'queued']);
  assert.equal(f.lookup(1, 'http://a.test/deeper')?.reason, 'max-depth');
  const lease = f.next(fx.clock.now())!;
  assert.deepEqual([lease.depth, lease.viaUrl, lease.kind], [2, 'http://a.test/', 'requisite']);
  f.close();
});

test('rejected URLs keep their reason and count as seen', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  const n = f.exclude(1, [
    { url: 'http://spam.test/', host: 'spam.test', reason: 'spam' },
    { url: 'http://a.test/private', host: 'a.test', reason: 'robots', depth: 2 },
    { url: 'http://spam.test/', host: 'spam.test', reason: 'blacklisted' },
  ]);
  assert.equal(n, 2);
  assert.equal(f.lookup(1, 'http://spam.test/')?.reason, 'spam', 'the first reason stays');
  assert.equal(f.lookup(1, 'http://a.test/private')?.depth, 2);
  assert.equal(f.add(1, [cand('http://a.test/private')]).duplicates, 1);
  assert.deepEqual(f.counters(1).excludedByReason, { spam: 1, robots: 1 });
  f.close();
});

test('failures: final ones count by reason, retries come back after their time', (t) => {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [cand('http://a.test/1', 0.9), cand('http://a.test/2', 0.5)]);
  const now = fx.clock.now();
  const first = f.next(now)!;
  f.fail(first, 'http-5xx', { retryAt: now + 5000 });
  const second = f.next(now)!;
  assert.equal(second.url, 'http://a.test/2');
  f.fail(second, 'dns');
  assert.equal(f.next(now), null);
  assert.equal(f.nextWakeAt(), now + 5000);
  assert.deepEqual([f.counters(1).retrying, f.counters(1).failed, f.counters(1).failedByReason.dns], [1, 1, 1]);
  const again = f.next(now + 5000)!;
  assert.equal(again.url, 'http://a.test/1');
  assert.equal(again.attempts, 1);
  assert.equal(f.complete(again, { status: 200 }), true);
  assert.equal(f.complete(again, { status: 200 }), false, 'a lease is settled once');
  const c = f.counters(1);
  assert.deepEqual([c.queued, c.inFlight, c.retrying, c.done, c.failed], [0, 0, 0, 1, 1]);
  assert.deepEqual(f.hostCounters(1), [{ host: 'a.test', queued: 0, inFlight: 0, retrying: 0, done: 1, failed: 1, excluded: 0 }]);
  f.close();
});
