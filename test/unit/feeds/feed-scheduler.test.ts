import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateHourlyRates, expectedArticles, expectedWaitingHours, FeedScheduler } from '../../../worker/feeds';

const H = 3_600_000;
const DAY0 = Date.UTC(2026, 10, 1);

test('hourly posting rates: counts per hour of day over the window, shrunk to the mean', () => {
  const times = [DAY0 + 9 * H, DAY0 + 9.5 * H, DAY0 + 24 * H + 9 * H, DAY0 + 24 * H + 15 * H];
  const r = estimateHourlyRates(times, 2, 0);
  assert.equal(r[9], 1.5);
  assert.equal(r[15], 0.5);
  assert.equal(r[3], 0);
  const shrunk = estimateHourlyRates(times, 2, 1);
  assert.ok(shrunk[3]! > 0 && shrunk[9]! < 1.5);
  assert.equal(estimateHourlyRates([], 0).length, 24);
});

test('a publication time counts in its UTC hour of the day, as Date tells it, fractions of a ms included', () => {
  for (const t of [0, H - 1, H, DAY0 + 23 * H + 0.5, DAY0 + 24 * H - 0.25, Date.UTC(2026, 2, 29, 1, 30), Date.UTC(2026, 9, 25, 0, 59, 59, 999)]) {
    const rates = estimateHourlyRates([t], 1, 0);
    assert.equal(rates.indexOf(1), new Date(t).getUTCHours(), String(t));
  }
});

test('expected articles integrate the hourly rates, across midnight and whole days', () => {
  const rates = Array.from({ length: 24 }, (_, h) => (h === 23 ? 4 : h === 0 ? 2 : 0));
  assert.equal(expectedArticles(rates, DAY0 + 23.5 * H, DAY0 + 24.5 * H), 4 * 0.5 + 2 * 0.5);
  assert.equal(expectedArticles(rates, DAY0, DAY0 + 3 * 24 * H), 18);
  assert.equal(expectedArticles(rates, DAY0 + 5 * H, DAY0 + 5 * H), 0);
  const flat = new Array(24).fill(1);
  assert.ok(Math.abs(expectedWaitingHours(flat, DAY0, DAY0 + 2 * H) - 2) < 1e-9, '∫0^2 (2−s) ds = 2');
});

test('posting-rate policy polls the feed with most expected new articles, weighted by subscribers; round-robin cycles', () => {
  const make = (policy: 'posting-rate' | 'round-robin', c = 0) => {
    const s = new FeedScheduler({ policy, M: 1, T: 60, ToE: 60, minPollMinutes: 30, c }, DAY0);
    s.addFeed('busy', 0, DAY0);
    s.addFeed('quiet', 30, DAY0);
    // Both polled once; busy lists 24 articles of the last day, quiet 2.
    s.recordPoll('busy', DAY0, Array.from({ length: 24 }, (_, i) => ({ id: `b${i}`, publishedAt: DAY0 - (i + 0.5) * H })));
    s.recordPoll('quiet', DAY0, [{ id: 'q1', publishedAt: DAY0 - 3 * H }, { id: 'q2', publishedAt: DAY0 - 20 * H }]);
    return s;
  };
  const pr = make('posting-rate');
  assert.deepEqual(pr.choose(DAY0 + 2 * H), ['busy']);
  assert.ok(pr.rank('busy', DAY0 + 2 * H) > pr.rank('quiet', DAY0 + 2 * H));
  // Thirty subscribers with c = 1 make the quiet feed 31 times as urgent.
  const subs = make('posting-rate', 1);
  assert.deepEqual(subs.choose(DAY0 + 2 * H), ['quiet']);
  const rr = make('round-robin');
  assert.deepEqual([rr.choose(DAY0 + 2 * H), rr.choose(DAY0 + 3 * H), rr.choose(DAY0 + 4 * H)], [['busy'], ['quiet'], ['busy']]);
});

test('new items only once, and never two polls within the minimum interval', () => {
  const s = new FeedScheduler({ policy: 'posting-rate', M: 5, T: 10, ToE: 60, minPollMinutes: 30 }, DAY0);
  s.addFeed('f', 0, DAY0);
  assert.deepEqual(s.choose(DAY0), ['f']);
  assert.deepEqual(s.recordPoll('f', DAY0, [{ id: 'a', publishedAt: DAY0 - H }, { id: 'b', publishedAt: null }]), ['a', 'b']);
  assert.deepEqual(s.recordPoll('f', DAY0 + 40 * 60_000, [{ id: 'a', publishedAt: DAY0 - H }, { id: 'c', publishedAt: DAY0 }]), ['c']);
  assert.deepEqual(s.choose(DAY0 + 50 * 60_000), []);
  assert.deepEqual(s.choose(DAY0 + 71 * 60_000), ['f']);
});

