import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Lease } from '../../../worker/frontier';
import { cand, tempFrontier } from './frontier-fixture';

const polite = { enabled: true, minDelayMs: 200, maxDelayMs: 5000, delayFactor: 2 };
const IP: Record<string, string> = { 'a.test': '10.0.0.1', 'b.test': '10.0.0.1', 'c.test': '10.0.0.2' };

test('simulated crawl: hosts on one IP are never leased together and gaps respect the delay', async (t) => {
  const fx = tempFrontier({ politeness: polite });
  t.after(fx.cleanup);
  const f = fx.open();
  for (const [host, ip] of Object.entries(IP)) f.setHostKey(host, ip);
  f.add(1, ['a.test', 'b.test', 'c.test'].flatMap((h) => Array.from({ length: 6 }, (_, i) => cand(`http://${h}/${i}`, ((i * 7) % 10) / 10))));
  const fetchMs = (l: Lease) => (l.host === 'c.test' ? 400 : 50); // c is slow: delayFactor × 400 = 800
  const inFlight: { lease: Lease; start: number; end: number }[] = [];
  const history = new Map<string, { start: number; end: number }[]>();
  let done = 0;
  for (let steps = 0; steps < 10_000; steps++) {
    const now = fx.clock.now();
    for (const lease of f.nextMany(now, 10)) {
      const key = IP[lease.host]!;
      assert.ok(!inFlight.some((x) => IP[x.lease.host] === key), `two requests in flight on ${key} at ${now}`);
      inFlight.push({ lease, start: now, end: now + fetchMs(lease) });
    }
    const wake = f.nextWakeAt();
    const times = [...inFlight.map((x) => x.end), ...(wake !== null && wake > now ? [wake] : [])];
    if (times.length === 0) break;
    await fx.clock.advanceTo(Math.min(...times));
    for (const x of inFlight.filter((y) => y.end <= fx.clock.now())) {
      inFlight.splice(inFlight.indexOf(x), 1);
      f.complete(x.lease, { status: 200, startedAt: x.start, durationMs: x.end - x.start });
      const list = history.get(IP[x.lease.host]!) ?? [];
      list.push({ start: x.start, end: x.end });
      history.set(IP[x.lease.host]!, list);
      done += 1;
    }
  }
  assert.equal(done, 18);
  for (const [key, list] of history) {
    for (let i = 1; i < list.length; i++) {
      const prev = list[i - 1]!;
      const wanted = Math.max(polite.minDelayMs, polite.delayFactor * (prev.end - prev.start));
      assert.ok(list[i]!.start - prev.end >= wanted, `${key}: gap ${list[i]!.start - prev.end} < ${wanted}`);
    }
  }
  assert.equal(history.get('10.0.0.1')!.length, 12, 'a and b share one clock');
  f.close();
});

test('robots crawl-delay of a host lengthens its gaps', (t) => {
  const fx = tempFrontier({ politeness: polite });
  t.after(fx.cleanup);
  const f = fx.open();
  f.setRobotsDelay('a.test', 3000);
  f.add(1, [cand('http://a.test/1'), cand('http://a.test/2')]);
  const t0 = fx.clock.now();
  const l = f.next(t0)!;
  f.complete(l, { status: 200, startedAt: t0, durationMs: 10 });
  assert.equal(f.next(t0 + 2999), null);
  assert.equal(f.nextWakeAt(), t0 + 10 + 3000);
  assert.ok(f.next(t0 + 3010));
  f.close();
});

test('a host resolved to an IP that is busy gives its lease back and waits for that IP', (t) => {
  const fx = tempFrontier({ politeness: polite });
  t.after(fx.cleanup);
  const f = fx.open();
  f.setHostKey('a.test', '10.0.0.1');
  f.add(1, [cand('http://a.test/1', 0.9), cand('http://d.test/1', 0.5)]);
  const now = fx.clock.now();
  const a = f.next(now)!;
  const d = f.next(now)!;
  assert.equal(d.host, 'd.test', 'd is not resolved yet, so its name is its key');
  assert.equal(f.setHostKey('d.test', '10.0.0.1'), false);
  f.release(d);
  assert.equal(f.next(now), null, 'd now waits for 10.0.0.1');
  f.complete(a, { status: 200, startedAt: now, durationMs: 10 });
  assert.equal(f.next(now + 100), null, 'and for its delay');
  assert.equal(f.next(now + 210)?.url, 'http://d.test/1');
  f.close();
});

