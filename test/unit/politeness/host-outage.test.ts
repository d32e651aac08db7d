import { test } from 'node:test';
import assert from 'node:assert/strict';
import { afterUrlEnded, heldBack, holdUntil, isTry, MAX_HOST_BACKOFF_MS, type HostOutage, type HostOutageLimits } from '../../../worker/politeness';

const limits: HostOutageLimits = { failuresBeforeBackoff: 3, backoffMs: 60_000, giveUpMs: 2 * 3_600_000 };
const none = (reason = 'headers-timeout') => ({ answered: false as const, reason });
const answered = { answered: true as const };

/** Ends URLs one after another at the given times (each leased just before it ended), the outage after each. */
function run(ends: { at: number; answer: { answered: true } | { answered: false; reason: string } }[], l = limits, start?: HostOutage) {
  let o = start;
  const events = [];
  for (const { at, answer } of ends) {
    const r = afterUrlEnded(o, answer, at - 1, at, l);
    o = r.outage;
    events.push(r.event);
  }
  return { outage: o, events };
}

test('fewer URLs in a row without an answer than the threshold: failing, no back-off; an answer forgets them', () => {
  const two = run([{ at: 1, answer: none() }, { at: 2, answer: none() }]);
  assert.deepEqual(two.outage, { phase: 'failing', failures: 2, reason: 'headers-timeout' });
  assert.deepEqual(two.events, [null, null]);
  assert.equal(holdUntil(two.outage), null);
  const after = afterUrlEnded(two.outage, answered, 2, 3, limits);
  assert.deepEqual(after, { outage: undefined, event: null }, 'not in a row any more');
  assert.deepEqual(run([{ at: 1, answer: none() }, { at: 2, answer: none() }, { at: 3, answer: answered }, { at: 4, answer: none() }, { at: 5, answer: none() }]).events, [null, null, null, null, null]);
});

test('the threshold-th URL in a row puts the host into back-off for backoffMs; URLs already in flight change nothing', () => {
  const { outage, events } = run([{ at: 1000, answer: none('connect-refused') }, { at: 2000, answer: none('connect-refused') }, { at: 3000, answer: none('connect-timeout') }]);
  assert.deepEqual(events[2], { kind: 'backoff', failures: 3, reason: 'connect-timeout', nextTryAt: 63_000 });
  assert.deepEqual(outage, { phase: 'backoff', failures: 3, tries: 0, since: 3000, waitMs: 60_000, nextTryAt: 63_000, reason: 'connect-timeout' });
  assert.equal(holdUntil(outage), 63_000);
  // Leased before the back-off began: held back (a host batch gives it back), and its end is no try.
  assert.equal(heldBack(outage, 2500), true);
  assert.equal(isTry(outage, 2500), false);
  const inFlight = afterUrlEnded(outage, none(), 2500, 3500, limits);
  assert.equal(inFlight.event, null);
  assert.equal(inFlight.outage?.phase === 'backoff' && inFlight.outage.nextTryAt, 63_000);
  // ...but an answer of one ends the back-off.
  assert.deepEqual(afterUrlEnded(outage, answered, 2500, 4000, limits).event, { kind: 'answered', tries: 0, downMs: 1000 });
});

test('each failed try doubles the wait, up to the cap', () => {
  const l = { ...limits, giveUpMs: 0 };
  let o: HostOutage | undefined = { phase: 'backoff', failures: 3, tries: 0, since: 0, waitMs: 60_000, nextTryAt: 60_000, reason: 'headers-timeout' };
  const waits: number[] = [];
  for (let i = 0; i < 8; i++) {
    const tryAt: number = o?.phase === 'backoff' ? o.nextTryAt : NaN;
    assert.equal(isTry(o, tryAt), true);
    const r = afterUrlEnded(o, none(), tryAt, tryAt + 20_000, l);
    assert.equal(r.event?.kind, 'try-failed');
    if (r.event?.kind === 'try-failed') {
      waits.push(r.event.waitMs);
      assert.equal(r.event.nextTryAt, tryAt + 20_000 + r.event.waitMs, 'the wait runs from the try\'s end');
      assert.equal(r.event.tries, i + 1);
    }
    o = r.outage;
  }
  assert.deepEqual(waits, [120_000, 240_000, 480_000, 960_000, MAX_HOST_BACKOFF_MS, MAX_HOST_BACKOFF_MS, MAX_HOST_BACKOFF_MS, MAX_HOST_BACKOFF_MS]);
});

test('the last try is made at the give-up time; without an answer the host is given up, and stays so until an answer', () => {
  const l = { failuresBeforeBackoff: 3, backoffMs: 200, giveUpMs: 1500 };
  let o: HostOutage | undefined = { phase: 'backoff', failures: 3, tries: 0, since: 0, waitMs: 200, nextTryAt: 200, reason: 'headers-timeout' };
  const ends: string[] = [];
  for (;;) {
    const tryAt = (o as Extract<HostOutage, { phase: 'backoff' }>).nextTryAt;
    const r = afterUrlEnded(o, none(), tryAt, tryAt + 300, l);
    o = r.outage;
    ends.push(r.event?.kind === 'try-failed' ? `${tryAt}→${r.event.nextTryAt}` : `${tryAt}: ${r.event?.kind}`);
    if (r.event?.kind !== 'try-failed') {
      assert.deepEqual(r.event, { kind: 'given-up', tries: 3, downMs: 1800, reason: 'headers-timeout' });
      break;
    }
  }
  // 200 (wait 400 from 500), 900 (wait 800 from 1200: past the give-up time, so at 1500), 1500: given up.
  assert.deepEqual(ends, ['200→900', '900→1500', '1500: given-up']);
  assert.equal(o?.phase, 'given-up');
  assert.equal(holdUntil(o), null, 'its URLs are not held: they fail without a request');
  assert.equal(heldBack(o, 5000), false);
  assert.deepEqual(afterUrlEnded(o, none(), 5000, 5100, l).event, null, 'no second give-up entry');
  assert.deepEqual(afterUrlEnded(o, answered, 5000, 6000, l), { outage: undefined, event: { kind: 'answered', tries: 3, downMs: 6000 } });
});

