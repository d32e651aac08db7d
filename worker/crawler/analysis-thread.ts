/**
 * Entry of the focused-analysis thread (analysis-client.ts starts it): reads each page's text and
 * link contexts from its HTML and scores it, in the order pages arrive, with the state the crawl's
 * own thread would have kept (document frequencies, section languages), so the results are the
 * same as without the thread.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { Icd } from '../icd/schema';
import type { PageLinkSettings } from '../extract';
import { unpackPage, type PackedPage } from './analysis-job';
import { createFocusScorer, pageFromHtml, scorePage } from './focus-scorer';

/** What the crawl's thread sends. */
export interface AnalysisJob {
  id: number;
  page: PackedPage;
}

/** workerData of the thread. */
export interface AnalysisThreadData {
  focus: Icd['focus'];
  /** The ICD's settings for link URLs: the thread's link extraction must resolve them as the crawl's did. */
  links: PageLinkSettings;
  /** Send each page's whole analysis back too (batch prioritisation reads its term vectors). */
  keepAnalysis: boolean;
}

const { focus, links, keepAnalysis } = workerData as AnalysisThreadData;
const scorer = createFocusScorer(focus);
parentPort!.on('message', ({ id, page }: AnalysisJob) => {
  try {
    const scored = scorePage(scorer, pageFromHtml(unpackPage(page), links), keepAnalysis);
    const v = scored.verdicts;
    // The arrays were made here for this message: moved, not copied.
    const buffers = [v.priorities, v.scores, v.weights, v.excluded].map((a) => a.buffer as ArrayBuffer);
    parentPort!.postMessage({ id, scored }, buffers);
  } catch (err) {
    parentPort!.postMessage({ id, error: (err as Error)?.stack ?? String(err) });
  }
});
