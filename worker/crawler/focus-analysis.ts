import type { Icd } from '../icd/schema';
import { analysisConfigFromFocus, buildTopicVector, createPageAnalyzer, topicVectorToRecord, type PageAnalyzer } from '../analyze';
import { createTextAnalyzer, DocumentFrequencies, extractMainContent } from '../text';
import { RelevanceSeriesBuilder, type RelevanceSeries } from '../analyze/relevance-series';
import type { CrawlItem } from './stage';

/**
 * Focused crawling inside the engine: scores each page and its out-links with the online
 * analysis modules, and keeps the relevance series the cockpit charts.
 */
export class FocusAnalysis {
  private readonly series: RelevanceSeriesBuilder;

  private constructor(private readonly analyzer: PageAnalyzer, focus: Icd['focus'], earlierSimilarities: readonly number[]) {
    this.series = new RelevanceSeriesBuilder(focus.relevanceWindow, focus.relevanceThreshold);
    for (const s of earlierSimilarities) this.series.add(s);
  }

  /** `earlierSimilarities`: the crawl's stored ones, so a resumed crawl's chart goes on where it was. */
  static create(focus: Icd['focus'], earlierSimilarities: readonly number[] = []): FocusAnalysis {
    const analyzer = createTextAnalyzer();
    // Without a reviewed reference crawl, the keywords and topics alone make the topic vector.
    const topicTerms = Object.keys(focus.topicTerms).length
      ? focus.topicTerms
      : topicVectorToRecord(buildTopicVector([], focus.keywords, focus.topics, { termsOf: (t) => analyzer.analyze(t).terms }).vector);
    const config = analysisConfigFromFocus({ ...focus, topicTerms }, { analyzer, documentFrequencies: new DocumentFrequencies() });
    return new FocusAnalysis(createPageAnalyzer(config), focus, earlierSimilarities);
  }

  /** Scores the page (item.similarity) and each out-link (priority and breakdown). */
  analyse(item: CrawlItem): void {
    const text = item.html ? extractMainContent(item.html.toString('utf8')).text : item.text ?? '';
    const links = (item.links ?? []).filter((l) => !l.excludedReason);
    const analysis = this.analyzer.analyze({ url: item.url, text, links });
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
  }

  /** The relevance series so far (worker/analyze/relevance-series.ts). */
  snapshot(): RelevanceSeries {
    return this.series.snapshot();
  }
}

const numbersOf = (record: object | undefined): Record<string, number> =>
  Object.fromEntries(Object.entries(record ?? {}).map(([k, v]) => [k, Number(v)]));
