import type { CoherenceStore } from './coherence-store';
import { closeIntakeOnce, type IntakeClosing, type IntakeParts } from './close-intake';

/** What closing a crawl's visit set touches (a CrawlContext has them all). */
export interface VisitSetParts extends IntakeParts {
  coherence: CoherenceStore;
}

/**
 * Ends the visit pass of a crawl whose visit set closes (visitSetCloses): stores the start of its
 * revisit pass, `now` its reference time (runRevisitPass then keeps it). From then on the API
 * refuses URLs posted to the crawl (postScoredUrls, 409).
 *
 * Decided as every closing of the intake is (closeIntakeOnce): URLs still waiting while the page
 * budget may visit them keep the visit set open (false: the engine visits them first); with the
 * budget spent they are recorded as excluded `max-pages` rather than left waiting for a crawl
 * that will not visit them. True once the visit set is closed, at once when an earlier run closed it.
 */
export function closeVisitSet(parts: VisitSetParts, o: IntakeClosing): boolean {
  const { coherence } = parts;
  return closeIntakeOnce(parts, o, { closed: () => coherence.revisitsBegun(), close: () => void coherence.startRun(o.now) });
}
