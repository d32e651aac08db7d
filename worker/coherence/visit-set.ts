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
