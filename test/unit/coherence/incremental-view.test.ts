import { test } from 'node:test';
import assert from 'node:assert/strict';
import { feedClassesOf, feedRows, feedSection, feedsPolled, feedsSelected, hasFeedsOrRecrawls, incrementalSettingsOf, nextPolls, problemOf, recrawlSection, type FeedStateInput, type FeedSummary } from '../../../worker/coherence/incremental-view';

const T = Date.UTC(2026, 10, 28, 12, 0, 0);
const iso = (ms: number) => new Date(ms).toISOString();

test('the settings come from the stored ICD copy, leniently; the section shows for feeds or a recrawl interval', () => {
  assert.deepEqual(incrementalSettingsOf({ coherence: { feeds: ['http://a/feed', 7], recrawlIntervalMinutes: 30, minFeedPollMinutes: 5 } }), { feeds: ['http://a/feed'], minFeedPollMinutes: 5, recrawlIntervalMinutes: 30 });
  const none = incrementalSettingsOf({ seeds: ['http://a/'] });
  assert.deepEqual(none, { feeds: [], minFeedPollMinutes: 15, recrawlIntervalMinutes: 0 });
  assert.deepEqual(incrementalSettingsOf(null), none);
  assert.deepEqual(incrementalSettingsOf({ coherence: { feeds: 'http://a/feed', recrawlIntervalMinutes: -1 } }), none);
  assert.equal(hasFeedsOrRecrawls(none), false);
  assert.equal(hasFeedsOrRecrawls({ ...none, feeds: ['http://a/feed'] }), true);
  assert.equal(hasFeedsOrRecrawls({ ...none, recrawlIntervalMinutes: 1 }), true);
});

test('feed rows follow the ICD order: a feed not polled yet, one polled fine, one refused by robots.txt, one answering 404', () => {
  const summary = (outcome: 'ok' | 'robots' | 'http-error', status: number | null, detail: string | null, fresh: number) => ({
    polls: 4, failedPolls: outcome === 'ok' ? 0 : 4, articlesNew: 7, recentNew: [5, 2, 0, fresh], last: { at: T, outcome, status, detail, listed: outcome === 'ok' ? 20 : 0, fresh },
  });
  const stored: FeedStateInput[] = [
    { url: 'http://a/private/feed', lastPollAt: T, firstPollAt: T, published: [], summary: summary('robots', null, 'robots.txt disallows it', 0) },
    { url: 'http://a/feed', lastPollAt: T, firstPollAt: T, published: [], summary: summary('ok', 200, null, 1) },
    { url: 'http://a/gone', lastPollAt: T, firstPollAt: T, published: [], summary: summary('http-error', 404, 'answered 404', 0) },
  ];
  const rows = feedRows(['http://a/new', 'http://a/feed', 'http://a/private/feed', 'http://a/gone'], stored);
  assert.deepEqual(rows.map((r) => [r.url, r.outcome, r.problem]), [
    ['http://a/new', null, null],
    ['http://a/feed', 'ok', null],
    ['http://a/private/feed', 'robots', 'Not polled: robots.txt disallows it'],
    ['http://a/gone', 'http-error', 'Last poll failed: the feed answered 404'],
  ]);
  assert.equal(rows[0]!.lastPollAt, null);
  assert.deepEqual(rows[1], {
    url: 'http://a/feed', lastPollAt: iso(T), nextPollAt: null, outcome: 'ok', status: 200, problem: null, listed: 20, lastNew: 1, articlesNew: 7, polls: 4, failedPolls: 0, recentNew: [5, 2, 0, 1],
  });
});

test('a feed whose poll left no summary shows its last poll time only', () => {
  const rows = feedRows(['http://a/1'], [{ url: 'http://a/1', lastPollAt: T, firstPollAt: T, published: [], summary: null }]);
  assert.deepEqual(rows.map((r) => [r.outcome, r.status, r.problem, r.lastPollAt, r.articlesNew]), [[null, null, null, iso(T), null]]);
});

