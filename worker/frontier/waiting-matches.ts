import type Database from 'better-sqlite3';
import { tableExists, runInReadTransaction } from '../store/sqlite';
import { ensureFrontierTables, S } from './frontier-sql';

/**
 * Most waiting URLs a test of a pattern looks at. It runs on the server's thread, its regular
 * expression called once a URL: over 100,000 queued URLs it held the event loop 120–600 ms (the
 * 2-core VM, 2026-11-29; a pattern matching all of them the longest), over 10,000 11–50 ms (median).
 */
export const MAX_TESTED_URLS = 10_000;

/**
 * Most hosts whose queues a test looks into (a query each): 10,000 one-row queries took 0.3–0.7 s
 * on the 2-core VM (2026-11-29), 1,000 of ten rows 30–50 ms. More hosts than that: 1,000 spread
 * over the list.
 */
export const MAX_TESTED_HOSTS = 1_000;

/**
 * Most hosts a test lists (an index seek each), in the queue index's host order: listing every
 * host took ~240 ms over 50,000 (the 2-core VM, 2026-11-29). The hosts sorting after the last one
 * listed are left out of the test, and its answer says so (moreHostsAfter).
 */
export const MAX_LISTED_HOSTS = 5_000;

/** The crawl's waiting URLs a pattern matches, as the cockpit tests a live exclusion before adding it. */
export interface WaitingMatches {
  /** Queued or retrying URLs that match, of those looked at: what adding the pattern would exclude now, or the least of it when `partial`. */
  matching: number;
  /** The first of them in discovery order, at most `limit`. */
  examples: string[];
  /** Waiting URLs looked at: every one, or MAX_TESTED_URLS of them. */
  tested: number;
  /** More URLs wait than were looked at: at least `matching` match. */
  partial: boolean;
  /**
   * URLs waiting (queued or retrying): every one when not `partial`; when `partial`, those counted,
   * at least this many (a test stops counting a host's queue past what it looks at, so its work
   * does not grow with the queue; the cockpit's route shows the crawl's own count then).
   */
  waiting: number;
  /** Hosts with URLs queued, of those listed: every one, or MAX_LISTED_HOSTS when `moreHostsAfter` is set. */
  hosts: number;
  /** Of them, those whose queued URLs were looked at (all of them unless more hosts than URLs looked at). */
  hostsTested: number;
  /**
   * With more than MAX_LISTED_HOSTS hosts with URLs queued: the last host listed, in host order.
   * The hosts sorting after it were left out of the test (then `partial`). null when every host was listed.
   */
  moreHostsAfter: string | null;
}

/**
 * Which of `n` hosts a test with `budget` URLs looks into: every one, or with more hosts than
 * `maxHosts` (or than `budget`) that many spread evenly over the list. Pure; ascending.
 */
export function pickedHosts(n: number, budget: number, maxHosts = MAX_TESTED_HOSTS): number[] {
  const picked = Math.min(n, Math.max(0, budget), maxHosts);
  if (picked === 0) return [];
  return picked === n ? [...Array(n).keys()] : Array.from({ length: picked }, (_, k) => Math.floor(((k + 0.5) * n) / picked));
}

/**
 * How many queued URLs of each host a test looks at, `budget` in all: a fair share each (a host
 * with fewer than its share gives the rest to the others), so the sample is spread over every
 * host rather than the first hosts in the queue index's order. With more hosts than `maxHosts`
 * (or than `budget`), the pickedHosts share it. Pure; same order as `queued`. A queue may be
 * given counted only up to some bound (waitingUrlsMatching): the remainder of a budget that does
 * not divide evenly goes to the smallest queues first, then to the first hosts.
 */
export function hostShares(queued: readonly number[], budget: number, maxHosts = MAX_TESTED_HOSTS): number[] {
  const shares = new Array<number>(queued.length).fill(0);
  const hosts = pickedHosts(queued.length, budget, maxHosts);
  // Smallest queues first: each takes at most an equal share of what is left.
  hosts.sort((a, b) => queued[a]! - queued[b]! || a - b);
  let left = budget;
  hosts.forEach((host, i) => {
    const take = Math.min(queued[host]!, Math.ceil(left / (hosts.length - i)));
    shares[host] = take;
    left -= take;
  });
  return shares;
}

/**
 * hostShares over queues counted only as far as needed, a statement a host: each picked host's
 * queue is counted up to a cap a little above an equal share; when hosts with fewer leave budget
 * over, the hosts that reached the cap are counted again up to a higher one. So the rows counted
 * stay within about `budget` + 2 a host a round (a round lets at least one host off), not the
 * whole queue. `counted[i]`: host i's queue as counted (exact when below `caps[i]`).
 */
function cappedShares(hosts: number, budget: number, countUpTo: (host: number, cap: number) => number): { shares: number[]; counted: number[]; capped: boolean[] } {
  const counted = new Array<number>(hosts).fill(0);
  const capped = new Array<boolean>(hosts).fill(false);
  let open = pickedHosts(hosts, budget);
  let cap = open.length ? Math.ceil(budget / open.length) + 1 : 0;
  for (;;) {
    for (const h of open) {
      counted[h] = countUpTo(h, cap);
      capped[h] = counted[h] >= cap;
    }
    const shares = hostShares(counted, budget);
    const full = open.filter((h) => capped[h]);
    if (full.length === 0 || shares.reduce((n, x) => n + x, 0) >= budget) return { shares, counted, capped };
    const settled = pickedHosts(hosts, budget).reduce((n, h) => n + (capped[h] ? 0 : counted[h]!), 0);
    cap = Math.max(cap + 1, Math.ceil((budget - settled) / full.length) + 1);
    open = full;
  }
}

