import type Database from 'better-sqlite3';
import { backoffAfterRound, MAX_BACKOFF_ROUNDS, type HostBackoff, type HostTally } from '../coherence';
import type { CrawlContext } from './crawl-context';
import { HOST_BACKOFF_OUTCOME } from './recrawl-history';

/**
 * The recrawl back-off of hosts that gave no answer (coherence/host-backoff.ts), stored beside the
 * recrawl state so a restart keeps it, and told in the crawl log: an entry when a host goes into
 * back-off or stays in it after a try (one a host every 2, 4, 8… rounds, not one a page every
 * round), and one when it answers again.
 */

export const HOST_BACKOFF_DDL = `
CREATE TABLE IF NOT EXISTS engine_recrawl_host (
  crawl_id INTEGER NOT NULL,
  host TEXT NOT NULL,
  down_rounds INTEGER NOT NULL,
  next_round INTEGER NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (crawl_id, host)
) WITHOUT ROWID;
`;

/** The crawl's hosts in back-off, by host (as hostKeyOf gives it). */
export function loadHostBackoffs(db: Database.Database, crawlId: number): Map<string, HostBackoff> {
  const rows = db.prepare('SELECT host, down_rounds AS downRounds, next_round AS nextRound, reason FROM engine_recrawl_host WHERE crawl_id = ?').all(crawlId) as (HostBackoff & { host: string })[];
  return new Map(rows.map(({ host, ...b }) => [host, b]));
}

/**
 * A host in back-off with nothing left to refetch, whose back-off ends: robots.txt refuses all its
 * pages, or it has no page in the recrawls any more (exclude patterns dropped them all). `url`: where
 * the crawl log tells it, one of its pages.
 */
export interface NothingLeft {
  host: string;
  url: string;
  why: 'robots-refused' | 'no-pages';
}

/**
 * Stores what `round` observed of each host it refetched pages of (`tally`), given the back-offs the
 * round began with (`prior`), and logs the changes. `nothingLeft`: hosts in back-off with no page
 * left to refetch (recrawl-round.ts), whose back-off ends, each logged. Call it in the transaction
 * that ends the round.
 */
export function saveHostBackoffs(ctx: Pick<CrawlContext, 'db' | 'crawlId' | 'store'>, round: number, tally: HostTally, prior: ReadonlyMap<string, HostBackoff>, nothingLeft: readonly NothingLeft[]): void {
  const upsert = ctx.db.prepare(
    `INSERT INTO engine_recrawl_host (crawl_id, host, down_rounds, next_round, reason) VALUES (?, ?, ?, ?, ?)
     ON CONFLICT (crawl_id, host) DO UPDATE SET down_rounds = excluded.down_rounds, next_round = excluded.next_round, reason = excluded.reason`,
  );
  const remove = ctx.db.prepare('DELETE FROM engine_recrawl_host WHERE crawl_id = ? AND host = ?');
  const log = (url: string, message: string) => ctx.store.addLog({ url, status: null, outcome: HOST_BACKOFF_OUTCOME, message, size: 0, durationMs: 0, retries: 0, at: new Date() });
  for (const { host, downReason, url, tries } of tally.entries()) {
    const before = prior.get(host) ?? null;
    const after = backoffAfterRound(before, round, downReason);
    if (after) {
      upsert.run(ctx.crawlId, host, after.downRounds, after.nextRound, after.reason);
      log(url, hostDownMessage(host, round, after, tries));
    } else if (before) {
      remove.run(ctx.crawlId, host);
      log(url, `recrawl round ${round}: ${host} answered again after ${before.downRounds} round${before.downRounds === 1 ? '' : 's'} without an answer; its pages are recrawled at their own frequency again`);
    }
  }
  for (const { host, url, why } of nothingLeft) {
    remove.run(ctx.crawlId, host);
    log(url, why === 'robots-refused'
      ? `recrawl round ${round}: nothing of ${host} was requested, robots.txt refusing all its pages; its back-off ends: its pages are recrawled at their own frequency should robots.txt allow them again`
      : `recrawl round ${round}: no page of ${host} is left to recrawl, exclude patterns of the crawl matching them all; its back-off ends`);
  }
}

/** The crawl-log message of a host that gave no answer in `round` (HOST_BACKOFF_OUTCOME). */
function hostDownMessage(host: string, round: number, b: HostBackoff, tries: number): string {
  const inARow = b.downRounds === 1 ? '' : `, ${b.downRounds} rounds in a row`;
  return `recrawl round ${round}: no answer from ${host} to any of its ${tries} refetch${tries === 1 ? '' : 'es'} (${b.reason})${inARow}; `
    + `its pages are left out of the rounds until round ${b.nextRound} (the wait doubles at each round without an answer, up to ${MAX_BACKOFF_ROUNDS} rounds, and ends at its first answer)`;
}
