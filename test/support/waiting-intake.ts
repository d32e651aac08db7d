/**
 * Many URLs posted to a crawl and still waiting when it ends, over a crawl that knows URLs in every
 * state: the posts, and what each URL's frontier row must be once they are settled
 * (settleScoredIntake), worked out post by post as applying them one at a time does.
 */
import type Database from 'better-sqlite3';
import type { ExclusionReason } from '../../worker/capture';
import type { Lease, SqliteFrontier } from '../../worker/frontier';
import { STATE_NAMES } from '../../worker/frontier/frontier-sql';
import type { ScoredUrl } from '../../worker/frontier/scored-intake';

/** A URL's frontier row as the settling leaves it. */
export interface SettledRow {
  state: string;
  reason: string | null;
  scoreCount: number;
  rawScore: number;
}

const HOSTS = 7;
const urlOf = (group: string, i: number) => `http://h${i % HOSTS}.settle.test/${group}/${i}`;
const hostOf = (url: string) => new URL(url).host;

/**
 * Puts `perState` URLs in every state into the crawl's open frontier: fetched, failed, retrying, in
 * flight (their leases are returned, so keep the frontier open for them to stay so), excluded, and
 * queued last. Each group is added to an empty queue and leased whole.
 */
export function knownUrlsInEveryState(f: SqliteFrontier, crawlId: number, now: number, perState = 100): Lease[] {
  const added = (group: string) => {
    const urls = Array.from({ length: perState }, (_, i) => urlOf(group, i));
    f.add(crawlId, urls.map((url) => ({ url, host: hostOf(url), depth: 1, priority: 0.5, kind: 'page' })));
    return urls;
  };
  const leaseAll = (group: string): Lease[] => {
    added(group);
    const leases: Lease[] = [];
    for (let l = f.next(now); l; l = f.next(now)) leases.push(l);
    if (leases.length !== perState) throw new Error(`${group}: ${leases.length} of ${perState} leased`);
    return leases;
  };
  for (const l of leaseAll('done')) f.complete(l, { status: 200 });
  for (const l of leaseAll('failed')) f.fail(l, 'http-5xx');
  for (const l of leaseAll('retrying')) f.fail(l, 'connect-timeout', { retryAt: now + 3_600_000 });
  const inFlight = leaseAll('in-flight');
  f.exclude(crawlId, Array.from({ length: perState }, (_, i) => ({ url: urlOf('excluded', i), host: hostOf(urlOf('excluded', i)), reason: 'robots' as const })));
  added('queued');
  return inFlight;
}

/**
 * `total` posts, interleaved: new scores for and blacklistings of the known URLs (several for some),
 * and URLs new to the crawl, a tenth blacklisted, one in seven posted twice with the other flag.
 * `knownUrls`: the crawl's URLs, as rows() reads them.
 */
export function waitingPosts(knownUrls: readonly string[], total = 5_000): ScoredUrl[] {
  const posts: ScoredUrl[] = [];
  knownUrls.forEach((url, i) => {
    posts.push({ url, score: (i % 10) / 10, blacklist: false });
    if (i % 3 === 0) posts.push({ url, score: 0, blacklist: true });
    if (i % 4 === 0) posts.push({ url, score: 0.95, blacklist: false });
  });
  for (let j = 0; posts.length < total; j++) {
    const url = urlOf('new', j);
    const blacklist = j % 10 === 0;
    posts.push({ url, score: 0.5, blacklist });
    if (j % 7 === 0 && posts.length < total) posts.push({ url, score: 0.6, blacklist: !blacklist });
  }
  // A fixed shuffle (an LCG): posts of one URL keep their order, posts of different URLs mix.
  let seed = 42;
  const keys = posts.map(() => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31));
  const order = posts.map((_, k) => k).sort((a, b) => keys[a]! - keys[b]!);
  const byUrl = new Map<string, ScoredUrl[]>();
  for (const p of posts) byUrl.set(p.url, [...(byUrl.get(p.url) ?? []), p]);
  return order.map((k) => byUrl.get(posts[k]!.url)!.shift()!);
}

/** Every frontier row of the crawl, by URL. */
export function rows(db: Database.Database, crawlId: number): Map<string, SettledRow> {
  const all = db.prepare('SELECT url, state, reason, score_count, score_raw FROM frontier_url WHERE crawl_id = ?').all(crawlId) as {
    url: string; state: number; reason: string | null; score_count: number; score_raw: number;
  }[];
  return new Map(all.map((r) => [r.url, { state: STATE_NAMES[r.state]!, reason: r.reason, scoreCount: r.score_count, rawScore: r.score_raw }]));
}

/**
 * The rows once the posts are settled with `reason`, from the rows before: a URL new to the crawl is
 * excluded as its first post says (blacklisted, or `reason`); a blacklisting excludes a queued URL;
 * a score counts for a queued or retrying one and, the crawl's update function being FIRST,
 * replaces its score; anything else changes nothing.
 */
export function settledRows(before: ReadonlyMap<string, SettledRow>, posts: readonly ScoredUrl[], reason: ExclusionReason): Map<string, SettledRow> {
  const after = new Map([...before].map(([url, row]) => [url, { ...row }]));
  for (const p of posts) {
    const row = after.get(p.url);
    if (!row) after.set(p.url, { state: 'excluded', reason: p.blacklist ? 'blacklisted' : reason, scoreCount: 1, rawScore: 0 });
    else if (p.blacklist && row.state === 'queued') Object.assign(row, { state: 'excluded', reason: 'blacklisted' });
    else if (!p.blacklist && (row.state === 'queued' || row.state === 'retrying')) Object.assign(row, { scoreCount: row.scoreCount + 1, rawScore: p.score });
  }
  return after;
}

/** The crawl's URLs per state, and its excluded ones per reason, as its rows say. */
export function countsOf(settled: ReadonlyMap<string, SettledRow>): { states: Record<string, number>; excludedByReason: Record<string, number> } {
  const states: Record<string, number> = {};
  const excludedByReason: Record<string, number> = {};
  for (const r of settled.values()) {
    states[r.state] = (states[r.state] ?? 0) + 1;
    if (r.state === 'excluded') excludedByReason[r.reason!] = (excludedByReason[r.reason!] ?? 0) + 1;
  }
  return { states, excludedByReason };
}