test('an answer to the try ends the back-off, saying how long the host gave none', () => {
  const o: HostOutage = { phase: 'backoff', failures: 4, tries: 1, since: 10_000, waitMs: 120_000, nextTryAt: 150_000, reason: 'connect-refused' };
  assert.deepEqual(afterUrlEnded(o, answered, 150_000, 150_500, limits), { outage: undefined, event: { kind: 'answered', tries: 1, downMs: 140_500 } });
});

test('threshold 0: no back-off at all', () => {
  const { outage, events } = run(Array.from({ length: 10 }, (_, i) => ({ at: i, answer: none() })), { ...limits, failuresBeforeBackoff: 0 });
  assert.equal(outage, undefined);
  assert.ok(events.every((e) => e === null));
});

test('give-up 0: tries go on for ever at the capped wait', () => {
  const o: HostOutage = { phase: 'backoff', failures: 3, tries: 40, since: 0, waitMs: MAX_HOST_BACKOFF_MS, nextTryAt: 100 * 3_600_000, reason: 'connect-refused' };
  const r = afterUrlEnded(o, none(), o.nextTryAt, o.nextTryAt + 10, { ...limits, giveUpMs: 0 });
  assert.equal(r.event?.kind, 'try-failed');
});

// Found by an exploratory session (time): the try's time, set before a wall clock was set back an
// hour, held the host's URLs for that hour.
test('a try due further ahead than its wait (the clock was set back) is due now, and the wait after it counts from then', () => {
  const HOUR = 3_600_000;
  const { outage } = run([{ at: 10 * HOUR, answer: none() }, { at: 10 * HOUR + 1, answer: none() }, { at: 10 * HOUR + 2, answer: none() }]);
  assert.equal(holdUntil(outage), 10 * HOUR + 60_002);
  const setBack = 9 * HOUR;
  assert.equal(isTry(outage, setBack), true, 'leased an hour "before" its back-off began: the try');
  assert.equal(heldBack(outage, setBack), false);
  assert.equal(isTry(outage, 10 * HOUR - 10_000), false, 'a URL leased before the back-off began, on the same clock, is no try');
  const after = afterUrlEnded(outage, none(), setBack, setBack + 5, limits);
  assert.deepEqual(after.event, { kind: 'try-failed', tries: 1, reason: 'headers-timeout', waitMs: 120_000, nextTryAt: setBack + 5 + 120_000 });
  assert.equal(after.outage?.phase === 'backoff' && after.outage.since, setBack + 5, 'a back-off said to begin after now counts from now');
});

// A carry-over of the clock helper: a wall clock set forward (NTP after a VM's resume, `date -s`)
// counted the step as time down, and the host's next failed try gave it up hours early.
test('with monotonic readings, a wall clock set forward two hours neither gives a host up early nor makes its tries come at once', () => {
  const HOUR = 3_600_000;
  const l = { ...limits, failuresBeforeBackoff: 1, giveUpMs: HOUR };
  // The back-off begins at wall-clock 0, monotonic 5,000.
  const began = afterUrlEnded(undefined, none(), -1, 0, l, 5_000).outage;
  assert.deepEqual(began, { phase: 'backoff', failures: 1, tries: 0, since: 0, sinceMonotonic: 5_000, waitMs: 60_000, nextTryAt: 60_000, reason: 'headers-timeout' });
  // The try comes a minute later on the monotonic clock; the wall clock was set two hours forward meanwhile.
  const wall = 2 * HOUR + 60_000;
  const tried = afterUrlEnded(began, none(), wall - 1, wall, l, 65_000);
  assert.deepEqual(tried.event, { kind: 'try-failed', tries: 1, reason: 'headers-timeout', waitMs: 120_000, nextTryAt: wall + 120_000 }, 'not given up; the next try a wait later');
  assert.equal(tried.outage?.phase === 'backoff' && tried.outage.since, wall - 60_000, 'down a minute, its start moved with the wall clock');
  // An answer says how long the host was down on the monotonic clock.
  assert.deepEqual(afterUrlEnded(tried.outage, answered, wall + 120_000, wall + 120_000, l, 185_000).event, { kind: 'answered', tries: 1, downMs: 180_000 });
  // Still given up once it has been down the hour, on the monotonic clock.
  const hourLater = afterUrlEnded(tried.outage, none(), wall + HOUR, wall + HOUR, l, 5_000 + HOUR);
  assert.equal(hourLater.event?.kind, 'given-up');
  // Without monotonic readings the wall clock is all there is: the step counts as time down.
  const { sinceMonotonic: _, ...wallOnly } = began as Extract<HostOutage, { phase: 'backoff' }>;
  assert.equal(afterUrlEnded(wallOnly, none(), wall - 1, wall, l).event?.kind, 'given-up');
});
