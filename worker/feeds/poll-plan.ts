import { FeedScheduler, type FeedMemory, type FeedSchedulerOptions } from './feed-scheduler';

/**
 * How a crawl's feeds are polled (FeedMonitor), as plain rules, and the plan they give: when each
 * feed will next be polled, worked out by the scheduler itself from what the polls taught it.
 */

const MINUTE_MS = 60_000;

/**
 * The advaRSS settings a crawl polls its feeds with: periods of T = the minimum poll interval with
 * M = ⌈feeds / 4⌉ polls each, rates re-estimated every period, and a feed not polled for 24
 * periods first, whatever its rank (bench/feeds.ts: this bounds the worst delay).
 */
export function crawlPollingOptions(feeds: number, minPollMinutes: number): FeedSchedulerOptions {
  return { policy: 'posting-rate', M: Math.max(1, Math.ceil(feeds / 4)), T: minPollMinutes, ToE: minPollMinutes, minPollMinutes, maxPollMinutes: 24 * minPollMinutes };
}

/**
 * When the period after the one that began at `start` begins: a period later; or, when that one
 * chose no feed (each was polled less than a minimum interval ago), at `eligibleAt`, when the
 * first may be polled again. A poll counts from its answer, after its host's delay and the
 * server's time, so later than its period began: the period waits for that feed rather than
 * being lost (a single feed was polled every other period).
 */
export function periodAfter(start: number, choseAny: boolean, eligibleAt: number | null, periodMs: number): number {
  if (choseAny) return start + periodMs;
  return Math.max(start + 1, eligibleAt === null ? start + periodMs : eligibleAt);
}

/**
 * Periods planned at most. A feed is overdue 24 periods after its last poll, and overdue feeds go
 * first, M (a quarter of the feeds) a period: every feed comes within about 29 periods; the rest
 * leaves room for periods that chose no feed.
 */
export const PLANNED_PERIODS = 64;

/**
 * When each of `feeds` will next be polled (wall-clock ms, the start of the period that polls it):
 * the scheduler, given the feeds' memories as a resumed crawl gives them, chooses period after
 * period as the crawl's does, on the assumption that no feed lists a new article meanwhile (one
 * that does ranks higher and may come sooner). The poll itself then waits its host's turn. A feed
 * absent from the answer is not planned within PLANNED_PERIODS; so is a feed `excluded` (an exclude
 * pattern of the crawl matches it: the crawl does not poll it).
 *
 * The crawl does not store when its current period began; its next one is taken to begin a period
 * after the latest poll (that poll's answer came a little after its period began), or now when
 * that is past (a resumed crawl polls at once) or when no feed was polled yet.
 */
export function plannedPolls(feeds: readonly string[], memories: ReadonlyMap<string, FeedMemory>, minPollMinutes: number, now: number, excluded: ReadonlySet<string> = new Set()): Map<string, number> {
  const periodMs = minPollMinutes * MINUTE_MS;
  let latest = Number.NEGATIVE_INFINITY;
  for (const m of memories.values()) latest = Math.max(latest, m.lastPollAt);
  // A poll said to be later than now (a clock set back) counts as made now, as the scheduler takes it.
  let t = Number.isFinite(latest) ? Math.max(now, Math.min(latest, now) + periodMs) : now;
  const scheduler = new FeedScheduler(crawlPollingOptions(feeds.length, minPollMinutes), now);
  for (const url of feeds) scheduler.addFeed(url, 0, now);
  scheduler.restore(memories, now);
  const planned = new Map<string, number>();
  const wanted = new Set(feeds.filter((url) => !excluded.has(url))).size;
  for (let period = 0; period < PLANNED_PERIODS && planned.size < wanted; period++) {
    const chosen = scheduler.choose(t, (url) => excluded.has(url));
    for (const url of chosen) {
      if (!planned.has(url)) planned.set(url, t);
      scheduler.recordPoll(url, t, []);
    }
    t = periodAfter(t, chosen.length > 0, scheduler.nextEligibleAt(), periodMs);
  }
  return planned;
}
