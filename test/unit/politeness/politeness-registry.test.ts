import { test } from 'node:test';
import assert from 'node:assert/strict';
import { PolitenessRegistry, SimulatedClock, type KeyHolder } from '../../../worker/politeness';

const cfg = { minDelayMs: 1000, maxDelayMs: 10_000, delayFactor: 2 };
/** The holders of keys (a frontier's host entry of one crawl): holds are by identity. */
const A: KeyHolder = { host: 'a.example' };
const B: KeyHolder = { host: 'b.example' };
const C: KeyHolder = { host: 'c.example' };

test('one request in flight per key', () => {
  const reg = new PolitenessRegistry();
  assert.equal(reg.tryAcquire(A, 0, cfg), true);
  assert.equal(reg.tryAcquire(A, 0, cfg), false);
  assert.equal(reg.isBusy('a.example'), true);
  reg.finish(A, { lastStartAt: 0, lastDurationMs: 100 });
  assert.equal(reg.isBusy('a.example'), false);
});

test('the next request waits for the delay after the last one ended', () => {
  const clock = new SimulatedClock(0);
  const reg = new PolitenessRegistry();
  assert.ok(reg.tryAcquire(A, clock.now(), cfg));
  reg.finish(A, { lastStartAt: 0, lastDurationMs: 800 });
  assert.equal(reg.readyAt('a.example', cfg, 800), 800 + 1600);
  assert.equal(reg.tryAcquire(A, 2399, cfg), false);
  assert.equal(reg.tryAcquire(A, 2400, cfg), true);
});

test('host names on one IP share its clock once the IP is known', () => {
  const reg = new PolitenessRegistry();
  reg.setHostKey('a.example', '10.0.0.1');
  reg.setHostKey('b.example', '10.0.0.1');
  reg.setHostKey('c.example', '10.0.0.2');
  assert.ok(reg.tryAcquire(A, 0, cfg));
  assert.equal(reg.tryAcquire(B, 0, cfg), false, 'same IP is busy');
  assert.equal(reg.tryAcquire(C, 0, cfg), true, 'other IP is free');
  reg.finish(A, { lastStartAt: 0, lastDurationMs: 100 });
  assert.equal(reg.readyAt('b.example', cfg, 100), 1100, 'b waits for the delay after a');
  assert.equal(reg.tryAcquire(B, 1099, cfg), false);
  assert.equal(reg.tryAcquire(B, 1100, cfg), true);
});

test('resolving a host while it holds its name moves the hold to the IP, or refuses if the IP is busy', () => {
  const reg = new PolitenessRegistry();
  reg.setHostKey('a.example', '10.0.0.1');
  assert.ok(reg.tryAcquire(A, 0, cfg));
  assert.ok(reg.tryAcquire(B, 0, cfg), 'b not resolved yet: its own name is its key');
  assert.equal(reg.setHostKey('b.example', '10.0.0.1'), false);
  assert.equal(reg.heldKey(B), undefined, 'b gave up its hold');
  assert.ok(reg.tryAcquire(C, 0, cfg));
  assert.equal(reg.setHostKey('c.example', '10.0.0.3'), true);
  assert.equal(reg.heldKey(C), '10.0.0.3');
  assert.equal(reg.isBusy('c.example'), false);
});

test('robots crawl-delay applies per host', () => {
  const reg = new PolitenessRegistry();
  reg.setRobotsDelay('slow.example', 5000);
  for (const holder of [{ host: 'slow.example' }, { host: 'fast.example' }]) {
    assert.ok(reg.tryAcquire(holder, 0, cfg));
    reg.finish(holder, { lastStartAt: 0, lastDurationMs: 100 });
  }
  assert.equal(reg.readyAt('slow.example', cfg, 100), 5100);
  assert.equal(reg.readyAt('fast.example', cfg, 100), 1100);
});

test('abandoning a request frees the key without moving its clock', () => {
  const reg = new PolitenessRegistry();
  assert.ok(reg.tryAcquire(A, 0, cfg));
  reg.abandon(A);
  assert.equal(reg.timing('a.example'), null);
  assert.ok(reg.tryAcquire(A, 0, cfg));
});

