/**
 * The crawl page's throughput charts over the whole crawl, rebuilt from its captures: the live
 * samples the socket sends are gone once the page is closed, so a finished crawl (or a page
 * reopened mid-crawl) would show empty charts. Pure helpers of the throughput route.
 */

/** One point of the charts (the same shape as a live sample). */
export interface ThroughputPoint {
  /** End of the interval (epoch ms). */
  at: number;
  /** Captures per second within the interval. */
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

/**
 * Points from per-interval counts: one at `startMs` (nothing captured yet), then one at the end of
 * every interval up to the last with captures, empty intervals included (a pause shows as zero).
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
  for (let b = 0; b <= last; b++) {
    let inBucket = 0;
    for (const c of perBucket.get(b) ?? []) {
      inBucket += c.n;
      if (c.cls !== null) classes[`${c.cls}xx`] = (classes[`${c.cls}xx`] ?? 0) + c.n;
    }
    fetched += inBucket;
    points.push({ at: startMs + (b + 1) * widthMs, pagesPerSecond: Number((inBucket / (widthMs / 1000)).toFixed(1)), fetched, statusClasses: { ...classes } });
  }
  return points;
}
