import type Database from 'better-sqlite3';
import { tableExists } from '../store/sqlite';
import { S } from './frontier-sql';
import type { HostQueueBackoff } from './host-queue-backoff';

export type { HostQueueBackoff } from './host-queue-backoff';

/** A host's URLs waiting in a crawl's frontier. */
export interface HostQueueRow {
  host: string;
  queued: number;
  retrying: number;
  inFlight: number;
  /**
   * Set while the host is in back-off, having given no answer (worker/crawler/host-outages.ts):
   * since when (ms), when one of its URLs is tried next, tries made so far, the last failure's reason.
   */
  backoff?: HostQueueBackoff;
}


export interface HostQueues {
  /** The hosts with the most URLs waiting (queued, then retrying), at most `limit`. */
  queues: HostQueueRow[];
  /** Hosts with any URL waiting or in flight. */
  hostCount: number;
  /** URLs waiting or in flight in all. */
  waiting: number;
}

/**
 * Heritrix's host-queues report: where a crawl's frontier has its URLs waiting, the largest queue
 * first, so a trap (a calendar, session ids) shows as one host's queue growing. Read from the
 * frontier's own indexes: the queued rows' (by host) and the few in-flight and retrying ones', so
 * it costs a scan of the waiting URLs, not of every URL seen. A crawl whose worker never created
 * the frontier's tables has none waiting.
 */
export function readHostQueues(db: Database.Database, crawlId: number, limit: number): HostQueues {
  if (!tableExists(db, 'frontier_url')) return { queues: [], hostCount: 0, waiting: 0 };
  // One scan of the queued rows: the largest queues, with the count and sum over every queued host beside them.
  const queued = db
    .prepare(
      `SELECT host, queued, COUNT(*) OVER () AS queuedHosts, SUM(queued) OVER () AS queuedTotal FROM (
         SELECT host, COUNT(*) AS queued FROM frontier_url INDEXED BY frontier_url_queue WHERE crawl_id = ? AND state = ${S.queued} GROUP BY host
       ) ORDER BY queued DESC, host LIMIT ?`,
    )
    .all(crawlId, limit) as { host: string; queued: number; queuedHosts: number; queuedTotal: number }[];
  const active = db
    .prepare(
      `SELECT host, SUM(state = ${S.retrying}) AS retrying, SUM(state = ${S.inFlight}) AS inFlight FROM frontier_url INDEXED BY frontier_url_active
       WHERE crawl_id = ? AND state IN (${S.inFlight}, ${S.retrying}) GROUP BY host`,
    )
    .all(crawlId) as { host: string; retrying: number; inFlight: number }[];
  const queuedOf = db.prepare(`SELECT COUNT(*) FROM frontier_url INDEXED BY frontier_url_queue WHERE crawl_id = ? AND host = ? AND state = ${S.queued}`).pluck();
  const byHost = new Map<string, HostQueueRow>(queued.map((q) => [q.host, { host: q.host, queued: q.queued, retrying: 0, inFlight: 0 }]));
  // A host outside the largest queues with URLs retrying or in flight, or in back-off, is listed too (there are few such hosts).
  const rowOf = (host: string) => byHost.get(host) ?? byHost.set(host, { host, queued: queuedOf.get(crawlId, host) as number, retrying: 0, inFlight: 0 }).get(host)!;
  let hostCount = queued[0]?.queuedHosts ?? 0;
  let waiting = queued[0]?.queuedTotal ?? 0;
  for (const a of active) {
    const row = rowOf(a.host);
    row.retrying = a.retrying;
    row.inFlight = a.inFlight;
    waiting += a.retrying + a.inFlight;
    // A host with nothing queued is not among the queued hosts counted above.
    if (row.queued === 0) hostCount++;
  }
  for (const { host, ...backoff } of hostsInBackoff(db, crawlId)) {
    // A host with nothing waiting (its URLs excluded since) is no queue.
    if (byHost.has(host) || (queuedOf.get(crawlId, host) as number) > 0) rowOf(host).backoff = backoff;
  }
  const queues = [...byHost.values()]
    .sort((x, y) => y.queued - x.queued || y.retrying - x.retrying || y.inFlight - x.inFlight || (x.host < y.host ? -1 : 1))
    .slice(0, limit);
  return { queues, hostCount, waiting };
}

/** The crawl's hosts in back-off as its engine listed them (none for a crawl no engine of this version ran). */
function hostsInBackoff(db: Database.Database, crawlId: number): (HostQueueBackoff & { host: string })[] {
  if (!tableExists(db, 'engine_host_backoff')) return [];
  return db.prepare('SELECT host, since, next_try_at AS nextTryAt, tries, reason FROM engine_host_backoff WHERE crawl_id = ? ORDER BY host').all(crawlId) as (HostQueueBackoff & { host: string })[];
}
