/**
 * The politeness delay as pure functions over plain data (Crawlee-style): the registry and the
 * frontier only wire these up, so the formula is unit-tested without clocks or sockets.
 */

/** What the politeness clock remembers of the last request to one politeness key. */
export interface KeyTiming {
  /** When the last request started (ms since the epoch, or simulated ms). */
  lastStartAt: number;
  /** How long it took until the response was complete (ms). */
  lastDurationMs: number;
}

/** The delay settings of a crawl (the ICD's `politeness` block has exactly these fields). */
export interface DelayConfig {
  minDelayMs: number;
  maxDelayMs: number;
  /** The next request waits delayFactor × the last response time (Heritrix's delay-factor). */
  delayFactor: number;
}

/**
 * The wait after a request ends: the largest of the minimum delay, the robots.txt crawl-delay and
 * delayFactor × the response time, capped at maxDelay. The cap applies to robots delays too, so
 * a site asking for an hour between requests cannot stall a crawl (Heritrix caps it the same way).
 */
export function politenessDelayMs(lastDurationMs: number, cfg: DelayConfig, robotsDelayMs?: number | null): number {
  const wanted = Math.max(cfg.minDelayMs, robotsDelayMs ?? 0, cfg.delayFactor * Math.max(0, lastDurationMs));
  return Math.min(wanted, cfg.maxDelayMs);
}

/**
 * When the next request under this key may start: end of the last request plus the delay.
 * A key never used (`state` null) is allowed at once (returns -Infinity).
 */
export function nextAllowedAt(state: KeyTiming | null | undefined, cfg: DelayConfig, robotsDelayMs?: number | null): number {
  if (!state) return Number.NEGATIVE_INFINITY;
  const lastEnd = state.lastStartAt + Math.max(0, state.lastDurationMs);
  return lastEnd + politenessDelayMs(state.lastDurationMs, cfg, robotsDelayMs);
}

/**
 * How far after now a key's last request may end before that end is taken for a wall clock set
 * back. Ends a little after now are ordinary: a request's timing starts at its last attempt's date
 * and lasts all its attempts, and a simulation reports a request before moving its clock on.
 */
export const CLOCK_SET_BACK_MS = 60_000;

/**
 * The timing as the clock reads it at `now`. A request that would end more than CLOCK_SET_BACK_MS
 * after now was timed before the wall clock was set back (NTP correcting a fast clock, `date -s`),
 * and its key would wait out the whole step, an hour for an hour, before its delay: it is taken as
 * having ended now, its duration kept. Other timings are returned as they are.
 */
export function timingAsOf(state: KeyTiming, now: number): KeyTiming {
  const duration = Math.max(0, state.lastDurationMs);
  return state.lastStartAt + duration - now > CLOCK_SET_BACK_MS ? { lastStartAt: now - duration, lastDurationMs: duration } : state;
}

/**
 * nextAllowedAt of a request's timing as the clock reads it at `now` (timingAsOf): a wait after a
 * request that holds no place in the registry (robots.txt's, before the page's) does not last a
 * wall-clock step.
 */
export function nextAllowedAsOf(state: KeyTiming, cfg: DelayConfig, robotsDelayMs: number | null | undefined, now: number): number {
  return nextAllowedAt(timingAsOf(state, now), cfg, robotsDelayMs);
}

/**
 * The end of a wait of at most `waitMs` (its own length, or the longest the code asks for), read at
 * `now`. An end further ahead than the wait itself, by more than CLOCK_SET_BACK_MS, was set before
 * the wall clock was set back, and would hold what waits for it as long as the step (an hour for an
 * hour): it is read as now, the wait over. Others are returned as they are, so a clock set forward
 * ends a wait early by at most the wait.
 */
export function waitEndAsOf(endAt: number, waitMs: number, now: number): number {
  return endAt - now > waitMs + CLOCK_SET_BACK_MS ? now : endAt;
}

const MAX_CRAWL_DELAY_S = 86_400;

/** Robots.txt `Crawl-delay` is in seconds and may be fractional or garbage; returns ms or null. */
export function robotsCrawlDelayMs(crawlDelaySeconds: number | string | null | undefined): number | null {
  if (crawlDelaySeconds === null || crawlDelaySeconds === undefined || crawlDelaySeconds === '') return null;
  const seconds = typeof crawlDelaySeconds === 'number' ? crawlDelaySeconds : Number(crawlDelaySeconds);
  if (Number.isNaN(seconds) || seconds < 0) return null;
  // Past a day is a day (maxDelay caps it far below): `Crawl-delay: 1e309` is Infinity, and was
  // read as no delay at all, where 3600 asks for the most.
  return Math.round(Math.min(seconds, MAX_CRAWL_DELAY_S) * 1000);
}