test('a simulated clock wakes sleepers in time order', async () => {
  const clock = new SimulatedClock(100);
  const woke: string[] = [];
  void clock.sleepUntil(300).then(() => woke.push(`b@${clock.now()}`));
  void clock.sleepUntil(200).then(() => woke.push(`a@${clock.now()}`));
  await clock.sleepUntil(50); // in the past: resolves at once
  await clock.advance(150);
  assert.deepEqual(woke, ['a@200']);
  assert.equal(await clock.runNext(), true);
  assert.deepEqual(woke, ['a@200', 'b@300']);
  assert.equal(await clock.runNext(), false);
});

test('a host leased under its own name waits for its IP clock once resolved: another name on that IP was just fetched', () => {
  const reg = new PolitenessRegistry();
  const cfg = { enabled: true, minDelayMs: 200, maxDelayMs: 1000, delayFactor: 0 };
  reg.setHostKey('a.example', '10.0.0.1');
  assert.equal(reg.tryAcquire(A, 1_000, cfg), true);
  reg.finish(A, { lastStartAt: 1_000, lastDurationMs: 10 });
  // b.example is not resolved yet: its name's clock is free, so it is leased at once…
  assert.equal(reg.tryAcquire(B, 1_050, cfg), true);
  // …and resolving it to a.example's IP must stop the request: 10.0.0.1 is ready only at 1,210 (end + delay).
  assert.equal(reg.setHostKey('b.example', '10.0.0.1', { now: 1_050, cfg }), false);
  assert.equal(reg.isBusy('10.0.0.1'), false, 'the refused lease holds nothing');
  assert.equal(reg.readyAt('b.example', cfg, 1_050), 1_210);
  assert.equal(reg.tryAcquire(B, 1_209, cfg), false);
  assert.equal(reg.tryAcquire(B, 1_210, cfg), true, 'its turn comes on the shared clock');
});

test('every listener hears of each key that stops being held, until it stops listening', () => {
  const reg = new PolitenessRegistry();
  const heard: string[][] = [[], []];
  const stop = heard.map((list) => reg.onKeyFreed((key) => void list.push(key)));
  assert.equal(reg.listenerCount, 2);
  reg.setHostKey('a.example', '10.0.0.1');
  assert.ok(reg.tryAcquire(A, 0, cfg));
  reg.record(A, { lastStartAt: 0, lastDurationMs: 10 }); // a batch's request: the key stays held
  reg.finish(A, { lastStartAt: 20, lastDurationMs: 10 });
  assert.ok(reg.tryAcquire(B, 0, cfg), 'b.example under its own name');
  reg.setHostKey('b.example', '10.0.0.2'); // the hold moves: its name's key is free
  reg.abandon(B);
  stop[0]!();
  assert.ok(reg.tryAcquire(C, 0, cfg));
  reg.finish(C, { lastStartAt: 0, lastDurationMs: 0 });
  assert.deepEqual(heard[0], ['10.0.0.1', 'b.example', '10.0.0.2']);
  assert.deepEqual(heard[1], ['10.0.0.1', 'b.example', '10.0.0.2', 'c.example']);
  stop[1]!();
  assert.equal(reg.listenerCount, 0);
});

test('holds are by holder: another holder of the same host (another crawl\'s) can neither take nor free the key', () => {
  const reg = new PolitenessRegistry();
  const crawl1 = { host: 'a.example' };
  const crawl2 = { host: 'a.example' };
  assert.ok(reg.tryAcquire(crawl1, 0, cfg));
  assert.equal(reg.tryAcquire(crawl2, 0, cfg), false);
  assert.equal(reg.abandon(crawl2), undefined);
  assert.equal(reg.finish(crawl2, { lastStartAt: 0, lastDurationMs: 0 }), undefined);
  assert.equal(reg.isBusy('a.example'), true);
  assert.equal(reg.heldKey(crawl2), undefined);
  // Resolving the host moves crawl 1's hold, whoever resolves it.
  assert.equal(reg.setHostKey('a.example', '10.0.0.1'), true);
  assert.equal(reg.heldKey(crawl1), '10.0.0.1');
  assert.equal(reg.finish(crawl1, { lastStartAt: 0, lastDurationMs: 0 }), '10.0.0.1');
});

