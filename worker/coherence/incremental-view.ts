/**
 * The cockpit's "Feeds and recrawls" section of a crawl, shaped from what the engine stored (feed
 * polls, recrawl rounds) and from the crawl log. Pure: the route reads the rows, these functions
 * shape them, and the page (which imports this module too) renders them.
 */
import type { RoundFailure, RoundRecord } from '../crawler/recrawl-history';
import { plannedPolls, type FeedMemory, type FeedPollOutcome, type FeedPollSummary } from '../feeds';

/** The ICD settings the section depends on. */
export interface IncrementalSettings {
  feeds: string[];
  minFeedPollMinutes: number;
  recrawlIntervalMinutes: number;
}

/**
 * The settings from a crawl's stored ICD copy, read leniently (an older copy may lack the fields;
 * the schema's defaults: no feeds, no recrawls, 15-minute polls).
 */
export function incrementalSettingsOf(definition: unknown): IncrementalSettings {
  const coherence = (definition as { coherence?: Record<string, unknown> } | null | undefined)?.coherence ?? {};
  const feeds = Array.isArray(coherence.feeds) ? coherence.feeds.filter((f): f is string => typeof f === 'string') : [];
  const number = (v: unknown, fallback: number) => (typeof v === 'number' && Number.isFinite(v) && v >= 0 ? v : fallback);
  return { feeds, minFeedPollMinutes: number(coherence.minFeedPollMinutes, 15), recrawlIntervalMinutes: number(coherence.recrawlIntervalMinutes, 0) };
}

/** Whether the crawl has the section: its ICD names feeds or a recrawl interval. */
export function hasFeedsOrRecrawls(s: IncrementalSettings): boolean {
  return s.feeds.length > 0 || s.recrawlIntervalMinutes > 0;
}

/** One feed as the engine stored it (feed-state-store.ts readFeedStates). Times: wall-clock ms. */
export interface FeedStateInput {
  url: string;
  lastPollAt: number;
  firstPollAt: number;
  /** Publication times the scheduler estimates the feed's posting rate from. */
  published: number[];
  summary: FeedPollSummary | null;
}

/** A feed's row in the section. */
export interface FeedRow {
  url: string;
  /** ISO 8601; null: not polled yet. */
  lastPollAt: string | null;
  /**
   * ISO 8601: when the scheduler plans to poll the feed next (the start of that period; the poll
   * waits its host's turn), from what the polls taught it and with no new article assumed
   * meanwhile. Null while the crawl is not running, or when not planned within PLANNED_PERIODS.
   */
  nextPollAt: string | null;
  /** How the last poll ended; null when not polled yet or not known. */
  outcome: FeedPollOutcome | null;
  status: number | null;
  /** What went wrong with the last poll, for people; null when nothing did (or nothing is known). */
  problem: string | null;
  /** Items the last poll listed, and of them the new ones; null when not known. */
  listed: number | null;
  lastNew: number | null;
  /** New articles over every recorded poll. */
  articlesNew: number | null;
  polls: number | null;
  failedPolls: number | null;
  /** New articles of the last polls, oldest first. */
  recentNew: number[];
}

/**
 * One row a feed of `feeds` (the ICD's, or a page of them), in their order: its last poll and what it found; a note when it
 * failed or robots.txt refused it. A feed whose poll left no record of its own (the worker stopped
 * between storing the feed's state and its poll's summary) shows its last poll's time only.
 */
export function feedRows(feeds: readonly string[], stored: readonly FeedStateInput[], nextPolls: ReadonlyMap<string, number> | null = null): FeedRow[] {
  const byUrl = new Map(stored.map((s) => [s.url, s]));
  return feeds.map((url): FeedRow => {
    const state = byUrl.get(url);
    const next = nextPolls?.get(url);
    const none: FeedRow = { url, lastPollAt: null, nextPollAt: next === undefined ? null : iso(next), outcome: null, status: null, problem: null, listed: null, lastNew: null, articlesNew: null, polls: null, failedPolls: null, recentNew: [] };
    if (!state) return none;
    const s = state.summary;
    if (s) {
      return {
        ...none,
        lastPollAt: iso(s.last.at),
        outcome: s.last.outcome,
        status: s.last.status,
        problem: problemOf(s.last.outcome, s.last.status, s.last.detail),
        listed: s.last.listed,
        lastNew: s.last.fresh,
        articlesNew: s.articlesNew,
        polls: s.polls,
        failedPolls: s.failedPolls,
        recentNew: s.recentNew,
      };
    }
    return { ...none, lastPollAt: iso(state.lastPollAt) };
  });
}

/**
 * Whether the crawl's feeds are being polled: while it runs. A pause or stop asked ends the polls
 * (one waiting for its host gives up); a resumed crawl polls at once.
 */