test('a feed not polled for the maximum interval goes first, whatever its rank', () => {
  const make = (maxPollMinutes?: number) => {
    const s = new FeedScheduler({ policy: 'posting-rate', M: 1, T: 60, ToE: 60, minPollMinutes: 30, maxPollMinutes }, DAY0);
    s.addFeed('busy', 0, DAY0);
    s.addFeed('quiet', 0, DAY0);
    s.recordPoll('busy', DAY0, Array.from({ length: 48 }, (_, i) => ({ id: `b${i}`, publishedAt: DAY0 - (i + 0.5) * (H / 2) })));
    s.recordPoll('quiet', DAY0, [{ id: 'q1', publishedAt: DAY0 - 20 * H }]);
    return s;
  };
  // busy keeps posting two articles an hour: without a maximum, quiet waits until its expected backlog catches up.
  const polled = (s: FeedScheduler) => {
    const out: string[] = [];
    for (let h = 1; h <= 12; h++) {
      for (const url of s.choose(DAY0 + h * H)) {
        out.push(url);
        s.recordPoll(url, DAY0 + h * H, url === 'busy' ? [{ id: `n${h}a`, publishedAt: DAY0 + (h - 0.7) * H }, { id: `n${h}b`, publishedAt: DAY0 + (h - 0.2) * H }] : []);
      }
    }
    return out;
  };
  const free = polled(make()).indexOf('quiet');
  assert.ok(free === -1 || free > 2, `without a maximum quiet waits (polled at hour ${free + 1})`);
  assert.equal(polled(make(3 * 60)).indexOf('quiet'), 2, 'polled once three hours have passed');
});

test('the next time a feed may be polled: the oldest poll plus the minimum interval', () => {
  const s = new FeedScheduler({ policy: 'posting-rate', M: 1, T: 30, ToE: 30, minPollMinutes: 30 }, DAY0);
  assert.equal(s.nextEligibleAt(), null);
  s.addFeed('a', 0, DAY0);
  s.addFeed('b', 0, DAY0);
  s.recordPoll('a', DAY0 + 5_000, []);
  assert.equal(s.nextEligibleAt(), DAY0, 'b was never polled');
  s.recordPoll('b', DAY0 + 9_000, []);
  assert.equal(s.nextEligibleAt(), DAY0 + 5_000 + 30 * 60_000);
  assert.deepEqual(s.choose(DAY0 + 30 * 60_000), [], 'a poll that went out after its period began is not yet a minimum interval old');
  assert.deepEqual(s.choose(DAY0 + 5_000 + 30 * 60_000), ['a']);
});

test('a clock set back: polls are counted from the new now, not held until the old time comes again', () => {
  const s = new FeedScheduler({ policy: 'posting-rate', M: 1, T: 30, ToE: 30, minPollMinutes: 30 }, DAY0);
  s.addFeed('f', 0, DAY0);
  // Polled while the clock ran a day ahead; then it is set right.
  const ahead = DAY0 + 24 * H;
  assert.deepEqual(s.choose(ahead), ['f']);
  s.recordPoll('f', ahead, [{ id: 'a', publishedAt: ahead - H }]);
  assert.deepEqual(s.choose(DAY0), [], 'as if polled just now');
  assert.ok(s.nextEligibleAt()! <= DAY0 + 30 * 60_000);
  assert.deepEqual(s.choose(DAY0 + 30 * 60_000), ['f'], 'one minimum interval later');
  s.recordPoll('f', DAY0 + 30 * 60_000, [{ id: 'b', publishedAt: DAY0 + 29 * 60_000 }]);
  // The rates are estimated again every ToE on the new clock.
  const before = s.ratesOf('f');
  s.choose(DAY0 + 61 * 60_000);
  assert.notDeepEqual(s.ratesOf('f'), before);
});

test('a feed polled for weeks remembers the items it still lists, not every item it ever listed', () => {
  const s = new FeedScheduler({ policy: 'posting-rate', M: 1, T: 15, ToE: 60, minPollMinutes: 15 }, DAY0);
  s.addFeed('f', 0, DAY0);
  // Four weeks of polls every 15 minutes; each lists a pinned item and the 20 latest, one new a poll.
  let fresh = 0;
  for (let k = 0; k < 4 * 7 * 96; k++) {
    const at = DAY0 + k * 15 * 60_000;
    const items = [{ id: 'pinned', publishedAt: DAY0 - H }, ...Array.from({ length: 20 }, (_, i) => ({ id: `a${k - i}`, publishedAt: at - i * 15 * 60_000 }))];
    fresh += s.recordPoll('f', at, items).length;
  }
  assert.equal(fresh, 20 + 4 * 7 * 96, 'each item reported new once, the pinned one too');
  assert.ok(s.remembered('f') <= 200, `item ids remembered: ${s.remembered('f')}`);
});

test('a failed poll (no items) forgets none of the items a long feed lists', () => {
  const s = new FeedScheduler({ policy: 'posting-rate', M: 1, T: 15, ToE: 60, minPollMinutes: 15 }, DAY0);
  s.addFeed('f', 0, DAY0);
  const items = Array.from({ length: 500 }, (_, i) => ({ id: `a${i}`, publishedAt: null }));
  assert.equal(s.recordPoll('f', DAY0, items).length, 500);
  assert.deepEqual(s.recordPoll('f', DAY0 + H, []), []);
  assert.deepEqual(s.recordPoll('f', DAY0 + 2 * H, items), [], 'nothing new');
});

