/**
 * What the cockpit shows of a feed's polls: how the last one ended, how many articles it found,
 * and totals over the crawl. Pure: the feed monitor gives each poll, the store keeps the summary.
 */

/**
 * How a poll ended. `ok`: the feed answered 2xx; `http-error`: it answered 4xx or 5xx;
 * `robots`: robots.txt refused it (or could not be read), nothing was requested; `failed`: no
 * answer (DNS, connection, timeout), redirects that led to no feed, or a 2xx body not read whole
 * (cut short, its content coding damaged, a decompression bomb); `excluded`: an exclude
 * pattern of the crawl matches the feed (or the address it moved to), nothing was requested and it
 * is not polled while the pattern stays.
 */
export type FeedPollOutcome = 'ok' | 'http-error' | 'robots' | 'failed' | 'excluded';

/** One poll of a feed. Times are wall-clock ms. */
export interface FeedPoll {
  at: number;
  outcome: FeedPollOutcome;
  /** The last answer's HTTP status (after redirects), when an answer came. */
  status: number | null;
  /** Why the poll failed or was refused, in words; null when it did not. */
  detail: string | null;
  /** Items the feed listed. */
  listed: number;
  /** Of them, articles not seen before (queued). */
  fresh: number;
  /** Outcome `excluded` for the address the feed redirected to: that address (the monitor skips the feed while a pattern matches it). */
  movedTo?: string;
}

/** A feed's polls over the crawl: the last one, the totals and the last few polls' new articles. */
export interface FeedPollSummary {
  polls: number;
  failedPolls: number;
  /** New articles found over every poll. */
  articlesNew: number;
  last: FeedPoll;
  /** New articles of the last polls, oldest first (at most RECENT_POLLS). */
  recentNew: number[];
}

/** Polls whose new-article counts a summary keeps. */
export const RECENT_POLLS = 10;

/**
 * The summary once `poll` is added to `previous` (null: the feed's first poll). A feed found
 * excluded was not requested: it is its last outcome, but no poll.
 */
export function addPoll(previous: FeedPollSummary | null, poll: FeedPoll): FeedPollSummary {
  const polled = poll.outcome === 'excluded' ? 0 : 1;
  return {
    polls: (previous?.polls ?? 0) + polled,
    failedPolls: (previous?.failedPolls ?? 0) + (poll.outcome === 'ok' ? 0 : polled),
    articlesNew: (previous?.articlesNew ?? 0) + poll.fresh,
    last: poll,
    recentNew: [...(previous?.recentNew ?? []), poll.fresh].slice(-RECENT_POLLS),
  };
}
