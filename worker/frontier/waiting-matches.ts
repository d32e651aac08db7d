import type Database from 'better-sqlite3';
import { tableExists } from '../store/sqlite';
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
  /** URLs waiting (queued or retrying), every one counted. */
  waiting: number;
  /** Hosts with URLs queued. */
  hosts: number;
  /** Of them, those whose queued URLs were looked at (all of them unless more hosts than URLs looked at). */
  hostsTested: number;
}

/**
 * How many queued URLs of each host a test looks at, `budget` in all: a fair share each (a host
 * with fewer than its share gives the rest to the others), so the sample is spread over every
 * host rather than the first hosts in the queue index's order. With more hosts than `maxHosts`
 * (or than `budget`), that many hosts spread evenly over the list share it. Pure; same order as `queued`.
 */
export function hostShares(queued: readonly number[], budget: number, maxHosts = MAX_TESTED_HOSTS): number[] {
  const n = queued.length;
  const shares = new Array<number>(n).fill(0);
  const picked = Math.min(n, Math.max(0, budget), maxHosts);
  if (picked === 0) return shares;
  const hosts = picked === n ? [...queued.keys()] : Array.from({ length: picked }, (_, k) => Math.floor(((k + 0.5) * n) / picked));
  // Smallest queues first: each takes at most an equal share of what is left.
  hosts.sort((a, b) => queued[a]! - queued[b]! || a - b);
  let left = budget;
  hosts.forEach((host, i) => {
    const take = Math.min(queued[host]!, Math.ceil(left / (picked - i)));
    shares[host] = take;
    left -= take;
  });
  return shares;
}

/**
 * How many of the crawl's queued or retrying URLs match `pattern` (a validated regular expression),
 * and the first `limit` of them in discovery order. Read-only, for the server. At most `maxTested`
 * URLs are tested, each once: the retrying ones, then of each host's queue its next URLs (the
 * queue index's order: those fetched first), shared between hosts by hostShares. Counting each
 * host's queue is one scan of the queue index (as the host-queues report's), no regular expression
 * run: over 300,000 queued URLs the whole test took 70–120 ms on 1,000 hosts, 140–210 ms on 50,000
 * (the 2-core VM, 2026-11-29), where looking at the first 10,000 rows only took 11–50 ms but
 * counted the first hosts' URLs alone.
 */
export function waitingUrlsMatching(db: Database.Database, crawlId: number, pattern: string, limit: number, maxTested = MAX_TESTED_URLS): WaitingMatches {
  if (!tableExists(db, 'frontier_url')) return { matching: 0, examples: [], tested: 0, partial: false, waiting: 0, hosts: 0, hostsTested: 0 };
  ensureFrontierTables(db);
  const retrying = db.prepare(`SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND state IN (${S.inFlight}, ${S.retrying}) AND state = ${S.retrying}`).pluck().get(crawlId) as number;
  const queues = db
    .prepare(`SELECT host, COUNT(*) AS queued FROM frontier_url INDEXED BY frontier_url_queue WHERE crawl_id = ? AND state = ${S.queued} GROUP BY host ORDER BY host`)
    .all(crawlId) as { host: string; queued: number }[];
  const shares = hostShares(queues.map((q) => q.queued), maxTested - Math.min(retrying, maxTested));
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
  queues.forEach((q, i) => {
    if (shares[i]) count(queuedMatches.iterate({ crawlId, pattern, host: q.host, take: shares[i] }));
  });
  const waiting = retrying + queues.reduce((n, q) => n + q.queued, 0);
  const tested = Math.min(retrying, maxTested) + shares.reduce((n, s) => n + s, 0);
  return {
    matching, examples: first.map((r) => r[1]), tested, partial: waiting > tested, waiting,
    hosts: queues.length, hostsTested: shares.filter((s) => s > 0).length,
  };
}
