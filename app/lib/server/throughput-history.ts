/**
 * The crawl page's throughput charts over the whole crawl, rebuilt from its captures: the live
 * samples the socket sends are gone once the page is closed, so a finished crawl (or a page
 * reopened mid-crawl) would show empty charts. Pure helpers of the throughput route.
 */

import { RATE_WINDOW_MS } from '../../../worker/events/messages';

/** One point of the charts (the same shape as a live sample). */
export interface ThroughputPoint {
  /** End of the interval (epoch ms). */
  at: number;
  /** Captures per second over the RATE_WINDOW_MS before `at` (as the live samples count them), or over the interval when it is longer. */
  pagesPerSecond: number;
  /** Captures up to `at`. */
  fetched: number;
  /** Captures up to `at` per HTTP status class ('2xx', …). */
  statusClasses: Record<string, number>;
}

/** Captures of one interval and one status class, as the route's GROUP BY returns them. */
export interface BucketCount {
  bucket: number;
  /** Status / 100 (2 for 2xx); null for a capture without a status. */
  cls: number | null;
  n: number;
}

/** Most points drawn: the live chart keeps 600, and a history of 300 leaves room for them. */
export const MAX_POINTS = 300;
const MIN_WIDTH_MS = 1000;

/** Interval width for a crawl whose captures span `spanMs`: whole seconds, at most MAX_POINTS intervals. */
export function bucketWidthMs(spanMs: number): number {
  const width = Math.ceil(Math.max(0, spanMs) / MAX_POINTS / MIN_WIDTH_MS) * MIN_WIDTH_MS;
  return Math.max(MIN_WIDTH_MS, width);
}

/** The time a point's rate averages over: the live samples' window, or the interval when longer. */
export function rateWindowMs(widthMs: number): number {
  return Math.max(widthMs, RATE_WINDOW_MS);
}

/**
 * Points from per-interval counts: one at `startMs` (nothing captured yet), then one at the end of
 * every interval up to the last with captures, empty intervals included (a pause shows as zero).
 * A point's rate is over the intervals of its rate window (rateWindowMs), as the live samples that
 * follow it on the chart are: per interval alone, the chart redrawn after a reload was far more
 * jagged than the one drawn live.
 */
export function throughputPoints(counts: BucketCount[], startMs: number, widthMs: number): ThroughputPoint[] {
  if (!counts.length) return [];
  const last = Math.max(...counts.map((c) => c.bucket));
  const perBucket = new Map<number, BucketCount[]>();
  for (const c of counts) {
    if (c.bucket < 0) continue;
    const list = perBucket.get(c.bucket) ?? [];
    list.push(c);
    perBucket.set(c.bucket, list);
  }
  const classes: Record<string, number> = { '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 };
  let fetched = 0;
  const points: ThroughputPoint[] = [{ at: startMs, pagesPerSecond: 0, fetched: 0, statusClasses: { ...classes } }];
  const windowBuckets = Math.round(rateWindowMs(widthMs) / widthMs);
  // fetched after each interval: the window's captures are the difference of two of them.
  const fetchedAfter: number[] = [];
  for (let b = 0; b <= last; b++) {
    let inBucket = 0;
    for (const c of perBucket.get(b) ?? []) {
      inBucket += c.n;
      if (c.cls !== null) classes[`${c.cls}xx`] = (classes[`${c.cls}xx`] ?? 0) + c.n;
    }
    fetched += inBucket;
    fetchedAfter.push(fetched);
    const inWindow = fetched - (fetchedAfter[b - windowBuckets] ?? 0);
    points.push({ at: startMs + (b + 1) * widthMs, pagesPerSecond: Number((inWindow / ((windowBuckets * widthMs) / 1000)).toFixed(1)), fetched, statusClasses: { ...classes } });
  }
  return points;
}
