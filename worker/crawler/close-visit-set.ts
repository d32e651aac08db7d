import type Database from 'better-sqlite3';
import type { Frontier, UpdateFunction } from '../frontier';
import { applyScoredIntake, MAX_PENDING_SCORED_URLS, pendingScoredUrls } from '../frontier/scored-intake';
import type { CoherenceStore } from './coherence-store';

/** What closing a crawl's visit set touches (a CrawlContext has them all). */
export interface VisitSetParts {
  db: Database.Database;
  frontier: Frontier;
  crawlId: number;
  coherence: CoherenceStore;
}

/**
 * Ends the visit pass of a crawl whose visit set closes (visitSetCloses): stores the start of its
 * revisit pass, `now` its reference time (runRevisitPass then keeps it). From then on the API
 * refuses URLs posted to the crawl (postScoredUrls, 409).
 *
 * One immediate write transaction, as the API's check and store of posted URLs are, so SQLite puts
 * every post before or after it: none can be accepted and then left in frontier_intake unseen.
 * - URLs posted before it and still waiting, while the page budget may visit them (`mayVisit`):
 *   nothing is closed, false is returned, and the engine applies them and goes on visiting.
 * - With the budget spent they cannot be visited: they are applied with each new URL excluded as
 *   `max-pages` (the frontier's excluded counts show it), rather than left waiting for a crawl
 *   that will not visit them.
 * True once the visit set is closed, at once when an earlier run closed it.
 */
export function closeVisitSet(parts: VisitSetParts, o: { mayVisit: boolean; updateFunction: UpdateFunction; now: number }): boolean {
  const { db, frontier, crawlId, coherence } = parts;
  return db
    .transaction((): boolean => {
      if (coherence.revisitsBegun()) return true;
      if (o.mayVisit && pendingScoredUrls(db, crawlId) > 0) return false;
      coherence.startRun(o.now);
      applyScoredIntake(db, frontier, crawlId, o.updateFunction, { max: MAX_PENDING_SCORED_URLS, excludeNew: 'max-pages' });
      return true;
    })
    .immediate();
}