test('a scheduler given the feeds\' memories (a resumed crawl) waits, ranks and tells new items as the one it replaces', () => {
  const options = { policy: 'posting-rate' as const, M: 1, T: 60, ToE: 60, minPollMinutes: 30 };
  const feeds = ['busy', 'quiet'];
  const before = new FeedScheduler(options, DAY0);
  for (const url of feeds) before.addFeed(url, 0, DAY0);
  // Two days of hourly polls: busy posts at 9:00 and 15:00, quiet at 3:00 on the first day only.
  for (let h = 0; h < 48; h++) {
    const at = DAY0 + h * H;
    for (const url of before.choose(at)) {
      const listed = url === 'busy' ? [9, 15, 33, 39].filter((p) => p <= h).map((p) => ({ id: `b${p}`, publishedAt: DAY0 + p * H })) : h >= 3 ? [{ id: 'q3', publishedAt: DAY0 + 3 * H }] : [];
      before.recordPoll(url, at, listed);
    }
  }
  const memories = new Map(feeds.map((url) => [url, before.memoryOf(url)!]));
  assert.ok(memories.get('busy')!.seen.length === 4 && memories.get('busy')!.published.length === 4);

  // Resumed 65 minutes after the last poll, the last estimate an hour old.
  const resumedAt = DAY0 + 47 * H + 65 * 60_000;
  const after = new FeedScheduler(options, resumedAt);
  for (const url of feeds) after.addFeed(url, 0, resumedAt);
  after.restore(new Map([...memories, ['gone', memories.get('busy')!]]), resumedAt);
  assert.equal(after.memoryOf('gone'), null, 'a feed the crawl no longer has is ignored');
  assert.equal(after.nextEligibleAt(), before.nextEligibleAt(), 'each feed waits its minimum interval from its last poll');
  // The posting rates are estimated from the memories at once, as the old scheduler's are now.
  assert.deepEqual(after.choose(resumedAt), before.choose(resumedAt));
  for (const url of feeds) assert.deepEqual(after.ratesOf(url), before.ratesOf(url));
  assert.ok(after.ratesOf('busy')[9]! > after.ratesOf('busy')[10]!, 'busy\'s 9 o\'clock posts are known');
  const at = resumedAt + 2 * 60_000;
  assert.deepEqual(after.recordPoll('busy', at, [{ id: 'b33', publishedAt: DAY0 + 33 * H }, { id: 'b57', publishedAt: at - 60_000 }]), ['b57'], 'only the item not listed before is new');
});

test('feeds skipped (excluded) are not chosen and leave the period\'s polls to the others, whatever the policy', () => {
  for (const policy of ['posting-rate', 'round-robin'] as const) {
    const s = new FeedScheduler({ policy, M: 1, T: 60, ToE: 60, minPollMinutes: 30 }, DAY0);
    for (const url of ['a', 'b', 'c']) s.addFeed(url, 0, DAY0);
    const skipped = (url: string) => url !== 'c';
    assert.deepEqual(s.choose(DAY0 + H, skipped), ['c'], policy);
    assert.deepEqual(s.choose(DAY0 + H, () => true), [], policy);
  }
});

test('re-estimates count a feed\'s publication times once while they stay the same, not at every period (the cockpit\'s plan of 1,000 feeds)', () => {
  const H = 3_600_000;
  const now = Date.UTC(2026, 10, 28, 12, 0, 0);
  const feeds = Array.from({ length: 1_000 }, (_, i) => `http://h${i % 50}.test/feed/${i}.xml`);
  // Two weeks of hourly posts each, as a busy feed keeps for the estimate.
  const memories = new Map(feeds.map((url, i) => [url, { lastPollAt: now - (i % 60) * 60_000, firstPollAt: now - 14 * 24 * H, seen: [], published: Array.from({ length: 336 }, (_, k) => now - k * H - i) }]));
  const s = new FeedScheduler({ policy: 'posting-rate', M: 250, T: 15, ToE: 15, minPollMinutes: 15, maxPollMinutes: 360 }, now);
  for (const url of feeds) s.addFeed(url, 0, now);
  s.restore(memories, now);
  assert.equal(s.timesCounted(), 336_000, 'each time counted once when restored');
  // Thirty periods of the plan: a re-estimate each, polls finding nothing new.
  for (let period = 0; period < 30; period++) {
    const t = now + period * 15 * 60_000;
    for (const url of s.choose(t)) s.recordPoll(url, t, []);
  }
  // The oldest hours of each feed leave the two weeks as the periods pass: taken off, the rest not counted again.
  assert.equal(s.timesCounted(), 336_000, 'not 30 times as many');
  const kept = s.memoryOf(feeds[0]!)!.published;
  assert.equal(kept.length, 336 - 7, 'the 7 hours older than two weeks after 7¼ hours are forgotten');
});