test('hold takes a free key while its delay still runs, and no request can take the turn meanwhile', () => {
  const reg = new PolitenessRegistry();
  assert.ok(reg.tryAcquire(A, 0, cfg));
  reg.finish(A, { lastStartAt: 0, lastDurationMs: 0 }); // ready at 1000
  const revisit = { host: 'a.example' };
  assert.equal(reg.hold(revisit), true, 'taken before the delay has passed');
  assert.equal(reg.readyAt('a.example', cfg, 0), 1000, 'the holder waits it out');
  assert.equal(reg.tryAcquire(A, 1000, cfg), false, 'a lease cannot take the turn');
  assert.equal(reg.hold(B), true, 'another key is not affected');
  assert.equal(reg.hold(revisit), false, 'one key per holder');
  reg.finish(revisit, { lastStartAt: 1000, lastDurationMs: 5 });
  assert.equal(reg.tryAcquire(A, 2004, cfg), false);
  assert.equal(reg.tryAcquire(A, 2005, cfg), true);
});

test('waits for a second key: one that would close a cycle is refused, an ended one no longer counts', () => {
  const reg = new PolitenessRegistry();
  reg.setHostKey('a.example', '10.0.0.1');
  reg.setHostKey('b.example', '10.0.0.2');
  reg.setHostKey('c.example', '10.0.0.3');
  const aWaitsForB = reg.waitForKey('a.example', '10.0.0.2');
  assert.ok(aWaitsForB, 'a may wait for b');
  assert.equal(reg.waitForKey('b.example', '10.0.0.1'), null, 'b waiting for a would wait for good');
  assert.ok(reg.waitForKey('c.example', '10.0.0.1'), 'c may wait for a');
  aWaitsForB();
  assert.ok(reg.waitForKey('b.example', '10.0.0.1'), 'a no longer waits');
});

test('waits are checked with the keys the hosts hold now', () => {
  const reg = new PolitenessRegistry();
  assert.ok(reg.waitForKey('a.example', '10.0.0.2'), 'a waits under its name');
  reg.setHostKey('a.example', '10.0.0.1');
  reg.setHostKey('b.example', '10.0.0.2');
  assert.equal(reg.waitForKey('b.example', '10.0.0.1'), null, 'a holds 10.0.0.1 now');
  assert.equal(reg.waitForKey('a.example', '10.0.0.1'), null, 'waiting for the key it holds');
});

test('a freed key goes to the first request in line, before any frontier hears of it', async () => {
  const reg = new PolitenessRegistry();
  const freed: string[] = [];
  reg.onKeyFreed((key) => void freed.push(key));
  const first: KeyHolder = { host: 'a.example' };
  const second: KeyHolder = { host: 'a.example' };
  assert.ok(reg.hold(A));
  const lines = [reg.waitTurn(first), reg.waitTurn(second)];
  reg.finish(A, { lastStartAt: 0, lastDurationMs: 10 });
  assert.equal(await lines[0]!.turn, true);
  assert.equal(reg.heldKey(first), 'a.example');
  assert.deepEqual(freed, [], 'the key never stopped being held');
  // A's next request asks again: it waits behind the second.
  const again = reg.waitTurn(A);
  reg.finish(first, { lastStartAt: 20, lastDurationMs: 10 });
  assert.equal(await lines[1]!.turn, true);
  reg.finish(second, { lastStartAt: 40, lastDurationMs: 10 });
  assert.equal(await again.turn, true);
  reg.finish(A, { lastStartAt: 60, lastDurationMs: 10 });
  assert.deepEqual(freed, ['a.example'], 'the frontiers hear of it once no one waits');
});

test('leaving the line gives back a key handed over meanwhile; a waiter whose host moved looks again', async () => {
  const reg = new PolitenessRegistry();
  const freed: string[] = [];
  reg.onKeyFreed((key) => void freed.push(key));
  const leaving: KeyHolder = { host: 'a.example' };
  assert.ok(reg.hold(A));
  const line = reg.waitTurn(leaving);
  reg.finish(A, { lastStartAt: 0, lastDurationMs: 10 });
  line.leave();
  assert.equal(reg.isBusy('a.example'), false);
  assert.deepEqual(freed, ['a.example']);

  const moving: KeyHolder = { host: 'b.example' };
  assert.ok(reg.hold(B));
  const moved = reg.waitTurn(moving);
  const sameHost: KeyHolder = { host: 'b.example' };
  reg.setHostKey('b.example', '10.0.0.9');
  // B's hold moved to the IP and freed the name's key: the waiter is told to look again, without the key.
  assert.equal(await moved.turn, false);
  assert.equal(reg.heldKey(moving), undefined);
  assert.equal(reg.heldKey(B), '10.0.0.9');
  const later = reg.waitTurn(sameHost);
  reg.finish(B, { lastStartAt: 0, lastDurationMs: 10 });
  assert.equal(await later.turn, true);
  assert.equal(reg.heldKey(sameHost), '10.0.0.9');
});