/**
 * How many of the crawl's queued or retrying URLs match `pattern` (a validated regular expression),
 * and the first `limit` of them in discovery order. Read-only, for the server, in one read
 * transaction. At most `maxTested` URLs are tested, each once: the retrying ones, then of each
 * host's queue its next URLs (the queue index's order: those fetched first), shared between hosts
 * by hostShares. Its work is bounded by what it tests, not by the queue: the hosts are listed one
 * index seek each, MAX_LISTED_HOSTS at most (those after are left out, and the answer says from
 * which host), and each picked host's queue is counted only as far as its share needs
 * (cappedShares). It counted every queued URL by host (one scan of the queue index): over 300,000
 * queued URLs 70–120 ms on 1,000 hosts, 140–210 ms on 50,000 (the 2-core VM, 2026-11-29).
 */
export function waitingUrlsMatching(db: Database.Database, crawlId: number, pattern: string, limit: number, maxTested = MAX_TESTED_URLS): WaitingMatches {
  if (!tableExists(db, 'frontier_url')) return { matching: 0, examples: [], tested: 0, partial: false, waiting: 0, hosts: 0, hostsTested: 0, moreHostsAfter: null };
  ensureFrontierTables(db);
  return runInReadTransaction(db, () => testWaiting(db, crawlId, pattern, limit, maxTested));
}

function testWaiting(db: Database.Database, crawlId: number, pattern: string, limit: number, maxTested: number): WaitingMatches {
  const retrying = db.prepare(`SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND state IN (${S.inFlight}, ${S.retrying}) AND state = ${S.retrying}`).pluck().get(crawlId) as number;
  // The hosts with URLs queued, in the queue index's order: one seek each (a skip scan), not a row
  // each; one past MAX_LISTED_HOSTS, to know whether there are more (the LIMIT stops the
  // recursion: SQLite runs it as the rows are asked for).
  const listed = db
    .prepare(
      `WITH RECURSIVE h(host) AS (
         SELECT (SELECT host FROM frontier_url INDEXED BY frontier_url_queue WHERE crawl_id = @crawlId AND state = ${S.queued} ORDER BY host LIMIT 1)
         UNION ALL
         SELECT (SELECT host FROM frontier_url INDEXED BY frontier_url_queue WHERE crawl_id = @crawlId AND state = ${S.queued} AND host > h.host ORDER BY host LIMIT 1) FROM h WHERE h.host IS NOT NULL
       ) SELECT host FROM h WHERE host IS NOT NULL LIMIT @most`,
    )
    .pluck()
    .all({ crawlId, most: MAX_LISTED_HOSTS + 1 }) as string[];
  const hosts = listed.slice(0, MAX_LISTED_HOSTS);
  const moreHostsAfter = listed.length > hosts.length ? hosts.at(-1)! : null;
  const countUpTo = db.prepare(`SELECT COUNT(*) FROM (SELECT 1 FROM frontier_url INDEXED BY frontier_url_queue WHERE crawl_id = ? AND state = ${S.queued} AND host = ? LIMIT ?)`).pluck();
  const budget = maxTested - Math.min(retrying, maxTested);
  const { shares, counted, capped } = cappedShares(hosts.length, budget, (h, cap) => countUpTo.get(crawlId, hosts[h], cap) as number);
  // The LIMITs keep SQLite from moving the pattern's test into the rows they bound.
  const retryingMatches = db.prepare(
    `SELECT seq, url FROM (SELECT seq, url FROM frontier_url WHERE crawl_id = @crawlId AND state IN (${S.inFlight}, ${S.retrying}) AND state = ${S.retrying} LIMIT @take)
     WHERE frontier_url_matches(@pattern, url)`,
  ).raw(true);
  const queuedMatches = db.prepare(
    `SELECT seq, url FROM (SELECT seq, url FROM frontier_url INDEXED BY frontier_url_queue WHERE crawl_id = @crawlId AND state = ${S.queued} AND host = @host LIMIT @take)
     WHERE frontier_url_matches(@pattern, url)`,
  ).raw(true);
  // The matching rows are counted as they come and only the `limit` first kept, so a pattern that
  // matches every URL looked at does not hold them all.
  let matching = 0;
  const first: [number, string][] = [];
  const count = (rows: IterableIterator<unknown>) => {
    for (const row of rows as IterableIterator<[number, string]>) {
      matching += 1;
      if (first.length < limit) first.push(row);
      else if (row[0] < first[first.length - 1]![0]) first[first.length - 1] = row;
      else continue;
      first.sort((a, b) => a[0] - b[0]);
    }
  };
  count(retryingMatches.iterate({ crawlId, pattern, take: maxTested }));
  hosts.forEach((host, i) => {
    if (shares[i]) count(queuedMatches.iterate({ crawlId, pattern, host, take: shares[i] }));
  });
  const tested = Math.min(retrying, maxTested) + shares.reduce((n, s) => n + s, 0);
  // More waits than was looked at: retrying URLs past the cap, hosts not listed or not looked into,
  // or a queue counted to its cap and not wholly taken (one taken whole at its cap is counted one further).
  const partial =
    retrying > maxTested ||
    moreHostsAfter !== null ||
    counted.some((n, i) => n === 0 || shares[i]! < n) ||
    counted.some((n, i) => capped[i] && shares[i] === n && (countUpTo.get(crawlId, hosts[i], n + 1) as number) > n);
  // Exact unless partial; then what was counted, and a URL at least of each host not looked into
  // (of the hosts not listed, one at least).
  const waiting = retrying + counted.reduce((n, c) => n + Math.max(c, 1), 0) + (moreHostsAfter === null ? 0 : 1);
  return { matching, examples: first.map((r) => r[1]), tested, partial, waiting, hosts: hosts.length, hostsTested: shares.filter((s) => s > 0).length, moreHostsAfter };
}
