import { BatchScorer, type BatchScore, type GranularityWeights, type ModuleWeights, type PageAnalysis } from '../analyze';
import type { TermVector } from '../text';

/** One queued URL's new score when a batch closes: what the frontier's rescore() takes. */
export interface BatchRescore {
  url: string;
  score: number;
  /** JSON `{priority, scores, weights, batch: {inLinks, pages}}`: the cockpit's "why" reads scores and weights. */
  breakdown: string;
}

/**
 * Batch prioritisation in the live crawl (ARCOMEM, issue 4 point 4). The paper's batch is the
 * pages processed between two frontier updates; the engine takes `bl` URLs of a host at once, so
 * a batch here is `bl` committed pages (across hosts when several are fetched in parallel). When
 * it closes, every URL its pages link to gets one score from the summed evidence (BatchScorer).
 *
 * Pure: pages go in, rescores come out when the batch is full or closed by hand. Applying them is
 * the caller's (FocusAnalysis → frontier.rescore), so a batch lost with the process loses nothing
 * but the better scores: its links were queued provisionally when their pages were committed.
 */
export class FocusBatch {
  private readonly scorer: BatchScorer;
  private pages = 0;

  constructor(
    topicVector: TermVector,
    moduleWeights: ModuleWeights,
    /** Pages per batch (≥ 1). */
    readonly size: number,
    granularityWeights?: GranularityWeights,
  ) {
    if (!(size >= 1)) throw new Error(`batch size must be at least 1, got ${size}`);
    this.scorer = new BatchScorer(topicVector, moduleWeights, { granularityWeights });
  }

  /** Pages in the open batch. */
  get pending(): number {
    return this.pages;
  }

  /** Adds a committed page; returns the batch's rescores when this page filled it, else null. */
  add(page: PageAnalysis): BatchRescore[] | null {
    this.scorer.add(page);
    this.pages += 1;
    return this.pages >= this.size ? this.close() : null;
  }

  /** Closes the open batch (crawl end, pause): its rescores, possibly none. */
  close(): BatchRescore[] {
    const pages = this.pages;
    this.pages = 0;
    return toRescores(this.scorer.close(), pages);
  }
}

/** Spam-excluded targets were never queued (the page's analysis rejected them): nothing to rescore. */
export function toRescores(scores: readonly BatchScore[], pages: number): BatchRescore[] {
  return scores
    .filter((s) => !s.excluded)
    .map((s) => ({
      url: s.url,
      score: s.priority,
      breakdown: JSON.stringify({ ...s.breakdown, batch: { inLinks: s.inLinks, pages } }),
    }));
}