test('while the crawl runs, each feed shows when its scheduler plans to poll it next; not while it does not', () => {
  const settings = { feeds: ['http://a/feed', 'http://a/new'], minFeedPollMinutes: 15, recrawlIntervalMinutes: 0 };
  // Polled 5 minutes ago; the other feed not yet (the crawl started a moment ago and polls one feed a period).
  const stored: FeedStateInput[] = [{ url: 'http://a/feed', lastPollAt: T - 5 * 60_000, firstPollAt: T - 5 * 60_000, published: [], summary: null }];
  const summary: FeedSummary = { ok: 0, failing: 0, refused: 0, excluded: 0, 'not-polled': 1, 'not-known': 1, articlesNew: 0 };
  const page = { filter: 'all' as const, page: 1, pageSize: 50, feeds: settings.feeds, stored };
  const running = feedSection(settings, summary, page, nextPolls(settings, stored, T));
  assert.equal(running.polling, true);
  assert.equal(running.minPollMinutes, 15);
  // One poll a period (M = ⌈2 / 4⌉): the feed never polled goes first, a period after the last poll; the other a period later.
  assert.deepEqual(running.rows.map((r) => [r.url, r.lastPollAt, r.nextPollAt]), [
    ['http://a/feed', iso(T - 5 * 60_000), iso(T + 25 * 60_000)],
    ['http://a/new', null, iso(T + 10 * 60_000)],
  ]);
  // A page of one feed is planned from every feed's polls: the same time as in the whole list.
  const second = feedSection(settings, summary, { ...page, page: 2, pageSize: 1, feeds: ['http://a/new'], stored: [] }, nextPolls(settings, stored, T));
  assert.deepEqual(second.rows.map((r) => r.nextPollAt), [iso(T + 10 * 60_000)]);
  for (const status of ['paused', 'pausing', 'stopped', 'finished', 'created']) {
    assert.equal(feedsPolled(status), false, status);
    const idle = feedSection(settings, summary, page, null);
    assert.equal(idle.polling, false, status);
    assert.deepEqual(idle.rows.map((r) => r.nextPollAt), [null, null], status);
  }
});

test('the feeds a filter selects are counted from the summary, which counts every feed once', () => {
  const summary: FeedSummary = { ok: 700, failing: 120, refused: 80, excluded: 20, 'not-polled': 70, 'not-known': 10, articlesNew: 4321 };
  assert.equal(feedsSelected(summary, 'all'), 1_000);
  assert.equal(feedsSelected(summary, 'problems'), 220);
  assert.equal(feedsSelected(summary, 'failing'), 120);
  assert.equal(feedsSelected(summary, 'refused'), 80);
  assert.equal(feedsSelected(summary, 'not-polled'), 70);
  assert.equal(feedsSelected(summary, 'ok'), 700);
  assert.equal(feedClassesOf('all'), null);
  assert.deepEqual(feedClassesOf('problems'), ['failing', 'refused', 'excluded']);
  const section = feedSection({ feeds: Array.from({ length: 1_000 }, (_, i) => `http://a/${i}`), minFeedPollMinutes: 15, recrawlIntervalMinutes: 0 }, summary, { filter: 'problems', page: 3, pageSize: 50, feeds: [], stored: [] }, null);
  assert.deepEqual([section.feedCount, section.total, section.page, section.pageSize, section.filter, section.rows], [1_000, 220, 3, 50, 'problems', []]);
});

test('problem notes name what failed', () => {
  assert.equal(problemOf('ok', 200, null), null);
  assert.equal(problemOf('excluded', null, "the crawl's exclude pattern /private/ matches it"), "Not polled, excluded: the crawl's exclude pattern /private/ matches it");
  assert.equal(problemOf('failed', null, 'the host name did not resolve: ENOTFOUND'), 'Last poll failed: the host name did not resolve: ENOTFOUND');
  assert.equal(problemOf('failed', null, null), 'Last poll failed');
  assert.equal(problemOf('robots', null, 'robots.txt could not be read'), 'Not polled: robots.txt could not be read');
});

test('the next round: after the initial crawl, scheduled, due, or waiting for the crawl to run; rounds newest first', () => {
  const round = (n: number, at: number) => ({ round: n, finishedAt: at, pages: 12, due: 12 - n, backedOff: 0, fetched: 10, changed: 3, parentsFetched: 1, newLinks: 4, parentThreshold: 0.5 });
  const initial = recrawlSection(60, null, [], 'running', T);
  assert.deepEqual(initial, { intervalMinutes: 60, lastRound: null, lastFinishedAt: null, nextRound: { state: 'initial-crawl', at: null }, failure: null, rounds: [] });

  const last = { round: 2, finishedAt: T - 10 * 60_000 };
  const scheduled = recrawlSection(60, last, [round(1, T - 70 * 60_000), round(2, T - 10 * 60_000)], 'running', T);
  assert.deepEqual(scheduled.nextRound, { state: 'scheduled', at: iso(T + 50 * 60_000) });
  assert.equal(scheduled.lastRound, 2);
  assert.equal(scheduled.lastFinishedAt, iso(T - 10 * 60_000));
  assert.deepEqual(scheduled.rounds.map((r) => [r.round, r.finishedAt]), [[2, iso(T - 10 * 60_000)], [1, iso(T - 70 * 60_000)]]);

  assert.deepEqual(recrawlSection(5, last, [], 'running', T).nextRound, { state: 'due', at: iso(T - 5 * 60_000) });
  assert.deepEqual(recrawlSection(60, last, [], 'paused', T).nextRound, { state: 'not-running', at: iso(T + 50 * 60_000) });
  assert.deepEqual(recrawlSection(60, null, [], 'stopped', T).nextRound, { state: 'not-running', at: null });
  // A last end in the future (the clock set back since) counts from now, as the engine does.
  assert.deepEqual(recrawlSection(60, { round: 3, finishedAt: T + 86_400_000 }, [], 'running', T).nextRound, { state: 'scheduled', at: iso(T + 60 * 60_000) });
  assert.equal(recrawlSection(60, { round: 0, finishedAt: T }, [], 'running', T).lastRound, 0);
});

