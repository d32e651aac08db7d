import type Database from 'better-sqlite3';
import { EXCLUSION_OUTCOMES, NOT_A_FETCH_OUTCOMES } from './crawl-stats';

/** One host's line of the hosts report. */
export interface HostReportRow {
  host: string;
  fetches: number;
  ok: number;
  failed: number;
  excluded: number;
  /** URLs failed without a request (pages, revisits, recrawls, feed polls): the host's robots.txt got no answer (RFC 9309). */
  notRequested: number;
  bytes: number;
}

export interface HostsReport {
  /** The most fetched hosts, at most `limit`. */
  hosts: HostReportRow[];
  /** Hosts with any crawl-log entry (a recrawl round's own entries left out). */
  hostCount: number;
}

/**
 * Heritrix's hosts report, from the crawl's host tallies (CrawlHostTally, which a trigger keeps as
 * entries are logged: a few rows per host, where grouping the whole log took ~2.3 s at 1,000,000
 * entries). The figures count requests: ok includes a capture cut at the size cap (`truncated-*`),
 * which the failure counters do not count either; a recrawl round's failure or recovery, logged
 * under a page's URL, is no fetch of its host; a URL the crawl log records as excluded
 * (EXCLUSION_OUTCOMES: robots.txt, an exclude pattern) was never requested: counted as excluded,
 * not as a fetch; a robots.txt request's own entry, subject 'robots', is a fetch of its host, one
 * that got no answer a failed one; the URLs robots.txt's silence kept from being requested
 * (CrawlLogEntry.notRequested) are counted as notRequested, not as fetches, though each is among the
 * crawl's failures (its failure counters count pages).
 */
export function readHostsReport(db: Database.Database, crawlId: number, limit: number): HostsReport {
  const notRound = `outcome NOT IN (${NOT_A_FETCH_OUTCOMES.map(() => '?').join(', ')})`;
  const rows = db
    .prepare(
      `SELECT host, fetches, ok, fetches - ok AS failed, excluded, notRequested, bytes, COUNT(*) OVER () AS hostCount FROM (
         SELECT host, SUM(CASE WHEN excluded OR notRequested THEN 0 ELSE entries END) AS fetches,
           SUM(CASE WHEN outcome = 'ok' OR outcome LIKE 'truncated-%' THEN entries ELSE 0 END) AS ok,
           SUM(CASE WHEN excluded THEN entries ELSE 0 END) AS excluded, SUM(CASE WHEN notRequested THEN entries ELSE 0 END) AS notRequested, SUM(bytes) AS bytes
         FROM (SELECT host, outcome, notRequested, entries, bytes, outcome IN (${EXCLUSION_OUTCOMES.map(() => '?').join(', ')}) AS excluded FROM CrawlHostTally WHERE crawlId = ? AND ${notRound}) GROUP BY host
       ) ORDER BY fetches DESC, excluded DESC, notRequested DESC, host LIMIT ?`,
    )
    .all(...EXCLUSION_OUTCOMES, crawlId, ...NOT_A_FETCH_OUTCOMES, limit) as (HostReportRow & { hostCount: number })[];
  return { hosts: rows.map(({ hostCount: _, ...host }) => host), hostCount: rows[0]?.hostCount ?? 0 };
}
