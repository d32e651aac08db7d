import type Database from 'better-sqlite3';
import { HOST_OF_URL_SQL } from '../store/sql-url';
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
 * Heritrix's hosts report, from the crawl log, grouped in SQLite (one query, any crawl size). The
 * figures count requests: ok includes a capture cut at the size cap (`truncated-*`), which the
 * failure counters do not count either; a recrawl round's failure or recovery, logged under a
 * page's URL, is no fetch of its host; a URL the crawl log records as excluded (EXCLUSION_OUTCOMES:
 * robots.txt, an exclude pattern) was never requested: counted as excluded, not as a fetch; a
 * robots.txt request's own entry, subject 'robots', is a fetch of its host, one that got no answer a failed one;
 * the URLs robots.txt's silence kept from being requested (CrawlLogEntry.notRequested) are counted as
 * notRequested, not as fetches, though each is among the crawl's failures (its failure counters count pages).
 */
export function readHostsReport(db: Database.Database, crawlId: number, limit: number): HostsReport {
  const notRound = `outcome NOT IN (${NOT_A_FETCH_OUTCOMES.map(() => '?').join(', ')})`;
  // One read of the crawl log, hostCount counted over the groups beside the top ones: a second
  // query counting the hosts read it again (1 s of the report's 3 s for 1,000,000 entries).
  const rows = db
    .prepare(
      `SELECT host, fetches, ok, fetches - ok AS failed, excluded, notRequested, bytes, COUNT(*) OVER () AS hostCount FROM (
         SELECT ${HOST_OF_URL_SQL} AS host, SUM(NOT excluded AND NOT notRequested) AS fetches, SUM(outcome = 'ok' OR outcome LIKE 'truncated-%') AS ok,
           SUM(excluded) AS excluded, SUM(notRequested) AS notRequested, SUM(size) AS bytes
         FROM (SELECT url, outcome, size, notRequested, outcome IN (${EXCLUSION_OUTCOMES.map(() => '?').join(', ')}) AS excluded FROM CrawlLogEntry WHERE crawlId = ? AND ${notRound}) GROUP BY host
       ) ORDER BY fetches DESC, excluded DESC, notRequested DESC, host LIMIT ?`,
    )
    .all(...EXCLUSION_OUTCOMES, crawlId, ...NOT_A_FETCH_OUTCOMES, limit) as (HostReportRow & { hostCount: number })[];
  return { hosts: rows.map(({ hostCount: _, ...host }) => host), hostCount: rows[0]?.hostCount ?? 0 };
}
