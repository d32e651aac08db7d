/**
 * The worker runs every active crawl with one frontier per crawl and one politeness registry for
 * all of them (CrawlManager). These tests put two frontiers on one real SQLite file, one crawl each,
 * sharing a registry, on simulated time: what one crawl does with a key must reach the other.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { SqliteFrontier } from '../../../worker/frontier';
import { PolitenessRegistry } from '../../../worker/politeness';
import { openSqlite } from '../../../worker/store/sqlite';
import { cand, crawlConfig, tempFrontier } from './frontier-fixture';

const polite = { enabled: true, minDelayMs: 200, maxDelayMs: 200, delayFactor: 0 };

/** Two crawls' frontiers on one database file and one registry; `woken` counts each one's wake-ups. */
function twoCrawls(t: { after(fn: () => void): void }) {
  const fx = tempFrontier();
  t.after(fx.cleanup);
  const registry = new PolitenessRegistry();
  const woken = [0, 0];
  const [f1, f2] = [1, 2].map((crawlId, i) => {
    const db = openSqlite(fx.path);
    fx.handles.push(db);
    const f = new SqliteFrontier(db, { clock: fx.clock, registry, onHostsWaiting: () => void (woken[i]! += 1) });
    f.openCrawl(crawlId, crawlConfig({ politeness: polite }));
    return f;
  }) as [SqliteFrontier, SqliteFrontier];
  return { fx, registry, f1, f2, woken, db1: fx.handles[0]! };
}

test('a key freed by one crawl places the other crawl\'s host parked on it again, and wakes that crawl', (t) => {
  const { fx, registry, f1, f2, woken } = twoCrawls(t);
  f1.add(1, [cand('http://a.test/1')]);
  f2.add(2, [cand('http://a.test/1'), cand('http://a.test/2')]);
  const t0 = fx.clock.now();
  const l1 = f1.next(t0)!;
  assert.equal(l1.host, 'a.test');
  assert.equal(f2.next(t0), null, 'crawl 1 holds the host');
  assert.equal(f2.nextWakeAt(), null, 'crawl 2 waits for the key');
  f1.complete(l1, { status: 200, startedAt: t0, durationMs: 50 });
  assert.equal(f2.nextWakeAt(), t0 + 50 + 200, 'crawl 2 waits the delay after crawl 1\'s request');
  assert.equal(woken[1], 1, 'crawl 2 was woken');
  assert.equal(f2.next(t0 + 249), null);
  const l2 = f2.next(t0 + 250)!;
  assert.equal(l2.host, 'a.test');

  // A crawl paused with a lease out: closing it gives the key back to the other crawl.
  f1.add(1, [cand('http://a.test/3')]);
  f2.complete(l2, { status: 200, startedAt: t0 + 250, durationMs: 0 });
  const l3 = f1.next(t0 + 450)!;
  assert.equal(l3.url, 'http://a.test/3');
  assert.equal(f2.next(t0 + 1000), null);
  f1.closeCrawl(1);
  assert.equal(f2.next(t0 + 1000)?.url, 'http://a.test/2', 'the key crawl 1 held is free again');
  f2.closeCrawl(2);
  assert.equal(registry.listenerCount, 0, 'closed crawls stop listening to the registry');
});

test('a crawl that gives back a lease whose IP was busy cannot free the key the other crawl took for the same host since', (t) => {
  const { fx, registry, f1, f2 } = twoCrawls(t);
  const IP = '10.0.0.1';
  f1.setHostKey('a.test', IP);
  f1.add(1, [cand('http://a.test/1', 0.9), cand('http://b.test/1', 0.1)]);
  f2.add(2, [cand('http://b.test/1'), cand('http://b.test/2')]);
  const t0 = fx.clock.now();
  const a = f1.next(t0)!;
  assert.equal(a.host, 'a.test');
  // Crawl 2 leases b.test under its name's clock; resolving it finds the IP busy (the DNS stage then gives it back).
  const b2 = f2.next(t0)!;
  assert.equal(b2.host, 'b.test');
  assert.equal(f2.setHostKey('b.test', IP), false);
  f1.complete(a, { status: 200, startedAt: t0, durationMs: 0 });
  // Crawl 1 takes the IP for its own b.test request before crawl 2's lease is given back.
  const b1 = f1.next(t0 + 200)!;
  assert.equal(b1.host, 'b.test');
  f2.release(b2);
  assert.equal(registry.isBusy(IP), true, 'crawl 1\'s request still holds the IP');
  assert.equal(f2.next(t0 + 5000), null, 'no second request to the IP while crawl 1\'s is in flight');
  f1.complete(b1, { status: 200, startedAt: t0 + 200, durationMs: 0 });
  assert.equal(f2.next(t0 + 5000)?.host, 'b.test');
});

test('a crawl closed while its database refuses the writes still frees its keys for the other crawl', (t) => {
  const { fx, f1, f2, db1 } = twoCrawls(t);
  f1.add(1, [cand('http://a.test/1')]);
  f2.add(2, [cand('http://a.test/1')]);
  const t0 = fx.clock.now();
  assert.ok(f1.next(t0));
  assert.equal(f2.next(t0), null);
  db1.close(); // every write of crawl 1 now fails, as on a full disk
  assert.throws(() => f1.closeCrawl(1));
  // Its request may have run: the key counts as used at the close.
  assert.equal(f2.next(t0 + 199), null);
  assert.equal(f2.next(t0 + 200)?.host, 'a.test');
});

