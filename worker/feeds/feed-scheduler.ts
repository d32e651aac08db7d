import { estimateHourlyRates, expectedArticles, expectedWaitingHours, hourCounts, ratesFromHourCounts, utcHour, type HourlyRates } from './posting-rate-model';

/**
 * advaRSS-style feed polling. Our reading of its parameters: at most M polls in each period of
 * T minutes (the crawler's budget); every ToE minutes (time of estimation) each feed's hourly
 * posting-rate model is re-estimated from the publication times seen so far; a feed is never
 * polled twice within the minimum poll interval. The posting-rate policy ranks feeds by
 * rank(f, t) = expected new articles since the last poll × (1 + c·subscribers).
 */

export type PollingPolicy = 'round-robin' | 'minimum-delay' | 'posting-rate';

export interface FeedSchedulerOptions {
  policy: PollingPolicy;
  /** Polls allowed per period. */
  M: number;
  /** Period length in minutes. */
  T: number;
  /** Re-estimation interval in minutes. */
  ToE: number;
  minPollMinutes: number;
  /** Feeds not polled for this long go first, whatever their rank (bounds the worst delay). */
  maxPollMinutes?: number;
  /** Weight of subscribers in the rank. */
  c?: number;
  /** Publication times older than this many days are forgotten when estimating. */
  historyDays?: number;
}

interface FeedState {
  url: string;
  subscribers: number;
  lastPollAt: number;
  firstPollAt: number | null;
  seen: Set<string>;
  published: number[];
  /** What the last estimate counted of `published`, then in ascending order (null once they change). */
  counted: CountedTimes | null;
  rates: HourlyRates;
}

/** A feed's publication times as an estimate counted them: per hour of the day, the earliest and the latest. */
interface CountedTimes {
  counts: number[];
  earliest: number;
  latest: number;
}

/**
 * What a feed's polls taught the scheduler, as plain data: a crawl keeps it across a pause and a
 * restart of the worker (without it, every feed was polled again at once, whatever its minimum
 * interval, its items were new again and its posting rates started from nothing).
 */
export interface FeedMemory {
  lastPollAt: number;
  firstPollAt: number;
  /** The item ids remembered, least recently listed first (bounded, see recordPoll). */
  seen: string[];
  /** Publication times of its new items, kept for the posting-rate estimate. */
  published: number[];
}

const MINUTE_MS = 60_000;
/** Item ids a feed remembers at least (more when it lists more: twice as many as its last poll). */
const MIN_REMEMBERED = 200;

export class FeedScheduler {
  private readonly feeds: FeedState[] = [];
  private readonly byUrl = new Map<string, FeedState>();
  private cursor = 0;
  private lastEstimateAt: number;
  private binned = 0;

  constructor(private readonly o: FeedSchedulerOptions, start: number) {
    this.lastEstimateAt = start;
  }

  addFeed(url: string, subscribers = 0, now = 0): void {
    if (this.byUrl.has(url)) return;
    const state: FeedState = { url, subscribers, lastPollAt: now - this.o.minPollMinutes * MINUTE_MS, firstPollAt: null, seen: new Set(), published: [], counted: null, rates: estimateHourlyRates([], 0) };
    this.feeds.push(state);
    this.byUrl.set(url, state);
  }

  /** The rank of a feed at `now` under the scheduler's policy (higher = poll sooner). */
  rank(url: string, now: number): number {
    const f = this.byUrl.get(url)!;
    if (this.o.policy === 'minimum-delay') return expectedWaitingHours(f.rates, f.lastPollAt, now) * (1 + (this.o.c ?? 0) * f.subscribers);
    return expectedArticles(f.rates, f.lastPollAt, now) * (1 + (this.o.c ?? 0) * f.subscribers);
  }

  /**
   * The feeds to poll at the start of the period beginning at `now` (at most M). Feeds `skipped`
   * (an exclude pattern of the crawl matches them) are not chosen and take none of the M polls.
   */
  choose(now: number, skipped: (url: string) => boolean = () => false): string[] {
    this.clockSetBack(now);
    if (now - this.lastEstimateAt >= this.o.ToE * MINUTE_MS) this.reestimate(now);
    const eligible = (f: FeedState) => now - f.lastPollAt >= this.o.minPollMinutes * MINUTE_MS && !skipped(f.url);
    if (this.o.policy === 'round-robin') {
      const chosen: string[] = [];
      for (let k = 0; k < this.feeds.length && chosen.length < this.o.M; k++) {
        const f = this.feeds[(this.cursor + k) % this.feeds.length]!;
        if (eligible(f)) chosen.push(f.url);
      }
      if (chosen.length) this.cursor = (this.feeds.indexOf(this.byUrl.get(chosen.at(-1)!)!) + 1) % this.feeds.length;
      return chosen;
    }
    // Never-polled and overdue feeds first (oldest first), then by rank.
    const overdue = (f: FeedState) => f.firstPollAt === null || (this.o.maxPollMinutes !== undefined && now - f.lastPollAt >= this.o.maxPollMinutes * MINUTE_MS);
    return this.feeds
      .filter(eligible)
      .map((f) => ({ url: f.url, last: f.lastPollAt, key: overdue(f) ? Number.MAX_VALUE : this.rank(f.url, now) }))
      .sort((a, b) => b.key - a.key || a.last - b.last || a.url.localeCompare(b.url))
      .slice(0, this.o.M)
      .map((x) => x.url);
  }

