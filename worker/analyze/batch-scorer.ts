import { addInto, cosineTo, normalize, type TermVector } from '../text';
import { aggregateScores, type ModuleScores, type ModuleWeights, type ScoreBreakdown } from './aggregate';
import type { PageAnalysis } from './page-analyzer';
import { combineGranularities, type GranularityWeights } from './text-relevance';

/**
 * Batch prioritisation (ARCOMEM): links found while a batch of pages is processed are not scored
 * one by one; when the batch closes, each target URL is scored once from the sum of the source
 * documents' vectors and of the anchor vectors pointing at it. The sums are kept per granularity
 * (documents, paragraphs around the anchors, anchor texts) and combined like a single link's
 * scores, so the anchor evidence is not drowned by the much longer documents; a URL linked from
 * several pages of the batch gets one score built from all its evidence.
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
  granularityWeights?: GranularityWeights;
}

interface Evidence {
  documents: TermVector[];
  paragraphs: TermVector[];
  anchors: TermVector[];
  sources: Set<string>;
  inLinks: number;
  /** Per non-text module: running sum (for the mean), max and count. */
  others: Map<keyof ModuleScores, { sum: number; max: number; n: number }>;
  excluded: boolean;
}

/** Collects the links of a batch of analysed pages and scores them when the batch closes. */
export class BatchScorer {
  private evidence = new Map<string, Evidence>();
  /** Cosine of single vectors with the topic; most targets have one source, and pages share vectors. */
  private cosines = new Map<TermVector, number>();
  private readonly similarityToTopic: (v: TermVector) => number;

  constructor(
    topicVector: TermVector,
    private readonly moduleWeights: ModuleWeights,
    private readonly options: BatchScorerOptions = {},
  ) {
    this.similarityToTopic = cosineTo(topicVector);
  }

  /** Number of distinct URLs waiting for the batch to close. */
  get size(): number {
    return this.evidence.size;
  }

  /** Adds the out-links of one analysed page to the open batch. */
  add(page: PageAnalysis): void {
    for (const link of page.links) {
      let e = this.evidence.get(link.url);
      if (!e) {
        e = { documents: [], paragraphs: [], anchors: [], sources: new Set(), inLinks: 0, others: new Map(), excluded: false };
        this.evidence.set(link.url, e);
      }
      e.inLinks++;
      if (link.excluded) e.excluded = true;
      // A page linking twice to a URL contributes its document once.
      if (!e.sources.has(page.url)) {
        e.sources.add(page.url);
        e.documents.push(page.documentVector);
      }
      if (link.paragraphVector.size) e.paragraphs.push(link.paragraphVector);
      if (link.anchorVector.size) e.anchors.push(link.anchorVector);
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

  /** Cosine of the topic with the sum of the (normalised) vectors; undefined for none. */
  private similarity(vectors: TermVector[]): number | undefined {
    if (vectors.length === 0) return undefined;
    if (vectors.length === 1) {
      const v = vectors[0]!;
      let c = this.cosines.get(v);
      if (c === undefined) this.cosines.set(v, (c = this.similarityToTopic(v)));
      return c;
    }
    const sum: TermVector = new Map();
    for (const v of vectors) addInto(sum, normalize(v));
    return this.similarityToTopic(sum);
  }

  /**
   * Closes the batch: one score per URL (text from the summed evidence per granularity; entity
   * and AAH take their best occurrence, URL pattern and spam their mean). Empties the batch.
   */
  close(): BatchScore[] {
    const out: BatchScore[] = [];
    for (const [url, e] of this.evidence) {
      const text = combineGranularities(
        this.similarity(e.documents) ?? 0, this.similarity(e.paragraphs), this.similarity(e.anchors), this.options.granularityWeights,
      );
      const scores: ModuleScores = { text: text.score };
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
    this.cosines = new Map();
    return out;
  }
}