test('a host of one crawl waiting out its delay keeps its turn at a key another crawl\'s request outside the leases takes and frees meanwhile', async (t) => {
  const { fx, registry, f1, f2 } = twoCrawls(t);
  f2.add(2, [cand('http://a.test/1'), cand('http://a.test/2')]);
  const t0 = fx.clock.now();
  const first = f2.next(t0)!;
  f2.complete(first, { status: 200, startedAt: t0, durationMs: 0 });
  assert.equal(f2.nextWakeAt(), t0 + 200, 'crawl 2\'s next page of a.test waits out the delay, the key free');
  // A revisit of crawl 1 takes the free key, waits out the delay holding it, and frees it.
  const revisit = { host: 'a.test' };
  assert.ok(f1.holdKey(revisit));
  f1.releaseKey(revisit, { lastStartAt: t0 + 200, lastDurationMs: 10 });
  assert.equal(registry.leaseDueAt('a.test'), t0 + 410, 'the key is crawl 2\'s page\'s turn once the revisit\'s delay is over');
  await fx.clock.advanceTo(t0 + 410);
  assert.equal(f1.keyOwedToLeases('a.test'), true, 'the next revisit waits behind it');
  assert.equal(f2.next(t0 + 410)?.url, 'http://a.test/2');
});

test('a host resolved to a new IP by one crawl is placed under that IP in the other crawl too, and that crawl woken', (t) => {
  const { fx, f1, f2, woken } = twoCrawls(t);
  const [OLD_IP, NEW_IP] = ['10.0.0.1', '10.0.0.2'];
  f1.setHostKey('a.test', OLD_IP);
  f2.setHostKey('b.test', OLD_IP);
  f1.add(1, [cand('http://a.test/1')]);
  f2.add(2, [cand('http://b.test/1')]);
  const t0 = fx.clock.now();
  assert.equal(f1.next(t0)?.host, 'a.test');
  assert.equal(f2.next(t0), null, 'b.test waits for its IP, which crawl 1\'s a.test request holds');
  assert.equal(f2.nextWakeAt(), null);
  const wokenBefore = woken[1]!;
  // Crawl 1's DNS stage finds b.test on another IP, free and never used.
  assert.equal(f1.setHostKey('b.test', NEW_IP), true);
  assert.ok(woken[1]! > wokenBefore, 'crawl 2 was woken');
  assert.equal(f2.nextWakeAt(), Number.NEGATIVE_INFINITY, 'crawl 2\'s b.test may go at once');
  assert.equal(f2.next(t0)?.host, 'b.test', 'not kept waiting for the old IP crawl 1 still holds');
});

test('the registry forgets the keys and Crawl-delays of hosts only closed crawls used; an open crawl\'s host keeps its IP', (t) => {
  const { registry, f1, f2 } = twoCrawls(t);
  const HOSTS = 200;
  const SHARED_IP = '10.0.5.1';
  const hosts = Array.from({ length: HOSTS }, (_, i) => `h${i}.test`);
  f1.add(1, hosts.map((h) => cand(`http://${h}/`)));
  hosts.forEach((h, i) => {
    f1.setHostKey(h, i === 0 ? SHARED_IP : `10.0.6.${i}`);
    f1.setRobotsDelay(h, 1000);
  });
  // Crawl 2 has a page of h0.test too, and one host of its own on h0's IP.
  f2.add(2, [cand('http://h0.test/2'), cand('http://other.test/')]);
  f2.setHostKey('other.test', SHARED_IP);
  f1.closeCrawl(1);

  // h0.test: its key, Crawl-delay and one user; other.test: its key and one user.
  assert.equal(registry.hostEntryCount, 5, 'nothing kept of the hosts only the closed crawl used');
  assert.equal(registry.keyOf('h0.test'), SHARED_IP, 'the open crawl\'s host keeps its IP');
  assert.equal(registry.robotsDelayMs('h0.test'), 1000, 'and its Crawl-delay');
  assert.equal(registry.keyOf('h1.test'), 'h1.test');
  const lease = f2.next(1_000_000_000)!;
  assert.equal(f2.next(1_000_000_000), null, 'its two hosts on one IP still wait for each other');
  f2.complete(lease, { status: 200, startedAt: 1_000_000_000, durationMs: 0 });
  f2.closeCrawl(2);
  assert.equal(registry.hostEntryCount, 0, 'nothing kept once no crawl is open');
});

test('a frontier that opens a crawl again after its last one closed reads its hosts\' stored IPs again', (t) => {
  const { registry, f1 } = twoCrawls(t);
  f1.add(1, [cand('http://a.test/1'), cand('http://b.test/1')]);
  f1.setHostKey('a.test', '10.0.7.1');
  f1.setHostKey('b.test', '10.0.7.1');
  f1.closeCrawl(1);
  assert.equal(registry.keyOf('a.test'), 'a.test', 'forgotten by the registry: no open crawl used it');
  f1.openCrawl(1, crawlConfig({ politeness: polite }));
  assert.equal(registry.keyOf('a.test'), '10.0.7.1', 'read from frontier_host with the resumed crawl\'s queue');
  const lease = f1.next(1_000_000_000)!;
  assert.equal(f1.next(1_000_000_000), null, 'a.test and b.test take turns on their IP, not each under its name');
  // The DNS stage's call for a key this process wrote before: the registry learns it again too.
  assert.equal(f1.setHostKey(lease.host, '10.0.7.1'), true);
  assert.equal(registry.keyOf(lease.host), '10.0.7.1');
});