  /**
   * Records a poll: the items the feed listed (id and publication time). Returns the items not
   * seen before — the new article URLs to queue.
   */
  recordPoll(url: string, now: number, items: readonly { id: string; publishedAt: number | null }[]): string[] {
    const f = this.byUrl.get(url)!;
    f.lastPollAt = now;
    f.firstPollAt ??= now;
    const fresh: string[] = [];
    for (const item of items) {
      if (f.seen.delete(item.id)) {
        f.seen.add(item.id); // still listed: remembered as recent
        continue;
      }
      f.seen.add(item.id);
      fresh.push(item.id);
      if (item.publishedAt !== null && item.publishedAt <= now) {
        f.published.push(item.publishedAt);
        f.counted = null;
      }
    }
    // Items the feed no longer lists are forgotten, least recently listed first: a feed polled for
    // weeks kept the id of every article it had ever listed. A poll that listed nothing (a failed
    // one) forgets nothing.
    const keep = Math.max(MIN_REMEMBERED, 2 * items.length);
    for (const id of f.seen) {
      if (!items.length || f.seen.size <= keep) break;
      f.seen.delete(id);
    }
    return fresh;
  }

  /**
   * When the first feed may be polled again (its last poll a minimum interval old), of those
   * `skipped` does not leave out (a feed whose poll is under way); null without any.
   */
  nextEligibleAt(skipped: (url: string) => boolean = () => false): number | null {
    const feeds = this.feeds.filter((f) => !skipped(f.url));
    return feeds.length ? Math.min(...feeds.map((f) => f.lastPollAt)) + this.o.minPollMinutes * MINUTE_MS : null;
  }

  /** What the scheduler learnt of a feed; null before its first poll. */
  memoryOf(url: string): FeedMemory | null {
    const f = this.byUrl.get(url);
    if (!f || f.firstPollAt === null) return null;
    return { lastPollAt: f.lastPollAt, firstPollAt: f.firstPollAt, seen: [...f.seen], published: [...f.published] };
  }

  /**
   * Gives feeds (added before) what an earlier run learnt of them, and estimates their rates from
   * it at once rather than a ToE later; memories of feeds it does not have are ignored.
   */
  restore(memories: ReadonlyMap<string, FeedMemory>, now: number): void {
    let restored = false;
    for (const [url, m] of memories) {
      const f = this.byUrl.get(url);
      if (!f) continue;
      f.lastPollAt = m.lastPollAt;
      f.firstPollAt = m.firstPollAt;
      f.seen = new Set(m.seen);
      f.published = [...m.published];
      f.counted = null;
      restored = true;
    }
    if (!restored) return;
    this.clockSetBack(now);
    this.reestimate(now);
  }

  /**
   * Publication times counted into hours so far, over every estimate: the estimates' work. A feed's
   * times are counted once, and again only when they change (a poll found new ones, some left the
   * history), not at every re-estimate.
   */
  timesCounted(): number {
    return this.binned;
  }

  /** How many item ids are remembered for a feed (to tell new items). */
  remembered(url: string): number {
    return this.byUrl.get(url)!.seen.size;
  }

  /** Hourly rates currently believed for a feed. */
  ratesOf(url: string): HourlyRates {
    return this.byUrl.get(url)!.rates;
  }

  /**
   * A clock set back (after running ahead): polls and the last estimate said to be later than now
   * are taken as made now. Left in the future, they held every poll and estimate until the clock
   * came back to them, for as long as it had run ahead.
   */
  private clockSetBack(now: number): void {
    this.lastEstimateAt = Math.min(this.lastEstimateAt, now);
    for (const f of this.feeds) {
      f.lastPollAt = Math.min(f.lastPollAt, now);
      if (f.firstPollAt !== null) f.firstPollAt = Math.min(f.firstPollAt, now);
    }
  }

  private reestimate(now: number): void {
    this.lastEstimateAt = now;
    const horizon = (this.o.historyDays ?? 14) * 1440 * MINUTE_MS;
    const windows = new Map<FeedState, number>();
    let articles = 0;
    let hours = 0;
    for (const f of this.feeds) {
      if (f.firstPollAt === null) continue;
      const counted = this.counted(f, now - horizon, now);
      const since = Math.max(now - horizon, Math.min(counted.earliest, f.firstPollAt));
      windows.set(f, (now - since) / (1440 * MINUTE_MS));
      articles += f.published.length;
      hours += (now - since) / 3_600_000;
    }
    // Feeds with little history lean on the average feed's rate.
    const population = hours > 0 && articles > 0 ? articles / hours : undefined;
    for (const [f, days] of windows) f.rates = ratesFromHourCounts(f.counted!.counts, f.published.length, days, 1, population);
  }

  /**
   * Keeps `f`'s publication times within [from, to] and their counts per hour (CountedTimes). The
   * cockpit's plan (poll-plan.ts) re-estimates every period with the same times, and counting them
   * all each time cost 1,000 feeds of two weeks' hourly posts ~50 ms a plan: counted once (the
   * times then kept in order), times that leave the history later are taken off the front.
   */
  private counted(f: FeedState, from: number, to: number): CountedTimes {
    const c = f.counted;
    if (c && c.latest <= to) {
      let gone = 0;
      while (gone < f.published.length && f.published[gone]! < from) c.counts[utcHour(f.published[gone++]!)]!--;
      if (gone) f.published.splice(0, gone);
      c.earliest = f.published[0] ?? Number.POSITIVE_INFINITY;
      return c;
    }
    f.published = f.published.filter((t) => t >= from && t <= to).sort((a, b) => a - b);
    this.binned += f.published.length;
    f.counted = { counts: hourCounts(f.published), earliest: f.published[0] ?? Number.POSITIVE_INFINITY, latest: f.published.at(-1) ?? Number.NEGATIVE_INFINITY };
    return f.counted;
  }
}
