/** One point of the relevance chart (ARCOMEM's Figure 8). */
export interface RelevancePoint {
  /** Documents crawled so far at the end of this window. */
  documents: number;
  /** Mean cosine similarity of the window's documents with the topic vector. */
  meanSimilarity: number;
  /** meanSimilarity divided by the largest window mean of the series. */
  normalised: number;
  /** Share of the documents crawled so far whose similarity exceeds the relevance threshold. */
  harvestRatio: number;
}

export interface RelevanceSeries {
  windowSize: number;
  threshold: number;
  documents: number;
  harvestRatio: number;
  points: RelevancePoint[];
}

/**
 * Builds the relevance series document by document, in crawl order: the mean similarity per
 * window of `windowSize` documents (the last window may be partial), each divided by the largest
 * window mean, and the harvest ratio so far at the end of each window. Used live by the crawl
 * engine and, over the stored captures, by the API — so both draw the same chart.
 */
export class RelevanceSeriesBuilder {
  private windowSum = 0;
  private windowCount = 0;
  private documents = 0;
  private relevant = 0;
  private readonly closed: { documents: number; mean: number; harvest: number }[] = [];

  constructor(readonly windowSize: number, readonly threshold: number) {
    if (!(windowSize >= 1)) throw new RangeError('windowSize must be at least 1');
  }

  add(similarity: number): void {
    this.documents += 1;
    if (similarity > this.threshold) this.relevant += 1;
    this.windowSum += similarity;
    this.windowCount += 1;
    if (this.windowCount >= this.windowSize) {
      this.closed.push({ documents: this.documents, mean: this.windowSum / this.windowCount, harvest: this.relevant / this.documents });
      this.windowSum = 0;
      this.windowCount = 0;
    }
  }

  snapshot(): RelevanceSeries {
    const windows = [...this.closed];
    if (this.windowCount) windows.push({ documents: this.documents, mean: this.windowSum / this.windowCount, harvest: this.relevant / this.documents });
    const max = Math.max(0, ...windows.map((w) => w.mean));
    return {
      windowSize: this.windowSize,
      threshold: this.threshold,
      documents: this.documents,
      harvestRatio: this.documents ? this.relevant / this.documents : 0,
      points: windows.map((w) => ({ documents: w.documents, meanSimilarity: w.mean, normalised: max > 0 ? w.mean / max : 0, harvestRatio: w.harvest })),
    };
  }
}

/** The series of a whole list of similarities, in crawl order. */
export function relevanceSeries(similarities: Iterable<number>, windowSize: number, threshold: number): RelevanceSeries {
  const builder = new RelevanceSeriesBuilder(windowSize, threshold);
  for (const s of similarities) builder.add(s);
  return builder.snapshot();
}
