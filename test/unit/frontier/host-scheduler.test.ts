import { test } from 'node:test';
import assert from 'node:assert/strict';
import { HostScheduler, type SchedHost } from '../../../worker/frontier/host-scheduler';
import { PolitenessRegistry } from '../../../worker/politeness';

const polite = { enabled: true, minDelayMs: 100, maxDelayMs: 1000, delayFactor: 0 };
const host = (name: string, headPrecedence: number, headSeq = 1): SchedHost => ({
  host: name, politeness: polite, queued: 1, headPrecedence, headSeq, holding: false, holdUntil: 0, holdWaitMs: 0, version: 0, live: true,
});

test('picks the host with the best head; ties go to the one ready first', () => {
  const reg = new PolitenessRegistry();
  const s = new HostScheduler(reg);
  const earlier = { host: 'b' };
  reg.tryAcquire(earlier, 0, polite);
  reg.finish(earlier, { lastStartAt: 0, lastDurationMs: 0 }); // b ready at 100
  const [a, b, c] = [host('a', 0.5), host('b', 0.5), host('c', 0.2)];
  for (const h of [a, b, c]) s.touch(h, 500);
  assert.equal(s.pick(500)?.host, 'a', 'a was ready since forever, b since 100');
  assert.equal(s.pick(500)?.host, 'b');
  assert.equal(s.pick(500)?.host, 'c');
  assert.equal(s.pick(500), null);
});

test('a host waiting on its delay is picked once the time comes; wakeAt says when', () => {
  const reg = new PolitenessRegistry();
  const s = new HostScheduler(reg);
  const earlier = { host: 'a' };
  reg.tryAcquire(earlier, 0, polite);
  reg.finish(earlier, { lastStartAt: 0, lastDurationMs: 50 });
  const a = host('a', 0.9);
  s.touch(a, 0);
  assert.equal(s.pick(100), null);
  assert.equal(s.wakeAt(100), 150);
  assert.equal(s.pick(150), a);
  assert.equal(reg.isBusy('a'), true, 'pick acquired the key');
});

test('hosts sharing a busy key are parked until it is freed', () => {
  const reg = new PolitenessRegistry();
  const s = new HostScheduler(reg);
  reg.setHostKey('a', 'ip');
  reg.setHostKey('b', 'ip');
  const [a, b] = [host('a', 0.9), host('b', 0.8)];
  s.touch(a, 0);
  s.touch(b, 0);
  assert.equal(s.pick(0), a);
  a.holding = true;
  s.touch(a, 0);
  assert.equal(s.pick(0), null, 'b is on the same IP');
  assert.equal(s.wakeAt(0), null, 'nothing to wait for but a completion');
  reg.finish(a, { lastStartAt: 0, lastDurationMs: 0 });
  assert.equal(s.keyFreed('ip', 0), 100, 'b, parked, may take the key at 100');
  assert.equal(s.wakeAt(0), 100);
  assert.equal(s.pick(100), b);
});

test('a re-touched host is not picked twice from stale entries, and a dead one never', () => {
  const s = new HostScheduler(new PolitenessRegistry());
  const a = { ...host('a', 0.5), politeness: { ...polite, enabled: false } };
  s.touch(a, 0);
  a.headPrecedence = 0.7;
  s.touch(a, 0);
  assert.equal(s.pick(0), a);
  assert.equal(s.pick(0), null, 'the older entry was stale');
  s.touch(a, 0);
  a.live = false;
  a.version += 1;
  assert.equal(s.pick(0), null);
});

test('a key freed while a host placed under it still waits out its delay is that host\'s turn, as a parked host\'s is', () => {
  const reg = new PolitenessRegistry();
  const s = new HostScheduler(reg);
  reg.setHostKey('a', 'ip');
  const mine = { host: 'a' };
  reg.tryAcquire(mine, 0, polite);
  reg.finish(mine, { lastStartAt: 0, lastDurationMs: 0 });
  const a = host('a', 0.9);
  s.touch(a, 0);
  assert.equal(s.wakeAt(0), 100, 'a waits out its delay, not parked: the key is free');
  // A request outside the leases (another crawl's revisit) takes the key and frees it before a's time came.
  const revisit = { host: 'a' };
  assert.ok(reg.hold(revisit));
  reg.finish(revisit, { lastStartAt: 40, lastDurationMs: 10 });
  assert.equal(s.keyFreed('ip', 50), 150, 'a may take the key at 150, after the revisit\'s delay');
  assert.equal(s.keyFreed('other-ip', 50), null, 'no host of this crawl is under another key');
});

// A wall clock set back an hour held a host in back-off, and one waiting out its delay, for the hour.
test('a host held, or waiting out its delay, since before the clock was set back is picked when the wait is over, not a step later', () => {
  const HOUR = 3_600_000;
  const reg = new PolitenessRegistry();
  const s = new HostScheduler(reg);
  const held = { ...host('held', 0.9), politeness: { ...polite, enabled: false }, holdUntil: 10 * HOUR + 60_000, holdWaitMs: 60_000 };
  s.touch(held, 10 * HOUR);
  assert.equal(s.pick(10 * HOUR + 59_999), null, 'held for its wait');
  const earlier = { host: 'delayed' };
  reg.tryAcquire(earlier, 10 * HOUR, polite);
  reg.finish(earlier, { lastStartAt: 10 * HOUR, lastDurationMs: 0 });
  const delayed = host('delayed', 0.5);
  s.touch(delayed, 10 * HOUR);
  assert.equal(s.wakeAt(10 * HOUR), 10 * HOUR + 100);
  const setBack = 9 * HOUR;
  assert.equal(s.wakeAt(setBack), setBack, 'due now, as the frontier asks before it leases');
  assert.equal(s.pick(setBack), held, 'the hold, an hour ahead, is over');
  // Its delay an hour ahead too: placed again a delay from now (timingAsOf), then picked.
  assert.equal(s.pick(setBack), null);
  assert.equal(s.wakeAt(setBack), setBack + 100);
  assert.equal(s.pick(setBack + 100), delayed);
});
