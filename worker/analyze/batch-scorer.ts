import { addInto, cosine, normalize, type TermVector } from '../text';
import { aggregateScores, type ModuleScores, type ModuleWeights, type ScoreBreakdown } from './aggregate';
import type { PageAnalysis } from './page-analyzer';

/**
 * Batch prioritisation (ARCOMEM): links found while a batch of pages is processed are not scored
 * one by one; when the batch closes, each target URL is scored once from the sum of the source
 * documents' vectors and of the anchor vectors (anchor text and, by default, its paragraph)
 * pointing at it. A URL linked from several pages of the batch thus gets one score built from all
 * of its evidence rather than several noisy ones.
 */

/** One URL's score when a batch closes. */
export interface BatchScore {
  url: string;
  priority: number;
  breakdown: ScoreBreakdown;
  /** How many links of the batch pointed at the URL. */
  inLinks: number;
  excluded?: 'spam';
}

/** Options of a {@link BatchScorer}. */
export interface BatchScorerOptions {
  /** Also add the paragraph around each anchor to the URL's evidence (default true). */
  includeParagraphs?: boolean;
  /** Weight of the source documents' vectors against the anchor evidence (default 1). */
  documentWeight?: number;
}

interface Evidence {
  vector: TermVector;
  sources: Set<string>;
  inLinks: number;
  /** Per non-text module: running sum (for the mean) and max. */
  others: Map<keyof ModuleScores, { sum: number; max: number; n: number }>;
  excluded: boolean;
}

/** Collects the links of a batch of analysed pages and scores them when the batch closes. */
export class BatchScorer {
  private evidence = new Map<string, Evidence>();
  private readonly includeParagraphs: boolean;
  private readonly documentWeight: number;

  constructor(
    private readonly topicVector: TermVector,
    private readonly moduleWeights: ModuleWeights,
    options: BatchScorerOptions = {},
  ) {
    this.includeParagraphs = options.includeParagraphs !== false;
    this.documentWeight = options.documentWeight ?? 1;
  }

  /** Number of distinct URLs waiting for the batch to close. */
  get size(): number {
    return this.evidence.size;
  }

  /** Adds the out-links of one analysed page to the open batch. */
  add(page: PageAnalysis): void {
    const doc = normalize(page.documentVector);
    for (const link of page.links) {
      let e = this.evidence.get(link.url);
      if (!e) {
        e = { vector: new Map(), sources: new Set(), inLinks: 0, others: new Map(), excluded: false };
        this.evidence.set(link.url, e);
      }
      e.inLinks++;
      if (link.excluded) e.excluded = true;
      // A page linking twice to a URL contributes its document once.
      if (!e.sources.has(page.url)) {
        e.sources.add(page.url);
        addInto(e.vector, doc, this.documentWeight);
      }
      addInto(e.vector, normalize(link.anchorVector));
      if (this.includeParagraphs) addInto(e.vector, normalize(link.paragraphVector));
      for (const [name, score] of Object.entries(link.breakdown.scores) as [keyof ModuleScores, number][]) {
        if (name === 'text' || score === undefined) continue;
        const o = e.others.get(name) ?? { sum: 0, max: 0, n: 0 };
        o.sum += score;
        o.max = Math.max(o.max, score);
        o.n++;
        e.others.set(name, o);
      }
    }
  }

  /**
   * Closes the batch: one score per URL (text = cosine of the topic with the summed evidence;
   * entity and AAH take their best occurrence, URL pattern and spam their mean). Empties the batch.
   */
  close(): BatchScore[] {
    const out: BatchScore[] = [];
    for (const [url, e] of this.evidence) {
      const scores: ModuleScores = { text: cosine(this.topicVector, e.vector) };
      for (const [name, o] of e.others) scores[name] = name === 'entity' || name === 'aah' ? o.max : o.sum / o.n;
      const breakdown = aggregateScores(scores, this.moduleWeights);
      const score: BatchScore = { url, priority: breakdown.priority, breakdown, inLinks: e.inLinks };
      if (e.excluded) {
        score.excluded = 'spam';
        score.priority = 0;
        breakdown.priority = 0;
      }
      out.push(score);
    }
    this.evidence = new Map();
    return out;
  }
}
