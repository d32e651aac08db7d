/**
 * The wait before the next try after `failuresInARow` failures: `baseMs`, doubling with each
 * failure in a row, capped at `capMs`. By default a crashed worker's restart delay (1 s, 2 s, 4 s …
 * capped at 30 s; the supervisor resets the count once the worker stayed up long enough to count as
 * healthy); also the retry of a deleted crawl's files that could not be removed (CrawlDeletions).
 */
export function doublingDelayMs(failuresInARow: number, baseMs = 1000, capMs = 30_000): number {
  return Math.min(capMs, baseMs * 2 ** Math.max(0, failuresInARow - 1));
}

export const HEALTHY_UPTIME_MS = 60_000;
