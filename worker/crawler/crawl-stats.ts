import { RATE_WINDOW_MS, type CrawlStats } from '../events/messages';
import type { FrontierCounters } from '../frontier';
import type { HttpExchange } from '../capture';
import { ROUND_OUTCOMES } from './recrawl-history';
import { HOST_OUTAGE_OUTCOME } from './host-outages';

/**
 * Crawl-log outcomes of URLs excluded, never requested: robots.txt refused them (or could not be
 * read), or an exclude pattern of the crawl matched a page before its revisit or recrawl. The
 * counters and the hosts report count them as exclusions, neither fetches nor failures.
 */
export const EXCLUSION_OUTCOMES = ['robots', 'robots-unavailable', 'exclude-match'] as const;

/**
 * The crawl-log outcome of an archived exchange, the same for a page, a revisit and a recrawl: the
 * fetch's failure (counted among the failures), else `truncated-<WARC-Truncated>` for a body cut
 * short but kept (`truncated-length`: over the size cap; not a failure, and restoreStats leaves
 * them out too), else `ok`.
 */
export function archivedOutcome(failure: string | null | undefined, truncated: HttpExchange['truncated']): string {
  return failure ?? (truncated ? `truncated-${truncated}` : 'ok');
}

/**
 * Crawl-log outcomes of entries about no URL's fetch: a recrawl round's (its failure, its recovery,
 * a host's round back-off) and a host's back-off in the crawl (host-outages.ts). No failure counter
 * nor host counts them.
 */
export const NOT_A_FETCH_OUTCOMES = [...ROUND_OUTCOMES, HOST_OUTAGE_OUTCOME] as const;

/** Live counters of one crawl; pages/s over a sliding window. */
export class CrawlStatsTracker {
  fetched = 0;
  failed = 0;
  excluded = 0;
  bytes = 0;
  failedByReason: Record<string, number> = {};
  excludedByReason: Record<string, number> = {};
  statusClasses: Record<string, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  private recent: number[] = [];

  constructor(private readonly now: () => number = Date.now) {}

  recordFetch(status: number, bytes: number): void {
    this.fetched += 1;
    this.bytes += bytes;
    const cls = `${Math.floor(status / 100)}xx`;
    this.statusClasses[cls] = (this.statusClasses[cls] ?? 0) + 1;
    this.recent.push(this.now());
    // Nobody may ask for the rate for a long time (the CLI asks at the end): keep the window only.
    if (this.recent.length > 10_000) this.dropBefore(this.now() - RATE_WINDOW_MS);
  }

  recordFailure(reason: string): void {
    this.recordFailures(reason, 1);
  }

  /**
   * `n` URLs failed at once for `reason` (a host given up: one crawl-log entry for them all); a
   * negative `n` takes back failures whose URLs were queued again (a host's back-off).
   */
  recordFailures(reason: string, n: number): void {
    if (n === 0) return;
    this.failed += n;
    const left = (this.failedByReason[reason] ?? 0) + n;
    if (left > 0) this.failedByReason[reason] = left;
    else delete this.failedByReason[reason];
  }

  /** Exclusions found after leasing (robots.txt); the frontier counts the others. */
  recordExclusion(reason: string): void {
    this.excluded += 1;
    this.excludedByReason[reason] = (this.excludedByReason[reason] ?? 0) + 1;
  }

  pagesPerSecond(): number {
    this.dropBefore(this.now() - RATE_WINDOW_MS);
    return this.recent.length / (RATE_WINDOW_MS / 1000);
  }

  /** Exclusions decided before fetching (scope, traps, budgets) come from the frontier's counters. */
  snapshot(frontier: { queued: number; inFlight: number; excluded: number; excludedByReason: Record<string, number> }): CrawlStats {
    const excludedByReason = { ...frontier.excludedByReason };
    for (const [reason, n] of Object.entries(this.excludedByReason)) excludedByReason[reason] = (excludedByReason[reason] ?? 0) + n;
    return {
      fetched: this.fetched,
      queued: frontier.queued,
      inFlight: frontier.inFlight,
      failed: this.failed,
      failedByReason: { ...this.failedByReason },
      excluded: frontier.excluded + this.excluded,
      excludedByReason,
      bytes: this.bytes,
      pagesPerSecond: Number(this.pagesPerSecond().toFixed(1)),
      statusClasses: { ...this.statusClasses },
      updatedAt: new Date(this.now()).toISOString(),
    };
  }

  private dropBefore(cutoff: number): void {
    let i = 0;
    while (i < this.recent.length && this.recent[i]! < cutoff) i++;
    if (i > 0) this.recent.splice(0, i);
  }
}

/** The frontier's counters a change to them is told by. */
export type CountersOfChange = Pick<FrontierCounters, 'queued' | 'retrying' | 'excluded' | 'excludedByReason'>;

/**
 * A crawl's stored counters (Crawl.stats) with a change the frontier made since `before` added:
 * URLs queued, and excluded by reason. For the worker settling the URLs posted to a crawl that has
 * ended, through a frontier opened for it (crawl-end.ts): its engine's last counters are stored
 * already. Pure.
 */
export function withFrontierChange(stats: Partial<CrawlStats>, before: CountersOfChange, after: CountersOfChange): Partial<CrawlStats> {
  const excludedByReason = { ...stats.excludedByReason };
  for (const reason of new Set([...Object.keys(before.excludedByReason), ...Object.keys(after.excludedByReason)])) {
    const added = (after.excludedByReason[reason] ?? 0) - (before.excludedByReason[reason] ?? 0);
    if (added !== 0) excludedByReason[reason] = (excludedByReason[reason] ?? 0) + added;
  }
  const queued = (c: CountersOfChange) => c.queued + c.retrying;
  return {
    ...stats,
    queued: (stats.queued ?? 0) + queued(after) - queued(before),
    excluded: (stats.excluded ?? 0) + after.excluded - before.excluded,
    excludedByReason,
  };
}
