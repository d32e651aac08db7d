/**
 * advaRSS's posting-rate model: a feed's expected number of new articles per hour of the day,
 * estimated from the publication times seen in its items, and the expected number of articles
 * published between two instants (the integral of the hourly rate).
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;

/** Articles per hour for each hour of the day (UTC), 24 values. */
export type HourlyRates = number[];

/**
 * The hour of the day (UTC) of a time in ms, as `new Date(t).getUTCHours()` gives it for the
 * times a feed has (from 1970 on), without making a Date a time: the cockpit's plan of the next
 * polls (poll-plan.ts) re-estimates every feed's rates period after period, and for 1,000 feeds
 * it took about twice as long with a Date a publication time.
 */
export const utcHour = (t: number): number => ((Math.floor(t / HOUR_MS) % 24) + 24) % 24;

/**
 * Estimates hourly rates from publication times observed over `windowDays`. Each hour's count is
 * shrunk towards the feed's mean hourly rate, and that mean towards `priorRatePerHour` (weight
 * `priorDays` each), so a feed seen silent for a while keeps a small positive rate: its expected
 * backlog still grows with time and it is polled again eventually rather than starved.
 */
export function estimateHourlyRates(publishedAt: readonly number[], windowDays: number, priorDays = 1, priorRatePerHour = 0.05): HourlyRates {
  return ratesFromHourCounts(hourCounts(publishedAt), publishedAt.length, windowDays, priorDays, priorRatePerHour);
}

/** How many of `publishedAt` fall in each hour of the day (UTC), 24 values. */
export function hourCounts(publishedAt: readonly number[]): number[] {
  const counts = new Array<number>(24).fill(0);
  for (const t of publishedAt) counts[utcHour(t)]!++;
  return counts;
}

/**
 * estimateHourlyRates from the hour counts of `articles` publication times (hourCounts), so a
 * caller re-estimating over the same times with another window need not count them again.
 */
export function ratesFromHourCounts(counts: readonly number[], articles: number, windowDays: number, priorDays = 1, priorRatePerHour = 0.05): HourlyRates {
  const days = Math.max(windowDays, 0);
  const mean = (articles + priorDays * 24 * priorRatePerHour) / ((days + priorDays) * 24);
  return counts.map((c) => (c + priorDays * mean) / (days + priorDays));
}

/** Expected articles published in [from, to) under hourly rates (piecewise-constant integral). */
export function expectedArticles(rates: HourlyRates, from: number, to: number): number {
  if (!(to > from)) return 0;
  let total = 0;
  // Whole days contribute the daily sum; the rest is walked hour by hour.
  const wholeDays = Math.floor((to - from) / DAY_MS);
  if (wholeDays > 0) total += wholeDays * rates.reduce((a, b) => a + b, 0);
  let t = from + wholeDays * DAY_MS;
  while (t < to) {
    const hourEnd = Math.min(to, Math.floor(t / HOUR_MS) * HOUR_MS + HOUR_MS);
    total += rates[utcHour(t)]! * ((hourEnd - t) / HOUR_MS);
    t = hourEnd;
  }
  return total;
}

/**
 * Expected total waiting time (article·hours) of the articles published in [from, to) if fetched
 * at `to`: ∫ λ(s)·(to − s) ds. The minimum-delay policy ranks by it.
 */
export function expectedWaitingHours(rates: HourlyRates, from: number, to: number): number {
  if (!(to > from)) return 0;
  let total = 0;
  let t = from;
  while (t < to) {
    const hourEnd = Math.min(to, Math.floor(t / HOUR_MS) * HOUR_MS + HOUR_MS);
    const lenH = (hourEnd - t) / HOUR_MS;
    const midAgeH = (to - (t + hourEnd) / 2) / HOUR_MS;
    total += rates[utcHour(t)]! * lenH * midAgeH;
    t = hourEnd;
  }
  return total;
}