test('a changed robots.txt Crawl-delay is told to every listener, an unchanged one is not', () => {
  const reg = new PolitenessRegistry();
  const told: string[] = [];
  const stop = reg.onHostChanged((host) => told.push(host));
  assert.equal(reg.listenerCount, 1);
  reg.setRobotsDelay('a.example', 3000);
  reg.setRobotsDelay('a.example', 3000);
  reg.setRobotsDelay('a.example', 50);
  reg.setRobotsDelay('a.example', null);
  reg.setRobotsDelay('a.example', null);
  assert.deepEqual(told, ['a.example', 'a.example', 'a.example']);
  stop();
  assert.equal(reg.listenerCount, 0);
});

test('a host\'s changed key is told to every listener, an unchanged one is not', () => {
  const reg = new PolitenessRegistry();
  const told: string[] = [];
  reg.onHostChanged((host) => told.push(`${host} ${reg.keyOf(host)}`));
  reg.setHostKey('a.example', '10.0.0.1');
  reg.setHostKey('a.example', '10.0.0.1');
  reg.setHostKey('a.example', '10.0.0.2');
  assert.deepEqual(told, ['a.example 10.0.0.1', 'a.example 10.0.0.2'], 'told once the key is the new one');
});

test('a freed key is the turn of the leases that waited for it, until one takes it', () => {
  const reg = new PolitenessRegistry();
  // A frontier with a host parked on the key, due at 500 once the key is free.
  reg.onKeyFreed(() => 500);
  assert.ok(reg.hold(A));
  reg.finish(A, { lastStartAt: 0, lastDurationMs: 10 });
  assert.equal(reg.leaseDueAt('a.example'), 500);
  assert.ok(reg.tryAcquire(B, 0, cfg));
  assert.equal(reg.leaseDueAt('a.example'), 500, 'another key taken changes nothing');
  assert.ok(reg.hold({ host: 'a.example' }));
  assert.equal(reg.leaseDueAt('a.example'), undefined, 'taken: no turn owed any more');
});

test('a long-running registry forgets the clocks of keys idle past the longest delay, not of keys in use', () => {
  const HOUR_MS = 3_600_000;
  const reg = new PolitenessRegistry();
  const inLine = { host: 'waiting.example' };
  const holding = { host: 'holding.example' };
  assert.ok(reg.hold(holding));
  reg.onKeyFreed((key) => (key === 'old-0' ? 50 : null)); // a frontier's host was parked on old-0
  // A day of crawling: 3,000 IPs used once, two hours ago.
  for (let i = 0; i < 3000; i++) {
    const holder = { host: `old-${i}` };
    assert.ok(reg.hold(holder));
    reg.finish(holder, { lastStartAt: 0, lastDurationMs: 10 });
  }
  // waiting.example's key: used two hours ago too, held again now, and a request waits in line for it.
  reg.setHostKey('waiting.example', 'old-1');
  assert.ok(reg.hold({ host: 'old-1' }));
  reg.waitTurn(inLine);
  const twoHoursOn = 2 * HOUR_MS;
  // Then 1,100 other IPs: the number of clocks kept doubles since the last look, which finds the old ones idle.
  for (let i = 0; i < 1100; i++) {
    const holder = { host: `new-${i}` };
    assert.ok(reg.hold(holder));
    reg.finish(holder, { lastStartAt: twoHoursOn, lastDurationMs: 10 });
  }
  assert.ok(reg.keyEntryCount <= 1102, `idle keys' clocks and turns were forgotten (${reg.keyEntryCount} kept)`);
  assert.notEqual(reg.timing('old-1'), null, 'a key held, with a request in line, keeps its clock');
  assert.notEqual(reg.timing('new-3'), null, 'a key used a moment ago keeps its clock');
  assert.equal(reg.timing('old-2'), null);
  assert.equal(reg.leaseDueAt('old-0'), undefined, 'a lease\'s turn two hours old is over');
  assert.equal(reg.readyAt('old-2', cfg, twoHoursOn), Number.NEGATIVE_INFINITY, 'a forgotten key may be used at once, as its delay passed long ago');

  // Explicitly, an hour and no more after a request ended, its clock is still kept.
  reg.finish(holding, { lastStartAt: twoHoursOn, lastDurationMs: 0 });
  reg.pruneIdleKeys(twoHoursOn + HOUR_MS - 1);
  assert.notEqual(reg.timing('holding.example'), null);
  reg.pruneIdleKeys(twoHoursOn + HOUR_MS + 10);
  assert.equal(reg.timing('holding.example'), null);
});