test('a round that failed: its failure, and its retry as the next round; a finished round says it failed before', () => {
  const round = (n: number, at: number) => ({ round: n, finishedAt: at, pages: 5, due: 5, backedOff: 0, fetched: 5, changed: 1, parentsFetched: 0, newLinks: 0, parentThreshold: 0.5 });
  const failure = (n: number, failedAt: number, retryAt: number | null, failures = 1) => ({ round: n, failures, firstFailedAt: failedAt - (failures - 1) * 60_000, failedAt, message: `round ${n} broke`, url: 'http://site.test/a', retryAt });
  const last = { round: 2, finishedAt: T - 30 * 60_000 };
  const rounds = [round(1, T - 60 * 60_000), round(2, T - 30 * 60_000)];
  // Round 1 failed twice before it finished; round 3, under way, failed 20 s ago and is retried in 40 s.
  const failures = [failure(1, T - 65 * 60_000, T - 64 * 60_000, 2), failure(3, T - 20_000, T + 40_000)];

  const running = recrawlSection(10, last, rounds, 'running', T, failures);
  assert.deepEqual(running.failure, { round: 3, failures: 1, firstFailedAt: iso(T - 20_000), failedAt: iso(T - 20_000), message: 'round 3 broke', url: 'http://site.test/a', retryAt: iso(T + 40_000) });
  // Due by the interval since T - 20 min, but not before its retry time.
  assert.deepEqual(running.nextRound, { state: 'scheduled', at: iso(T + 40_000) });
  assert.deepEqual(running.rounds.map((r) => [r.round, r.failures, r.lastFailure]), [[2, 0, null], [1, 2, { at: iso(T - 65 * 60_000), message: 'round 1 broke' }]]);

  // Its retry time passed: due (it starts once no page waits).
  assert.deepEqual(recrawlSection(10, last, rounds, 'running', T + 60_000, failures).nextRound, { state: 'due', at: iso(T + 40_000) });
  // Not running: not tried again until it runs, and not before its retry time.
  const paused = recrawlSection(10, last, rounds, 'paused', T, failures);
  assert.deepEqual(paused.nextRound, { state: 'not-running', at: iso(T + 40_000) });
  assert.equal(paused.failure?.round, 3);
  // A failure that paused the crawl (a full disk) has no retry time: the round runs again on resume.
  const onResume = recrawlSection(10, last, rounds, 'paused', T, [failure(3, T - 20_000, null)]);
  assert.deepEqual([onResume.failure?.retryAt, onResume.nextRound], [null, { state: 'not-running', at: iso(T - 20 * 60_000) }]);
  assert.deepEqual(recrawlSection(10, last, rounds, 'running', T, [failure(3, T - 20_000, null)]).nextRound, { state: 'due', at: iso(T - 20 * 60_000) });

  // Round 3 finished since: nothing pending, its row says it failed before.
  const finished = recrawlSection(10, { round: 3, finishedAt: T + 50_000 }, [...rounds, round(3, T + 50_000)], 'running', T + 60_000, failures);
  assert.equal(finished.failure, null);
  assert.deepEqual(finished.nextRound, { state: 'scheduled', at: iso(T + 50_000 + 10 * 60_000) });
  assert.deepEqual(finished.rounds[0] && [finished.rounds[0].round, finished.rounds[0].failures, finished.rounds[0].lastFailure], [3, 1, { at: iso(T - 20_000), message: 'round 3 broke' }]);

  // A retry time far ahead (the clock set back since) counts a minute from now, as the engine does.
  assert.deepEqual(recrawlSection(10, last, rounds, 'running', T, [failure(3, T + 86_400_000, T + 86_460_000)]).nextRound, { state: 'scheduled', at: iso(T + 60_000) });
  // Before the initial crawl ended nothing is under way.
  assert.equal(recrawlSection(10, null, [], 'running', T, [failure(1, T, T + 60_000)]).failure, null);
});
