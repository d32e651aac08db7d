import type { Icd } from '../icd/schema';
import { analysisConfigFromFocus, buildTopicVector, createPageAnalyzer, topicVectorToRecord, type PageAnalysis, type PageAnalyzer } from '../analyze';
import { createTextAnalyzer, DocumentFrequencies, LanguageMemo } from '../text';
import { RelevanceSeriesBuilder, type RelevanceSeries } from '../analyze/relevance-series';
import type { Frontier } from '../frontier';
import { FocusBatch, type BatchRescore } from './focus-batch';
import type { CrawlItem } from './stage';

/**
 * Focused crawling inside the engine: scores each page and its out-links with the online
 * analysis modules, and keeps the relevance series the cockpit charts. In batch mode
 * (focus.batch.enabled) the out-links are still queued with their single-link scores when their
 * page is committed, but provisionally; once `bl` committed pages make a batch, every URL they link
 * to is rescored from the batch's summed evidence with the ICD's update function (focus-batch.ts).
 */
export class FocusAnalysis {
  private readonly series: RelevanceSeriesBuilder;
  /** Analyses of pages not committed yet (batch mode): they join the batch once their links are queued. */
  private readonly uncommitted = new WeakMap<CrawlItem, PageAnalysis>();

  private constructor(
    private readonly analyzer: PageAnalyzer,
    private readonly focus: Icd['focus'],
    earlierSimilarities: readonly number[],
    private readonly batch: FocusBatch | null,
    /** Null when the ICD fixes the language. */
    private readonly languages: LanguageMemo | null,
  ) {
    this.series = new RelevanceSeriesBuilder(focus.relevanceWindow, focus.relevanceThreshold);
    for (const s of earlierSimilarities) this.series.add(s);
  }

  /** `earlierSimilarities`: the crawl's stored ones, so a resumed crawl's chart goes on where it was. */
  static create(focus: Icd['focus'], earlierSimilarities: readonly number[] = []): FocusAnalysis {
    const analyzer = createTextAnalyzer({ language: focus.language });
    // Without a reviewed reference crawl, the keywords and topics alone make the topic vector.
    const topicTerms = Object.keys(focus.topicTerms).length
      ? focus.topicTerms
      : topicVectorToRecord(buildTopicVector([], focus.keywords, focus.topics, { termsOf: (t) => analyzer.analyze(t).terms }).vector);
    const config = analysisConfigFromFocus({ ...focus, topicTerms }, { analyzer, documentFrequencies: new DocumentFrequencies() });
    const pageAnalyzer = createPageAnalyzer(config);
    const batch = focus.batch.enabled ? new FocusBatch(config.topicVector, pageAnalyzer.moduleWeights, focus.batch.bl, config.granularityWeights) : null;
    const languages = focus.language ? null : new LanguageMemo((text) => analyzer.detect(text));
    return new FocusAnalysis(pageAnalyzer, focus, earlierSimilarities, batch, languages);
  }

  /** True when out-links are queued provisionally and rescored when their batch closes. */
  get batchMode(): boolean {
    return this.batch !== null;
  }

  /** Scores the page (item.similarity) and each out-link (priority and breakdown). */
  analyse(item: CrawlItem): void {
    const text = item.text ?? '';
    const links = (item.links ?? []).filter((l) => !l.excludedReason);
    const language = this.languages?.languageOf(item.url, text);
    const analysis = this.analyzer.analyze({ url: item.url, text, links, language });
    item.similarity = analysis.similarity;
    const byUrl = new Map(analysis.links.map((l) => [l.url, l]));
    for (const link of links) {
      const scored = byUrl.get(link.url);
      if (!scored) continue;
      link.priority = scored.priority;
      link.breakdown = { scores: numbersOf(scored.breakdown.scores), weights: numbersOf(scored.breakdown.weights) };
      if (scored.excluded) link.excludedReason = 'spam';
    }
    this.series.add(analysis.similarity);
    if (this.batch) this.uncommitted.set(item, analysis);
  }

  /**
   * The item was committed (its out-links are in the frontier): in batch mode its analysis joins
   * the open batch, and a full batch is applied to the frontier. Returns the URLs rescored.
   */
  committed(item: CrawlItem, frontier: Frontier, crawlId: number): number {
    const analysis = this.uncommitted.get(item);
    if (!analysis || !this.batch) return 0;
    this.uncommitted.delete(item);
    if (!item.plan) return 0; // nothing was queued from it
    const rescores = this.batch.add(analysis);
    return rescores ? this.apply(rescores, frontier, crawlId) : 0;
  }

  /** Closes the open batch (crawl end, pause, stop) and applies it. Returns the URLs rescored. */
  closeBatch(frontier: Frontier, crawlId: number): number {
    if (!this.batch || this.batch.pending === 0) return 0;
    return this.apply(this.batch.close(), frontier, crawlId);
  }

  /**
   * URLs already fetched, in flight or never queued (out of scope) are not rescored. A database
   * error leaves the remaining URLs with their provisional scores: worse order, nothing lost.
   */
  private apply(rescores: readonly BatchRescore[], frontier: Frontier, crawlId: number): number {
    let n = 0;
    try {
      for (const r of rescores) if (frontier.rescore(crawlId, r.url, r.score, this.focus.updateFunction, r.breakdown)) n += 1;
    } catch (err) {
      console.error(`tidemark: batch rescoring stopped after ${n} URLs: ${(err as Error).message}`);
    }
    return n;
  }

  /** The relevance series so far (worker/analyze/relevance-series.ts). */
  snapshot(): RelevanceSeries {
    return this.series.snapshot();
  }
}

const numbersOf = (record: object | undefined): Record<string, number> =>
  Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, Number(v)]));