export function feedsPolled(crawlStatus: string): boolean {
  return crawlStatus === 'running';
}

/** Feed rows a page of the section lists at most. */
export const FEEDS_PER_PAGE = 50;

/**
 * What a feed's last poll makes it, for the summary and the filters: `ok`, `failing` (it answered
 * an error or none), `refused` (robots.txt refused it), `excluded` (an exclude pattern matches it),
 * `not-polled` (no poll yet), `not-known` (polled before poll summaries were kept).
 */
export type FeedClass = 'ok' | 'failing' | 'refused' | 'excluded' | 'not-polled' | 'not-known';

/** Which feeds a page lists: every one, or those of some classes (`problems`: failing, refused or excluded). */
export const FEED_FILTERS = ['all', 'problems', 'failing', 'refused', 'excluded', 'not-polled', 'ok'] as const;
export type FeedFilter = (typeof FEED_FILTERS)[number];

/** The classes a filter selects; null: every feed. */
export function feedClassesOf(filter: FeedFilter): readonly FeedClass[] | null {
  if (filter === 'all') return null;
  if (filter === 'problems') return ['failing', 'refused', 'excluded'];
  return [filter];
}

/** The ICD's feeds counted by class (they add up to the feed count), and their new articles over every poll. */
export type FeedSummary = Record<FeedClass, number> & { articlesNew: number };

/** How many feeds `filter` selects, from the summary. */
export function feedsSelected(summary: FeedSummary, filter: FeedFilter): number {
  const classes = feedClassesOf(filter) ?? (['ok', 'failing', 'refused', 'excluded', 'not-polled', 'not-known'] as const);
  return classes.reduce((n, c) => n + summary[c], 0);
}

/** One page of the feeds a filter selects: the page's feeds in the ICD's order and their stored states. */
export interface FeedPageInput {
  filter: FeedFilter;
  page: number;
  pageSize: number;
  feeds: readonly string[];
  stored: readonly FeedStateInput[];
}

/**
 * When each feed is next polled, as the crawl's own scheduler plans it from the stored polls of
 * every feed (../feeds/poll-plan.ts): the plan of one feed depends on all of them.
 */
export function nextPolls(settings: IncrementalSettings, stored: readonly FeedStateInput[], now: number): Map<string, number> {
  const memories = new Map(stored.map((s): [string, FeedMemory] => [s.url, { lastPollAt: s.lastPollAt, firstPollAt: s.firstPollAt, seen: [], published: s.published }]));
  // A feed last found excluded is not polled while the pattern stays, as the crawl's scheduler skips it.
  const excluded = new Set(stored.filter((s) => s.summary?.last.outcome === 'excluded').map((s) => s.url));
  return plannedPolls(settings.feeds, memories, settings.minFeedPollMinutes, now, excluded);
}

/**
 * The feeds part of the section: the summary of every feed of the ICD, and the rows of one page of
 * those the filter selects (feedRows), each, while the crawl runs, with its next poll from `next`
 * (nextPolls; null while the crawl does not run).
 */
export function feedSection(settings: IncrementalSettings, summary: FeedSummary, page: FeedPageInput, next: ReadonlyMap<string, number> | null): FeedSection {
  return {
    minPollMinutes: settings.minFeedPollMinutes,
    polling: next !== null,
    feedCount: settings.feeds.length,
    summary,
    filter: page.filter,
    total: feedsSelected(summary, page.filter),
    page: page.page,
    pageSize: page.pageSize,
    rows: feedRows(page.feeds, page.stored, next),
  };
}

/** The note a poll's outcome gives; null for a successful poll. */
export function problemOf(outcome: FeedPollOutcome, status: number | null, detail: string | null): string | null {
  switch (outcome) {
    case 'ok':
      return null;
    case 'robots':
      return `Not polled: ${detail ?? 'robots.txt refuses it'}`;
    case 'excluded':
      return `Not polled, excluded: ${detail ?? 'an exclude pattern of the crawl matches it'}`;
    case 'http-error':
      return `Last poll failed: the feed answered ${status ?? 'an error'}`;
    case 'failed':
      return `Last poll failed${detail ? `: ${detail}` : ''}`;
  }
}

/**
 * A finished round's report, its end as ISO 8601; `failures`: the times it failed before it
 * finished (0 for most), and `lastFailure` the last of them.
 */
export type RoundRow = Omit<RoundRecord, 'finishedAt'> & { finishedAt: string; failures: number; lastFailure: { at: string; message: string } | null };

/**
 * The round under way, which failed and has not finished since: how often and since when, the last
 * failure (when, its message, the page the round was refetching then: null between pages), and
 * `retryAt`, the time it runs again from (null: as soon as the crawl runs again, for a failure that
 * paused it). When it does run again is the section's `nextRound`.
 */