test('a request that is over tells the engine when its host\'s next URL is due, so the next one is not held up by the page\'s processing', (t) => {
  const fx = tempFrontier({ politeness: { ...polite, delayFactor: 0 } });
  t.after(fx.cleanup);
  const woken: (number | undefined)[] = [];
  const f = fx.open({ onHostsWaiting: (readyAt) => void woken.push(readyAt) });
  f.add(1, [cand('http://a.test/1', 0.9), cand('http://a.test/2', 0.8), cand('http://b.test/1', 0.1)]);
  const t0 = fx.clock.now();
  const a1 = f.next(t0)!;
  const b1 = f.next(t0)!;
  assert.equal(f.nextWakeAt(), null, 'a.test is held: nothing to wake for');
  f.fetched(a1, { startedAt: t0, durationMs: 30 });
  assert.deepEqual(woken, [t0 + 230], 'a.test has a URL waiting, due then');
  assert.equal(f.nextWakeAt(), t0 + 230, 'the engine sleeps until a.test is due, not until a1 is committed');
  f.fetched(b1, { startedAt: t0, durationMs: 30 });
  assert.deepEqual(woken, [t0 + 230], 'b.test has nothing queued: no wake-up');
  f.close();
});

test('a request that is over frees its host for the next one while its URL is still processed', (t) => {
  const fx = tempFrontier({ politeness: { ...polite, delayFactor: 0 } });
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [cand('http://a.test/1', 0.9), cand('http://a.test/2', 0.8), cand('http://a.test/3', 0.7)]);
  const t0 = fx.clock.now();
  const first = f.next(t0)!;
  assert.equal(f.next(t0 + 1000), null, 'one request in flight per host');
  f.fetched(first, { startedAt: t0, durationMs: 30 });
  assert.equal(f.next(t0 + 229), null, 'the delay runs from the end of the request');
  const second = f.next(t0 + 230)!;
  assert.equal(second.url, 'http://a.test/2', 'leased while the first URL is still in flight');
  assert.equal(f.counters(1).inFlight, 2);
  // The first URL settles while the second request holds the key: the key stays held.
  assert.equal(f.complete(first, { status: 200, startedAt: t0, durationMs: 30 }), true);
  assert.equal(f.next(t0 + 5000), null, 'the second request still holds the host');
  f.fetched(second, { startedAt: t0 + 230, durationMs: 10 });
  f.fetched(second, { startedAt: t0 + 230, durationMs: 10 }); // a second call changes nothing
  assert.equal(f.next(t0 + 439), null);
  assert.equal(f.next(t0 + 440)?.url, 'http://a.test/3');
  assert.equal(f.complete(second, { status: 200 }), true);
  f.close();
  // The clock persisted with the second lease is its request's, not its settle time.
  const again = fx.open();
  again.add(1, [cand('http://a.test/4', 0.1)]);
  assert.equal(again.hostReadyAt(1, 'a.test'), t0 + 240 + 200);
  again.close();
});

test('a URL failed without a request (robots.txt refused it) leaves the host\'s clock at its last request', (t) => {
  const fx = tempFrontier({ politeness: polite });
  t.after(fx.cleanup);
  const f = fx.open();
  f.add(1, [cand('http://a.test/1'), cand('http://a.test/private'), cand('http://a.test/2')]);
  const t0 = fx.clock.now();
  f.complete(f.next(t0)!, { status: 200, startedAt: t0, durationMs: 10 });
  const due = t0 + 10 + polite.minDelayMs;
  const refused = f.next(due)!;
  assert.equal(refused.url, 'http://a.test/private');
  f.fail(refused, 'robots-disallowed', { notRequested: true });
  const next = f.next(due);
  assert.equal(next?.url, 'http://a.test/2', 'the next URL is due when it was: no request was made meanwhile');
  f.complete(next!, { status: 200, startedAt: due, durationMs: 10 });
  assert.equal(f.next(due + 10 + polite.minDelayMs - 1), null, 'a request made waits its delay as before');
  f.close();
});