test('a host\'s key and Crawl-delay stay while any frontier uses the host, and are forgotten once none does', () => {
  const reg = new PolitenessRegistry();
  // Two crawls' frontiers use a.example; b.example is on its IP.
  reg.useHost('a.example');
  reg.useHost('a.example');
  reg.useHost('b.example');
  reg.setHostKey('a.example', '10.0.0.1');
  reg.setHostKey('b.example', '10.0.0.1');
  reg.setRobotsDelay('a.example', 5000);
  reg.releaseHosts(['a.example', 'b.example']);
  assert.equal(reg.keyOf('a.example'), '10.0.0.1', 'the other frontier still uses a.example');
  assert.equal(reg.robotsDelayMs('a.example'), 5000);
  assert.equal(reg.keyOf('b.example'), 'b.example', 'no frontier uses b.example');
  reg.releaseHosts(['a.example']);
  assert.equal(reg.keyOf('a.example'), 'a.example');
  assert.equal(reg.robotsDelayMs('a.example'), null);
  assert.equal(reg.hostEntryCount, 0);
});

// Found by an exploratory session: four crawls of sites on one IP, the first two opened took every
// turn of its key (the first frontier ready when the key was freed took it), the others fetched
// nothing for minutes. The key freed is now heard first by each frontier in turn.
test('crawls sharing a key take turns: a freed key is offered first to each listener in turn', () => {
  const reg = new PolitenessRegistry();
  const noDelay = { minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 };
  const holders: KeyHolder[] = [{ host: 'one.example' }, { host: 'two.example' }, { host: 'three.example' }];
  for (const h of holders) reg.setHostKey(h.host, '10.0.0.9');
  const taken = [0, 0, 0];
  // Each crawl always has a URL ready: it takes the key whenever it hears it is free.
  holders.forEach((h, i) => reg.onKeyFreed(() => void (reg.tryAcquire(h, 0, noDelay) && taken[i]!++)));
  assert.ok(reg.tryAcquire(holders[0]!, 0, noDelay));
  for (let turn = 0; turn < 30; turn++) {
    const holder = holders.find((h) => reg.isBusy('10.0.0.9') && reg.abandon(h) !== undefined);
    assert.ok(holder, 'one of them held the key');
  }
  assert.deepEqual(taken, [10, 10, 10]);
});

// Found by an exploratory session (time): a wall clock set back an hour (NTP correcting a fast
// clock, `date -s`) left every key's last request ending an hour ahead of the clock, and each host
// waited out the hour before its next request: a crawl stood still with pages queued.
test('a key whose last request ends long after now (the clock was set back) is ready a delay from now, not from that end', () => {
  const reg = new PolitenessRegistry();
  const HOUR = 3_600_000;
  assert.ok(reg.tryAcquire(A, 10 * HOUR, cfg));
  reg.finish(A, { lastStartAt: 10 * HOUR, lastDurationMs: 100 });
  assert.equal(reg.readyAt('a.example', cfg, 10 * HOUR + 100), 10 * HOUR + 100 + 1000, 'as before: a delay after it ended');
  const setBack = 9 * HOUR + 500;
  assert.equal(reg.readyAt('a.example', cfg, setBack), setBack + 1000);
  assert.deepEqual(reg.timing('a.example'), { lastStartAt: setBack - 100, lastDurationMs: 100 }, 'taken as ended at the time it was asked');
  assert.equal(reg.tryAcquire(A, setBack + 999, cfg), false);
  assert.equal(reg.tryAcquire(A, setBack + 1000, cfg), true);
  // A request's timing may end a little after now (its last attempt's date, all attempts' time): kept.
  reg.finish(A, { lastStartAt: setBack + 1000, lastDurationMs: 30_000 });
  assert.equal(reg.readyAt('a.example', cfg, setBack + 1000), setBack + 1000 + 30_000 + 10_000, 'its end, then twice its time capped at maxDelay');
});
