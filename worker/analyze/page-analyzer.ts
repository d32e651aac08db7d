import { cosineTo, DocumentFrequencies, norm, type TermVector, type TextAnalyzer } from '../text';
import { aggregateScores, DEFAULT_MODULE_WEIGHTS, type ModuleScores, type ModuleWeights, type ScoreBreakdown } from './aggregate';
import { compileEntities, type EntityDefinition } from './entity-module';
import { compileSpamFilter } from './spam-filter';
import { combineGranularities, scoreLinkText, type GranularityWeights, type LinkTextScores } from './text-relevance';
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

/** The verdict on one out-link, as the crawl applies it. */
export interface LinkScores {
  url: string;
  kind?: string;
  /** Aggregated priority in [0, 1] (0 when excluded). */
  priority: number;
  breakdown: ScoreBreakdown;
  text: LinkTextScores;
  excluded?: 'spam';
  /** The blacklist entry behind an exclusion. */
  excludedBy?: string;
}

/** The verdict on one out-link, with what batch scoring sums. */
export interface LinkAnalysis extends LinkScores {
  /** TF-IDF vectors of the anchor text and its paragraph, for batch scoring. */
  anchorVector: TermVector;
  paragraphVector: TermVector;
}

/** The verdict on one page, as the crawl applies it. */
export interface PageScores {
  url: string;
  language: string;
  /** Cosine similarity of the document with the topic vector (the harvest-ratio measure). */
  similarity: number;
  /** Document-level module scores and their weighted average. */
  document: ScoreBreakdown;
  links: LinkScores[];
}

/** The verdict on one page, with its vectors (batch scoring sums them). */
export interface PageAnalysis extends PageScores {
  /** Raw term counts of the document (its terms after stop words and stemming). */
  termCounts: TermVector;
  /** The document's TF-IDF vector. */
  documentVector: TermVector;
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
  /**
   * The same verdicts as analyze() (to the last bit), without the vectors: cheaper, for crawls
   * that do not score in batches. It learns the document frequencies as analyze() does.
   */
  score(page: PageInput): PageScores;
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

  const topicNorm = norm(config.topicVector);
  /** cosineTo(topic)(vectorOf(text)), undefined for a text without terms, without building the vector. */
  function similarityOf(text: string, language: string): number | undefined {
    return text ? df.cosineOfWeighted(config.analyzer.termCounts(text, language), config.topicVector, topicNorm) : undefined;
  }

  /** The page's language and term counts, learnt into the document frequencies (analyze() and score() alike). */
  function assess(page: PageInput) {
    const language = config.analyzer.languageOf(page.text, page.language).iso6393;
    const termCounts = config.analyzer.termCounts(page.text, language);
    if (learn) df.addDocument(termCounts);
    return { language, termCounts };
  }

  /** The document's module scores, given its similarity with the topic. */
  function documentScores(page: PageInput, similarity: number) {
    const docScores: ModuleScores = { text: similarity };
    const entityDoc = entities.active ? entities.documentScore(page.text) : 0;
    if (entities.active) docScores.entity = entityDoc;
    return { entityDoc, document: aggregateScores(docScores, weights) };
  }

  /** A link's verdict, given its text scores: the other modules, the weighted average, the spam exclusion. */
  function linkScores(link: PageLink, text: LinkTextScores, entityDoc: number): LinkScores {
    const verdict = spam.check(link.url);
    const scores: ModuleScores = { text: text.score, spam: verdict.score };
    if (urlPatterns.active) scores.urlPattern = urlPatterns.score(link.url);
    if (entities.active) scores.entity = entities.linkScore(`${link.anchorText ?? ''}\n${link.context ?? ''}`, entityDoc);
    if (link.aahBonus !== undefined) scores.aah = link.aahBonus;
    const breakdown = aggregateScores(scores, weights);
    const out: LinkScores = { url: link.url, priority: breakdown.priority, breakdown, text };
    if (link.kind !== undefined) out.kind = link.kind;
    if (verdict.blacklisted) {
      out.excluded = 'spam';
      out.priority = 0;
      breakdown.priority = 0;
      if (verdict.matched) out.excludedBy = verdict.matched;
    }
    return out;
  }

  function analyze(page: PageInput): PageAnalysis {
    const { language, termCounts } = assess(page);
    const documentVector = df.weigh(termCounts);
    const similarity = similarityToTopic(documentVector);
    const { entityDoc, document } = documentScores(page, similarity);
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
      // The vectors are added to the verdict itself: a spread copy of it per link cost ~20% of analyze().
      const out = linkScores(link, text, entityDoc) as LinkAnalysis;
      out.anchorVector = anchorVector;
      out.paragraphVector = paragraphVector;
      return out;
    });
    return { url: page.url, language, termCounts, documentVector, similarity, document, links };
  }

  function score(page: PageInput): PageScores {
    const { language, termCounts } = assess(page);
    const similarity = df.cosineOfWeighted(termCounts, config.topicVector, topicNorm) ?? 0;
    const { entityDoc, document } = documentScores(page, similarity);
    const cache = new Map<string, number | undefined>();
    const cachedSimilarity = (text: string): number | undefined => {
      if (cache.has(text)) return cache.get(text);
      const s = similarityOf(text, language);
      cache.set(text, s);
      return s;
    };
    const links = page.links.map((link): LinkScores => {
      const anchor = cachedSimilarity(link.anchorText ?? '');
      const text = combineGranularities(similarity, cachedSimilarity(link.context ?? ''), anchor, config.granularityWeights);
      return linkScores(link, text, entityDoc);
    });
    return { url: page.url, language, similarity, document, links };
  }

  return { analyze, score, vectorOf, moduleWeights: weights };
}
