import type Database from 'better-sqlite3';
import type { Frontier, UpdateFunction } from '../frontier';
import { closeIntakeAs, intakeClosedAs, pendingScoredUrls, settleScoredIntake } from '../frontier/scored-intake';

/** What closing a crawl's intake touches (a CrawlContext has them all). */
export interface IntakeParts {
  db: Database.Database;
  frontier: Frontier;
  crawlId: number;
}

/** When the engine closes the intake: whether the page budget may still visit URLs, how posted scores apply. */
export interface IntakeClosing {
  mayVisit: boolean;
  updateFunction: UpdateFunction;
  now: number;
}

/** A closing of the crawl's intake: whether it was stored already, and storing it. */
export interface IntakeGate {
  closed(): boolean;
  close(): void;
}

/**
 * The engine's closing of what a crawl visits (closeVisitSet, finishIntake): one immediate write
 * transaction, as the API's check and store of posted URLs is (postScoredUrls), so SQLite puts
 * every post before or after it, and none is accepted and then left in frontier_intake unseen.
 * - URLs posted before it and still waiting, while the page budget may visit them (`mayVisit`):
 *   nothing is closed, false is returned, and the engine applies them and goes on visiting.
 * - Otherwise the closing is stored (`gate.close`): from then on the API refuses posted URLs.
 *   What still waits, with the budget spent, cannot be visited: it is applied with each new URL
 *   excluded as `max-pages` (the frontier's excluded counts show it), and the intake is emptied.
 * True once closed, at once when it was closed before.
 */
export function closeIntakeOnce(parts: IntakeParts, o: IntakeClosing, gate: IntakeGate): boolean {
  const { db, frontier, crawlId } = parts;
  return db
    .transaction((): boolean => {
      if (gate.closed()) return true;
      if (o.mayVisit && pendingScoredUrls(db, crawlId) > 0) return false;
      gate.close();
      settleScoredIntake(db, frontier, crawlId, o.updateFunction, 'max-pages');
      return true;
    })
    .immediate();
}

/**
 * Ends the visits of a crawl about to finish (closeIntakeOnce): its intake closes as `finished`,
 * so the API refuses posted URLs with the words for a finished crawl, though the crawl is marked
 * finished only once its files are closed (CrawlManager). False: URLs wait that it may visit.
 */
export function finishIntake(parts: IntakeParts, o: IntakeClosing): boolean {
  const { db, crawlId } = parts;
  return closeIntakeOnce(parts, o, { closed: () => intakeClosedAs(db, crawlId) !== null, close: () => closeIntakeAs(db, crawlId, 'finished', o.now) });
}
