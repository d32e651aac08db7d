import type { Icd } from '../icd/schema';
import { analysisConfigFromFocus, buildTopicVector, createPageAnalyzer, topicVectorToRecord, type PageAnalyzer } from '../analyze';
import { createTextAnalyzer, DocumentFrequencies, extractMainContent } from '../text';
import type { CrawlItem } from './stage';

/** One point of the live relevance chart (ARCOMEM Figure 8 style). */
export interface RelevancePoint {
  /** Documents crawled so far at the end of this window. */
  documents: number;
  meanSimilarity: number;
  /** meanSimilarity divided by the largest window mean so far. */
  normalised: number;
  harvestRatio: number;
}

/**
 * Focused crawling inside the engine: scores each page and its out-links with the online
 * analysis modules, and keeps the relevance series the cockpit charts.
 */
export class FocusAnalysis {
  private windowSum = 0;
  private windowCount = 0;
  private documents = 0;
  private relevant = 0;
  private windows: { documents: number; mean: number }[] = [];

  private constructor(private readonly analyzer: PageAnalyzer, private readonly focus: Icd['focus']) {}

  static create(focus: Icd['focus']): FocusAnalysis {
    const analyzer = createTextAnalyzer();
    // Without a reviewed reference crawl, the keywords and topics alone make the topic vector.
    const topicTerms = Object.keys(focus.topicTerms).length
      ? focus.topicTerms
      : topicVectorToRecord(buildTopicVector([], focus.keywords, focus.topics, { termsOf: (t) => analyzer.analyze(t).terms }).vector);
    const config = analysisConfigFromFocus({ ...focus, topicTerms }, { analyzer, documentFrequencies: new DocumentFrequencies() });
    return new FocusAnalysis(createPageAnalyzer(config), focus);
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
      link.breakdown = Object.fromEntries(Object.entries(scored.breakdown.scores ?? {}).map(([k, v]) => [k, Number(v)]));
      if (scored.excluded) link.excludedReason = 'spam';
    }
    this.record(analysis.similarity);
  }

  private record(similarity: number): void {
    this.documents += 1;
    if (similarity > this.focus.relevanceThreshold) this.relevant += 1;
    this.windowSum += similarity;
    this.windowCount += 1;
    if (this.windowCount >= this.focus.relevanceWindow) {
      this.windows.push({ documents: this.documents, mean: this.windowSum / this.windowCount });
      this.windowSum = 0;
      this.windowCount = 0;
    }
  }

  /** The relevance series: closed windows plus the window in progress. */
  snapshot(): { points: RelevancePoint[]; harvestRatio: number; documents: number } {
    const all = [...this.windows];
    if (this.windowCount) all.push({ documents: this.documents, mean: this.windowSum / this.windowCount });
    const max = Math.max(1e-9, ...all.map((w) => w.mean));
    const harvestRatio = this.documents ? this.relevant / this.documents : 0;
    return {
      documents: this.documents,
      harvestRatio,
      points: all.map((w) => ({ documents: w.documents, meanSimilarity: w.mean, normalised: w.mean / max, harvestRatio })),
    };
  }
}