export interface PendingFailure {
  round: number;
  failures: number;
  firstFailedAt: string;
  failedAt: string;
  message: string;
  url: string | null;
  retryAt: string | null;
}

/**
 * When the next round comes: `initial-crawl` (the first round is one interval after the initial
 * crawl's frontier is first empty, not known yet), `scheduled` (at `at`), `due` (its time has
 * passed: it starts once no page of the crawl waits to be fetched), `not-running` (the crawl is
 * not running: at `at` or when it runs again, whichever is later).
 */
export type NextRoundState = 'initial-crawl' | 'scheduled' | 'due' | 'not-running';

export interface RecrawlSection {
  intervalMinutes: number;
  /** The last finished round: 0 is the initial crawl; null before it ended. */
  lastRound: number | null;
  lastFinishedAt: string | null;
  /** With a failure pending, the retry of the round that failed. */
  nextRound: { state: NextRoundState; at: string | null };
  /** The round under way failed and has not finished since; null when it did not. */
  failure: PendingFailure | null;
  /** The last rounds, newest first. */
  rounds: RoundRow[];
}

/** Statuses in which the worker runs the crawl (a pause or stop asked still lets it finish what it does). */
const ACTIVE = new Set(['running', 'pausing', 'stopping']);

/**
 * The recrawl part of the section, `now` and the stored times in wall-clock ms. `failures`: the
 * stored failures of rounds (recrawl-history.ts), of the round under way and of finished ones.
 * `minuteMs`: the engine's minute (CrawlEngine's option; tests shorten it).
 */
export function recrawlSection(
  intervalMinutes: number,
  last: { round: number; finishedAt: number } | null,
  rounds: readonly RoundRecord[],
  crawlStatus: string,
  now: number,
  failures: readonly RoundFailure[] = [],
  minuteMs = 60_000,
): RecrawlSection {
  const running = ACTIVE.has(crawlStatus);
  const lastRound = last?.round ?? null;
  // A round is under way from the end of the last (round 0: the initial crawl); one after it that failed has not finished.
  const pending = lastRound === null ? null : (failures.filter((f) => f.round > lastRound).sort((a, b) => b.round - a.round)[0] ?? null);
  // A last end in the future (a clock set back) counts from now, as the engine takes it.
  const intervalAt = last ? Math.min(last.finishedAt, now) + intervalMinutes * minuteMs : null;
  // After a failure the round runs again once its retry time has come too (IncrementalDriver.retryAt);
  // a retry time in the future by more than the engine's minute (a clock set back) counts from now.
  const retryAt = pending?.retryAt == null ? null : Math.min(pending.retryAt, now + minuteMs);
  const nextAt = intervalAt === null ? null : Math.max(intervalAt, retryAt ?? intervalAt);
  const state: NextRoundState = !running ? 'not-running' : nextAt === null ? 'initial-crawl' : nextAt <= now ? 'due' : 'scheduled';
  const byRound = new Map(failures.map((f) => [f.round, f]));
  return {
    intervalMinutes,
    lastRound,
    lastFinishedAt: last ? iso(last.finishedAt) : null,
    nextRound: { state, at: nextAt === null ? null : iso(nextAt) },
    failure: pending && {
      round: pending.round,
      failures: pending.failures,
      firstFailedAt: iso(pending.firstFailedAt),
      failedAt: iso(pending.failedAt),
      message: pending.message,
      url: pending.url,
      retryAt: pending.retryAt === null ? null : iso(pending.retryAt),
    },
    rounds: [...rounds]
      .sort((a, b) => b.round - a.round)
      .map((r) => {
        const f = byRound.get(r.round);
        return { ...r, finishedAt: iso(r.finishedAt), failures: f?.failures ?? 0, lastFailure: f ? { at: iso(f.failedAt), message: f.message } : null };
      }),
  };
}

/** The feeds part of the section: every feed counted, one page of them listed. */
export interface FeedSection {
  minPollMinutes: number;
  /** The crawl runs, so its feeds are polled (feedsPolled) and their next polls planned. */
  polling: boolean;
  /** The feeds of the ICD. */
  feedCount: number;
  summary: FeedSummary;
  filter: FeedFilter;
  /** The feeds the filter selects, of which `rows` are page `page` (`pageSize` a page) in the ICD's order. */
  total: number;
  page: number;
  pageSize: number;
  rows: FeedRow[];
}

/** What GET /api/crawls/:id/incremental answers. */
export interface IncrementalView {
  /** Null when the ICD names no feed. */
  feeds: FeedSection | null;
  /** Null when the ICD asks for no recrawls. */
  recrawl: RecrawlSection | null;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
