import type { Icd } from '../icd/schema';
import { hasFeedsOrRecrawls } from './incremental-view';

/**
 * Whether the crawl's visit set closes when its revisit pass begins: a visit–revisit capture
 * without feeds or scheduled recrawls. Its reference time is fixed then and the crawl finishes
 * after the pass, so from then on it visits no more URLs: one queued meanwhile would never be
 * visited, and visited it would fall outside the capture. An incremental crawl goes on visiting.
 * Pure: the engine (CrawlContext.visitSetClosed) and the API (postScoredUrls) ask the same rule.
 */
export function visitSetCloses(icd: Pick<Icd, 'coherence'>): boolean {
  return icd.coherence.mode === 'visit-revisit' && !hasFeedsOrRecrawls(icd.coherence);
}

/**
 * Whether a page was visited after its run's reference time (ms since the epoch, both): queued
 * while the revisit pass ran (a crawl with feeds or recrawls goes on visiting), visited once it
 * ended. Its visit and a revisit would not bracket the reference time, so the pass neither revisits
 * nor certifies it, and the cockpit says so rather than "not revisited yet". Pure: the pass and the
 * coherence report ask the same rule.
 */
export function visitedAfterReference(visitedAt: number, referenceAt: number): boolean {
  return visitedAt > referenceAt;
}
