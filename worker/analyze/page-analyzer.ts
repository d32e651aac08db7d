import { cosineTo, DocumentFrequencies, type TermVector, type TextAnalyzer } from '../text';
import { aggregateScores, DEFAULT_MODULE_WEIGHTS, type ModuleScores, type ModuleWeights, type ScoreBreakdown } from './aggregate';
import { compileEntities, type EntityDefinition } from './entity-module';
import { compileSpamFilter } from './spam-filter';
import { scoreLinkText, type GranularityWeights, type LinkTextScores } from './text-relevance';
import { compileUrlPatterns, type UrlPattern } from './url-pattern-module';

/**
 * Online analysis of one fetched page: every module scores the document and/or each out-link,
 * and the weighted average gives each link its priority. Pure apart from the document
 * frequencies it learns (owned by the caller, one per crawl).
 */

/**
 * An out-link as the extractor delivers it (structurally the same as worker/extract's
 * `ExtractedLink`; declared here so this folder needs nothing from there).
 */
export interface PageLink {
  url: string;
  anchorText?: string;
  /** The paragraph (or nearby text) around the anchor. */
  context?: string;
  kind?: string;
  /** A score in [0, 1] from the Application-Aware Helper for this link, when it has one. */
  aahBonus?: number;
}

/** One page to analyse: its URL, main-content text and out-links. */
export interface PageInput {
  url: string;
  text: string;
  links: readonly PageLink[];
  /** ISO 639-3 language when already known (skips detection); 'und' when detection could not tell. */
  language?: string;
}

/** The verdict on one out-link. */
export interface LinkAnalysis {
  url: string;
  kind?: string;
  /** Aggregated priority in [0, 1] (0 when excluded). */
  priority: number;
  breakdown: ScoreBreakdown;
  text: LinkTextScores;
  excluded?: 'spam';
  /** The blacklist entry behind an exclusion. */
  excludedBy?: string;
  /** TF-IDF vectors of the anchor text and its paragraph, for batch scoring. */
  anchorVector: TermVector;
  paragraphVector: TermVector;
}

/** The verdict on one page. */
export interface PageAnalysis {
  url: string;
  language: string;
  /** Raw term counts of the document (its terms after stop words and stemming). */
  termCounts: TermVector;
  /** The document's TF-IDF vector. */
  documentVector: TermVector;
  /** Cosine similarity of the document with the topic vector (the harvest-ratio measure). */
  similarity: number;
  /** Document-level module scores and their weighted average. */
  document: ScoreBreakdown;
  links: LinkAnalysis[];
}

/** What the analysis needs: the topic vector, the ICD's focus settings and the text tools. */
export interface AnalysisConfig {
  topicVector: TermVector;
  analyzer: TextAnalyzer;
  documentFrequencies: DocumentFrequencies;
  moduleWeights?: ModuleWeights;
  urlPatterns?: readonly UrlPattern[];
  blacklist?: readonly string[];
  includeDefaultBlacklist?: boolean;
  entities?: readonly EntityDefinition[];
  granularityWeights?: GranularityWeights;
  /** Add each analysed page to the document frequencies first (default true). */
  learnDocumentFrequencies?: boolean;
}

/** A configured page analyzer. */
export interface PageAnalyzer {
  analyze(page: PageInput): PageAnalysis;
  /** TF-IDF vector of a text in a known language (no learning). */
  vectorOf(text: string, language: string): TermVector;
  readonly moduleWeights: ModuleWeights;
}

/** Builds a page analyzer; compiles patterns, blacklist and entities once. */
export function createPageAnalyzer(config: AnalysisConfig): PageAnalyzer {
  const weights = config.moduleWeights ?? DEFAULT_MODULE_WEIGHTS;
  const urlPatterns = compileUrlPatterns(config.urlPatterns ?? []);
  const spam = compileSpamFilter(config.blacklist ?? [], { includeDefaults: config.includeDefaultBlacklist !== false });
  const entities = compileEntities(config.entities ?? []);
  const df = config.documentFrequencies;
  const similarityToTopic = cosineTo(config.topicVector);
  const learn = config.learnDocumentFrequencies !== false;

  function vectorOf(text: string, language: string): TermVector {
    return text ? df.weigh(config.analyzer.termCounts(text, language)) : new Map();
  }

  function analyze(page: PageInput): PageAnalysis {
    const language = config.analyzer.languageOf(page.text, page.language).iso6393;
    const termCounts = config.analyzer.termCounts(page.text, language);
    if (learn) df.addDocument(termCounts);
    const documentVector = df.weigh(termCounts);
    const similarity = similarityToTopic(documentVector);
    const docScores: ModuleScores = { text: similarity };
    const entityDoc = entities.active ? entities.documentScore(page.text) : 0;
    if (entities.active) docScores.entity = entityDoc;
    // Several links often share one paragraph: vectorise each distinct text once per page.
    const cache = new Map<string, TermVector>();
    const cachedVector = (text: string): TermVector => {
      let v = cache.get(text);
      if (!v) cache.set(text, (v = vectorOf(text, language)));
      return v;
    };
    const links = page.links.map((link): LinkAnalysis => {
      const anchorVector = cachedVector(link.anchorText ?? '');
      const paragraphVector = cachedVector(link.context ?? '');
      const text = scoreLinkText(similarityToTopic, similarity, paragraphVector, anchorVector, config.granularityWeights);
      const verdict = spam.check(link.url);
      const scores: ModuleScores = { text: text.score, spam: verdict.score };
      if (urlPatterns.active) scores.urlPattern = urlPatterns.score(link.url);
      if (entities.active) scores.entity = entities.linkScore(`${link.anchorText ?? ''}\n${link.context ?? ''}`, entityDoc);
      if (link.aahBonus !== undefined) scores.aah = link.aahBonus;
      const breakdown = aggregateScores(scores, weights);
      const out: LinkAnalysis = { url: link.url, priority: breakdown.priority, breakdown, text, anchorVector, paragraphVector };
      if (link.kind !== undefined) out.kind = link.kind;
      if (verdict.blacklisted) {
        out.excluded = 'spam';
        out.priority = 0;
        breakdown.priority = 0;
        if (verdict.matched) out.excludedBy = verdict.matched;
      }
      return out;
    });
    return { url: page.url, language, termCounts, documentVector, similarity, document: aggregateScores(docScores, weights), links };
  }

  return { analyze, vectorOf, moduleWeights: weights };
}
