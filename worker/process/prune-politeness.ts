import type Database from 'better-sqlite3';
import { S } from '../frontier/frontier-sql';
import { MAX_POLITENESS_DELAY_MS } from '../icd/schema';
import { tableExists } from '../store/sqlite';
import { TERMINAL_STATUSES } from './crawl-control';

/**
 * The hosts a crawl that may still run has URLs of waiting (queued, in flight, retrying): read
 * through the frontier's partial indexes, which hold those rows only, not every URL ever seen.
 */
const NEEDED_HOSTS = `
  WITH live(id) AS (SELECT id FROM Crawl WHERE status NOT IN (${TERMINAL_STATUSES.map(() => '?').join(', ')}))
  SELECT u.host FROM live JOIN frontier_url u INDEXED BY frontier_url_queue ON u.crawl_id = live.id AND u.state = ${S.queued}
  UNION
  SELECT u.host FROM live JOIN frontier_url u INDEXED BY frontier_url_active ON u.crawl_id = live.id AND u.state IN (${S.inFlight}, ${S.retrying})`;

/**
 * Deletes the politeness rows no crawl needs any more: frontier_host rows (a host's IP key and
 * robots.txt Crawl-delay) of hosts no crawl that may still run (not stopped, finished or failed, and
 * not deleted) has a URL of waiting, and frontier_key rows (a key's last request) that are no such
 * host's key, nor any remaining host's IP, and whose last request ended longer ago than the longest
 * delay an ICD may set, so no restarted worker could owe it a wait. Without this both tables kept
 * every host any crawl ever visited, deleted crawls' too.
 *
 * Call it in the transaction that ends a crawl's use of them (the crawl's end, its deletion), after
 * the crawl's row says so. A host row pruned while another crawl runs is only a cache: its IP is
 * resolved again and its robots.txt read again before its next request, and its key's clock stays.
 */
export function prunePolitenessRows(db: Database.Database, now = Date.now()): { hosts: number; keys: number } {
  if (!tableExists(db, 'frontier_host') || !tableExists(db, 'frontier_url')) return { hosts: 0, keys: 0 };
  const hosts = db.prepare(`DELETE FROM frontier_host WHERE host NOT IN (${NEEDED_HOSTS})`).run(...TERMINAL_STATUSES).changes;
  const keys = tableExists(db, 'frontier_key')
    ? db
        .prepare(
          `DELETE FROM frontier_key WHERE last_start_at + last_duration_ms <= ?
           AND key NOT IN (SELECT ip_key FROM frontier_host WHERE ip_key IS NOT NULL) AND key NOT IN (${NEEDED_HOSTS})`,
        )
        .run(now - MAX_POLITENESS_DELAY_MS, ...TERMINAL_STATUSES).changes
    : 0;
  return { hosts, keys };
}
