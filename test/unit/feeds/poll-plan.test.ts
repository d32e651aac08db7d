import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlPollingOptions, periodAfter, plannedPolls, type FeedMemory } from '../../../worker/feeds';

const M = 60_000;
const H = 60 * M;
const NOW = Date.UTC(2026, 10, 28, 12, 0, 0);

const memory = (lastPollAt: number, published: number[] = []): FeedMemory => ({ lastPollAt, firstPollAt: lastPollAt - 2 * 24 * H, seen: [], published });

test('the crawl polls a quarter of its feeds a period of the minimum interval; one not polled for 24 periods goes first', () => {
  assert.deepEqual(crawlPollingOptions(1, 15), { policy: 'posting-rate', M: 1, T: 15, ToE: 15, minPollMinutes: 15, maxPollMinutes: 360 });
  assert.equal(crawlPollingOptions(9, 15).M, 3);
});

test('the next period: a period on, or, when none was chosen, once the first feed may be polled again', () => {
  assert.equal(periodAfter(NOW, true, null, 15 * M), NOW + 15 * M);
  assert.equal(periodAfter(NOW, false, NOW + 40_000, 15 * M), NOW + 40_000);
  assert.equal(periodAfter(NOW, false, NOW - 5, 15 * M), NOW + 1, 'never the same instant again');
  assert.equal(periodAfter(NOW, false, null, 15 * M), NOW + 15 * M);
});

test('a single feed is polled again a minimum interval after its last poll, or now when that has passed', () => {
  assert.deepEqual(plannedPolls(['f'], new Map([['f', memory(NOW - 5 * M)]]), 15, NOW), new Map([['f', NOW + 10 * M]]));
  assert.deepEqual(plannedPolls(['f'], new Map([['f', memory(NOW - 20 * M)]]), 15, NOW), new Map([['f', NOW]]), 'overdue: the crawl polls it at once');
  // A last poll said to be later than now (the clock set back) counts as made now, as the scheduler takes it.
  assert.deepEqual(plannedPolls(['f'], new Map([['f', memory(NOW + 3 * H)]]), 15, NOW), new Map([['f', NOW + 15 * M]]));
});

test('feeds not polled yet: M of them a period, from now', () => {
  const feeds = Array.from({ length: 8 }, (_, i) => `f${i}`);
  const planned = plannedPolls(feeds, new Map(), 15, NOW);
  assert.equal(planned.size, 8);
  const times = [...planned.values()].sort((a, b) => a - b);
  assert.deepEqual(times, [NOW, NOW, NOW + 15 * M, NOW + 15 * M, NOW + 30 * M, NOW + 30 * M, NOW + 45 * M, NOW + 45 * M], 'M = 2 a period');
});

test('a feed that posts more is polled sooner; a silent one still comes, once overdue at the latest', () => {
  // Four feeds (M = 1), all last polled an hour ago; "busy" published one article an hour for two days.
  const busyTimes = Array.from({ length: 48 }, (_, i) => NOW - H - i * H);
  const memories = new Map([
    ['busy', memory(NOW - H, busyTimes)],
    ['quiet1', memory(NOW - H)],
    ['quiet2', memory(NOW - H)],
    ['quiet3', memory(NOW - H)],
  ]);
  const planned = plannedPolls([...memories.keys()], memories, 15, NOW);
  assert.equal(planned.get('busy'), NOW, 'the busiest feed in the first period');
  assert.equal(planned.size, 4, 'every feed planned');
  const quiet = ['quiet1', 'quiet2', 'quiet3'].map((f) => planned.get(f)!);
  assert.ok(quiet.every((at) => at > NOW && at <= NOW - H + 24 * 15 * M + 4 * 15 * M), JSON.stringify(quiet));
  assert.equal(new Set(quiet).size, 3, 'one feed a period');
});

test('a feed the crawl excludes is not planned, and takes no period\'s poll from the others', () => {
  const feeds = ['f0', 'f1', 'f2', 'f3', 'f4'];
  // M = 2: without f0, the four others need two periods.
  const planned = plannedPolls(feeds, new Map(), 15, NOW, new Set(['f0']));
  assert.equal(planned.has('f0'), false);
  assert.deepEqual([...planned.values()].sort((a, b) => a - b), [NOW, NOW, NOW + 15 * M, NOW + 15 * M]);
});
