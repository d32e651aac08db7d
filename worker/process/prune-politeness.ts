import type Database from 'better-sqlite3';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { S, ensureFrontierTables } from '../frontier/frontier-sql';
import { MAX_POLITENESS_DELAY_MS } from '../icd/schema';
import { tableExists } from '../store/sqlite';
import { TERMINAL_STATUSES } from './crawl-control';

/** Rows of frontier_host or frontier_key one transaction of the prune looks at, at most. */
export const PRUNE_BATCH_ROWS = 2_000;

const LIVE_CRAWLS = `live(id) AS (SELECT id FROM Crawl WHERE status NOT IN (${TERMINAL_STATUSES.map(() => '?').join(', ')}))`;

/**
 * True when a crawl that may still run has URLs of the host `column` names waiting (queued, in
 * flight, retrying): looked up per host and crawl through the frontier's partial indexes, which
 * hold those rows only, so a batch costs its own hosts' lookups, not a scan of every waiting URL.
 * CROSS JOIN keeps the crawls outside: with them inside, SQLite scanned the whole queue index per host.
 */
const hostNeeded = (column: string) => `(
  EXISTS (SELECT 1 FROM live CROSS JOIN frontier_url u INDEXED BY frontier_url_queue ON u.crawl_id = live.id AND u.host = ${column} AND u.state = ${S.queued})
  OR EXISTS (SELECT 1 FROM live CROSS JOIN frontier_url u INDEXED BY frontier_url_active ON u.crawl_id = live.id AND u.state IN (${S.inFlight}, ${S.retrying}) WHERE u.host = ${column}))`;

/** How many rows a prune deleted, and in how many write transactions. */
export interface PruneCount {
  hosts: number;
  keys: number;
  batches: number;
}

/**
 * Deletes the politeness rows no crawl needs any more: frontier_host rows (a host's IP key and
 * robots.txt Crawl-delay) of hosts no crawl that may still run (not stopped, finished or failed, and
 * not deleted) has a URL of waiting, and frontier_key rows (a key's last request) that are no such
 * host's key, nor any remaining host's IP, and whose last request ended longer ago than the longest
 * delay an ICD may set, so no restarted worker could owe it a wait. Without this both tables kept
 * every host any crawl ever visited, deleted crawls' too.
 *
 * Call it once a crawl's end or deletion is committed. It goes through each table in key order,
 * `batchRows` rows to a write transaction, and yields to the event loop between them: in one
 * transaction, 100,000 hosts held SQLite's write lock 0.6–1.6 s, and every other crawl's writes waited
 * (in batches, 60,000 of 120,000 hosts and keys went in 120 transactions of at most 30 ms).
 * Each batch checks its rows anew, so a host a crawl queues meanwhile keeps its row; one pruned
 * while another crawl runs is only a cache: its IP is resolved again and its robots.txt read again
 * before its next request, and its key's clock stays. Stops quietly if the database is closed meanwhile.
 */
export async function prunePolitenessRows(db: Database.Database, now = Date.now(), batchRows = PRUNE_BATCH_ROWS): Promise<PruneCount> {
  if (!tableExists(db, 'frontier_host') || !tableExists(db, 'frontier_url')) return { hosts: 0, keys: 0, batches: 0 };
  // Tables a worker of an older version made lack the index on hosts' IPs the keys' batches look up.
  ensureFrontierTables(db);
  const hosts = await pruneInBatches(db, batchRows, {
    table: 'frontier_host',
    column: 'host',
    deletable: `NOT ${hostNeeded('frontier_host.host')}`,
    params: [],
  });
  if (!db.open) return { hosts: hosts.deleted, keys: 0, batches: hosts.batches };
  const keys = await pruneInBatches(db, batchRows, {
    table: 'frontier_key',
    column: 'key',
    deletable: `last_start_at + last_duration_ms <= ?
      AND NOT EXISTS (SELECT 1 FROM frontier_host INDEXED BY frontier_host_ip WHERE ip_key = frontier_key.key)
      AND NOT ${hostNeeded('frontier_key.key')}`,
    params: [now - MAX_POLITENESS_DELAY_MS],
  });
  return { hosts: hosts.deleted, keys: keys.deleted, batches: hosts.batches + keys.batches };
}

interface PrunedTable {
  table: string;
  /** Its primary key, the order the batches follow. */
  column: string;
  /** The condition a row is deleted on, with `params` for its placeholders. */
  deletable: string;
  params: unknown[];
}

/** Deletes the table's deletable rows, `batchRows` rows looked at per write transaction; how many went, in how many. */
async function pruneInBatches(db: Database.Database, batchRows: number, t: PrunedTable): Promise<{ deleted: number; batches: number }> {
  const lastOfBatch = db.prepare(`SELECT MAX(${t.column}) FROM (SELECT ${t.column} FROM ${t.table} WHERE ${t.column} > ? ORDER BY ${t.column} LIMIT ?)`).pluck();
  const remove = db.prepare(`WITH ${LIVE_CRAWLS} DELETE FROM ${t.table} WHERE ${t.column} > ? AND ${t.column} <= ? AND ${t.deletable}`);
  let deleted = 0;
  let batches = 0;
  let after = '';
  for (;;) {
    const batch = db.transaction(() => {
      const last = lastOfBatch.get(after, batchRows) as string | null;
      if (last !== null) deleted += remove.run(...TERMINAL_STATUSES, after, last, ...t.params).changes;
      return last;
    });
    const last = batch.immediate();
    if (last === null) return { deleted, batches };
    batches += 1;
    after = last;
    await nextTurn();
    if (!db.open) return { deleted, batches };
  }
}
