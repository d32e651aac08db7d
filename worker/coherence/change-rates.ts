/**
 * Change rates of pages, in changes per day, from three sources (SHARC): what a sitemap says,
 * what repeated visits observed (Poisson maximum likelihood), and — for pages without history —
 * a prediction from URL features (url-rate-classifier.ts).
 */

import { parseDateAsUtc } from '../extract/utc-date';

const DAY_MS = 86_400_000;

/** Changes per day a sitemap `changefreq` stands for ('always' is taken as once a minute). */
export const CHANGEFREQ_PER_DAY: Record<string, number> = {
  always: 1440,
  hourly: 24,
  daily: 1,
  weekly: 1 / 7,
  monthly: 1 / 30,
  yearly: 1 / 365,
  never: 0,
};

/**
 * Rate from a sitemap entry: its changefreq when given; else from lastmod, one change per age of
 * the last modification (the maximum-likelihood rate after one "no change for that long" interval
 * that ended in a change); null when the entry says nothing usable.
 */
export function sitemapChangeRate(entry: { changefreq?: string; lastmod?: string }, now: number): number | null {
  const freq = entry.changefreq?.trim().toLowerCase();
  if (freq && freq in CHANGEFREQ_PER_DAY) return CHANGEFREQ_PER_DAY[freq]!;
  if (entry.lastmod) {
    const t = parseDateAsUtc(entry.lastmod);
    if (Number.isFinite(t) && t <= now) return 1 / Math.max((now - t) / DAY_MS, 1 / 1440);
  }
  return null;
}

/** One interval between two successive visits of a page and whether a change was detected. */
export interface VisitInterval {
  days: number;
  changed: boolean;
}

/**
 * Maximum-likelihood change rate of a Poisson process observed at irregular intervals, where a
 * visit only tells whether at least one change happened (Cho & Garcia-Molina). The likelihood
 * equation Σ_changed t·e^(−λt)/(1−e^(−λt)) = Σ_unchanged t has a unique root, found by bisection.
 * Two corrections keep it finite: with no unchanged interval, half an average interval is added
 * as unchanged (the bias-reduced estimator's +0.5); with no change the rate is 0.
 */
export function poissonRateMle(intervals: readonly VisitInterval[]): number {
  const usable = intervals.filter((i) => i.days > 0 && Number.isFinite(i.days));
  const changed = usable.filter((i) => i.changed).map((i) => i.days);
  if (changed.length === 0) return 0;
  let unchangedTotal = usable.filter((i) => !i.changed).reduce((s, i) => s + i.days, 0);
  if (unchangedTotal === 0) unchangedTotal = (0.5 * usable.reduce((s, i) => s + i.days, 0)) / usable.length;
  const score = (rate: number) => changed.reduce((s, t) => s + t / Math.expm1(rate * t), 0) - unchangedTotal;
  let lo = 1e-12;
  let hi = 1;
  while (score(hi) > 0 && hi < 1e12) hi *= 2;
  for (let k = 0; k < 200 && hi - lo > 1e-12 * hi; k++) {
    const mid = (lo + hi) / 2;
    if (score(mid) > 0) lo = mid;
    else hi = mid;
  }
  return (lo + hi) / 2;
}

/**
 * Bias-reduced estimator for n visits at a regular interval with x detected changes:
 * λ = −ln((n − x + 0.5)/(n + 0.5)) / interval. Closed form, used to check the MLE.
 */
export function poissonRateRegular(n: number, changes: number, intervalDays: number): number {
  return -Math.log((n - changes + 0.5) / (n + 0.5)) / intervalDays;
}

/** Probability that a page with this rate does not change during `days`. */
export function probabilityUnchanged(ratePerDay: number, days: number): number {
  return Math.exp(-ratePerDay * days);
}
