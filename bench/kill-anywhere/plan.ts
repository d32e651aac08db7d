// When the crash explorer kills the CLI, and what it makes of where a kill landed: pure, so the plan
// can be checked without starting a crawl.

/** What an uninterrupted run of the crawl took (from a calibration run of the same site). */
export interface RunTimings {
  /** From spawning the CLI to its first request: start-up, migrations, recovery. */
  startupMs: number;
  /** From the first request to the process's end: the crawl and its closing (the WARC file closed, the index sorted, the crawl log written). */
  crawlMs: number;
}

/** When a kill comes: `delayMs` after spawning the CLI, or after the site saw the run's first request. */
export interface PlannedKill {
  from: 'spawn' | 'first-request';
  delayMs: number;
}

/**
 * The next kill. Half of them aim at start-up (bundle load, migrations, the cut of a torn WARC tail,
 * the recovery of open files): log-uniform from 1 ms to the start-up's length after spawning, so
 * that every scale of ms gets its share. The other half aim at the crawl: uniform from 0 to the
 * crawl time of a share of what is left (`remainingShare` of the site, 0–1) after the run's first
 * request, 2 / `killsLeft` of it (all of it for the last two kills), so that each kill takes its
 * part of the rest and the kills land all along the crawl, from its first page to its last,
 * however many there are. Timed from the first request, not from spawning: a start-up that takes
 * longer on a loaded machine would otherwise swallow them. `rand` gives floats in [0, 1).
 */
export function planKill(rand: () => number, timings: RunTimings, remainingShare: number, killsLeft: number): PlannedKill {
  const atStartUp = rand() < 0.5;
  const u = rand();
  if (atStartUp) return { from: 'spawn', delayMs: Math.max(1, Math.round(Math.exp(u * Math.log(Math.max(1, timings.startupMs))))) };
  const share = Math.min(1, Math.max(0, remainingShare)) * Math.min(1, 2 / Math.max(1, killsLeft));
  return { from: 'first-request', delayMs: Math.round(u * timings.crawlMs * share) };
}

/** Where a kill landed, as told afterwards by the site's requests and the captures the database acknowledged. */
export type Landing =
  /** Killed before the run's first request: start-up, migrations, recovery. */
  | 'start-up'
  /** Killed after the run's first request, with pages left to crawl. */
  | 'mid-crawl'
  /** Killed with every page of the site acknowledged: the closing phase, or the start-up of a finished crawl. */
  | 'complete'
  /** The run ended before the kill came. */
  | 'not-killed';

/** Classifies a run aimed at by a kill: whether it was killed, whether the site saw a request of it, the pages acknowledged after it of `expected`. */
export function landingOf(o: { killed: boolean; requested: boolean; capturedAfter: number; expected: number }): Landing {
  if (!o.killed) return 'not-killed';
  if (o.capturedAfter >= o.expected) return 'complete';
  return o.requested ? 'mid-crawl' : 'start-up';
}
