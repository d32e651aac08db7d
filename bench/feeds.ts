/**
 * Feed-polling simulation (`npm run bench:feeds`): feeds whose articles arrive as Poisson
 * processes with an hour-of-day pattern, polled for 30 simulated days under a budget of M polls per
 * T minutes by the real scheduler (worker/feeds) with each policy. Writes bench/results/feeds.json
 * with the time-averaged number of pending (published, not yet fetched) articles and the mean
 * delay between publication and fetch.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { FeedScheduler, type PollingPolicy } from '../worker/feeds';
import { exponential, normal, uniformStream } from './coherence/random';

const FEEDS = 100;
const DAYS = 30;
const T = 15;
const M = 12;
const WINDOW = 20; // items a feed lists; older ones fall out unseen
const MIN_POLL = 15;
const RUNS = 3;
const H = 3_600_000;
const START = Date.UTC(2026, 10, 1);

interface SimFeed {
  url: string;
  /** Publication times, ascending. */
  articles: number[];
}

/** Articles per feed: daily rate log-normal (median 10), hourly profile peaking at a random hour. */
function generateFeeds(seed: number): SimFeed[] {
  const u = uniformStream(seed);
  return Array.from({ length: FEEDS }, (_, f) => {
    const daily = 10 * Math.exp(1.1 * normal(u));
    const peak = Math.floor(u() * 24);
    const sharpness = 1 + 2 * u();
    const weights = Array.from({ length: 24 }, (_, h) => 0.1 + Math.exp(sharpness * Math.cos((2 * Math.PI * (h - peak)) / 24)));
    const sum = weights.reduce((a, b) => a + b, 0);
    const perHour = weights.map((w) => (daily * w) / sum);
    const articles: number[] = [];
    for (let hour = 0; hour < DAYS * 24; hour++) {
      const rate = perHour[hour % 24]!;
      for (let t = exponential(u, rate); t < 1; t += exponential(u, rate)) articles.push(START + (hour + t) * H);
    }
    return { url: `http://feeds.example/${f}.xml`, articles };
  });
}

function simulate(feeds: SimFeed[], policy: PollingPolicy, maxPollMinutes?: number) {
  const scheduler = new FeedScheduler({ policy, M, T, ToE: 60, minPollMinutes: MIN_POLL, maxPollMinutes, historyDays: 14 }, START);
  for (const f of feeds) scheduler.addFeed(f.url, 0, START);
  const byUrl = new Map(feeds.map((f) => [f.url, f]));
  const fetched = new Map(feeds.map((f) => [f.url, new Set<number>()]));
  let pendingSum = 0;
  let samples = 0;
  let delaySum = 0;
  let delayed = 0;
  let maxDelay = 0;
  let missed = 0;
  const published = (f: SimFeed, t: number) => {
    let lo = 0;
    let hi = f.articles.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (f.articles[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo; // number of articles published by t
  };
  const end = START + DAYS * 24 * H;
  for (let t = START; t < end; t += T * 60_000) {
    for (const url of scheduler.choose(t)) {
      const f = byUrl.get(url)!;
      const n = published(f, t);
      const items = [];
      for (let k = Math.max(0, n - WINDOW); k < n; k++) items.push({ id: String(k), publishedAt: f.articles[k]! });
      for (const id of scheduler.recordPoll(url, t, items)) {
        const k = Number(id);
        fetched.get(url)!.add(k);
        delaySum += t - f.articles[k]!;
        maxDelay = Math.max(maxDelay, t - f.articles[k]!);
        delayed++;
      }
    }
    // Pending after this period's polls: published, still listed, not fetched.
    for (const f of feeds) {
      const n = published(f, t);
      const seen = fetched.get(f.url)!;
      for (let k = Math.max(0, n - WINDOW); k < n; k++) if (!seen.has(k)) pendingSum++;
    }
    samples++;
  }
  for (const f of feeds) missed += published(f, end) - fetched.get(f.url)!.size;
  const total = feeds.reduce((s, f) => s + f.articles.length, 0);
  return { pendingArticles: pendingSum / samples, meanDelayMinutes: delaySum / delayed / 60_000, maxDelayMinutes: maxDelay / 60_000, missedShare: missed / total };
}

const started = Date.now();
const policies: Record<string, { pendingArticles: number; meanDelayMinutes: number; maxDelayMinutes: number; missedShare: number }> = {};
const variants = [['round-robin'], ['minimum-delay'], ['posting-rate'], ['posting-rate', 360]] as const;
for (const [policy, maxPoll] of variants) {
  const name = maxPoll ? `${policy} (max interval ${maxPoll / 60} h)` : policy;
  const acc = { pendingArticles: 0, meanDelayMinutes: 0, maxDelayMinutes: 0, missedShare: 0 };
  for (let run = 0; run < RUNS; run++) {
    const r = simulate(generateFeeds(77 + run), policy, maxPoll);
    acc.pendingArticles += r.pendingArticles / RUNS;
    acc.meanDelayMinutes += r.meanDelayMinutes / RUNS;
    acc.missedShare += r.missedShare / RUNS;
    acc.maxDelayMinutes = Math.max(acc.maxDelayMinutes, r.maxDelayMinutes);
  }
  policies[name] = { pendingArticles: Number(acc.pendingArticles.toFixed(2)), meanDelayMinutes: Number(acc.meanDelayMinutes.toFixed(1)), maxDelayMinutes: Number(acc.maxDelayMinutes.toFixed(1)), missedShare: Number(acc.missedShare.toFixed(4)) };
}
const result = {
  setup: { feeds: FEEDS, days: DAYS, runs: RUNS, budget: `M = ${M} polls per T = ${T} min`, ToE: '60 min', minPollMinutes: MIN_POLL, window: WINDOW },
  policies,
  postingRateVsRoundRobin: Number((policies['posting-rate']!.pendingArticles / policies['round-robin']!.pendingArticles).toFixed(4)),
  seconds: (Date.now() - started) / 1000,
};
mkdirSync('bench/results', { recursive: true });
writeFileSync('bench/results/feeds.json', JSON.stringify(result, null, 2) + '\n');
console.table(policies);
console.log(`posting-rate / round-robin pending: ${result.postingRateVsRoundRobin} (${result.seconds} s)`);
