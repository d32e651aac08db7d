import type { Icd } from '../icd/schema';
import {
  analysisConfigFromFocus, buildTopicVector, createPageAnalyzer, DEFAULT_MODULE_WEIGHTS, topicVectorToRecord,
  type AnalysisConfig, type ModuleName, type PageAnalysis, type PageAnalyzer, type PageInput, type PageLink, type PageScores,
} from '../analyze';
import { extractHtml, type PageLinkSettings } from '../extract';
import { createTextAnalyzer, DocumentFrequencies, LanguageMemo } from '../text';

/**
 * What scores a crawl's pages, built from the ICD's focus section the same way in the crawl's
 * thread and in the analysis thread (analysis-thread.ts): the analysis modules, the document
 * frequencies they learn and the language of each site section.
 */
export interface FocusScorer {
  readonly config: AnalysisConfig;
  readonly analyzer: PageAnalyzer;
  /** Null when the ICD fixes the language. */
  readonly languages: LanguageMemo | null;
}

export function createFocusScorer(focus: Icd['focus']): FocusScorer {
  const text = createTextAnalyzer({ language: focus.language });
  // Without a reviewed reference crawl, the keywords and topics alone make the topic vector.
  const topicTerms = Object.keys(focus.topicTerms).length
    ? focus.topicTerms
    : topicVectorToRecord(buildTopicVector([], focus.keywords, focus.topics, { termsOf: (t) => text.analyze(t).terms }).vector);
  const config = analysisConfigFromFocus({ ...focus, topicTerms }, { analyzer: text, documentFrequencies: new DocumentFrequencies() });
  return {
    config,
    analyzer: createPageAnalyzer(config),
    languages: focus.language ? null : new LanguageMemo((t) => text.detect(t)),
  };
}

/**
 * A page's verdicts as the crawl applies them, per out-link in the order given: priority, module
 * scores and weights (columns of `modules`; NaN where a module gave no score or took no part) and
 * the spam exclusion. Flat typed arrays, so they cross from the analysis thread without a copy.
 */
export interface LinkVerdicts {
  similarity: number;
  modules: ModuleName[];
  priorities: Float64Array;
  scores: Float64Array;
  weights: Float64Array;
  excluded: Uint8Array;
}

/** A scored page: its verdicts, and the whole analysis when batch prioritisation reads it. */
export interface ScoredPage {
  verdicts: LinkVerdicts;
  analysis?: PageAnalysis;
}

const MODULES = Object.keys(DEFAULT_MODULE_WEIGHTS) as ModuleName[];

/** A page as the crawl hands it to focused analysis: its decoded HTML and its out-links (AAH verdicts included). */
export interface HtmlPage {
  url: string;
  html: string;
  links: PageLink[];
  /** What the crawl's own pass resolved the page's references to (HtmlExtraction.resolved). */
  resolved?: ReadonlyMap<string, string | null>;
  /** The encoding the crawl's own pass encoded the links' queries in (HtmlExtractOptions.encoding); unset for UTF-8. */
  encoding?: string;
}

/**
 * The page's main text, and each link's anchor text and paragraph, read from its HTML with the
 * link extractor's text collection on (the crawl's own pass leaves it off: only focused analysis
 * reads them, and it runs on its own thread). The texts are written into the page's links (both
 * callers pass links made for the analysis); links the extractor did not find keep what they had.
 * The page's URLs are resolved as the crawl's pass resolved them (`settings`, the page's encoding),
 * or its links would not be found (a legacy page's query links after a `<base>`, submitted forms).
 */
export function pageFromHtml(page: HtmlPage, settings: PageLinkSettings): Omit<PageInput, 'language'> {
  const extraction = extractHtml(page.html, page.url, { ...settings, encoding: page.encoding, text: true, markup: false, resolved: page.resolved });
  const found = new Map(extraction.links.map((l) => [l.url, l]));
  for (const link of page.links) {
    const f = found.get(link.url);
    if (!f) continue;
    link.anchorText = f.anchorText;
    link.context = f.context;
  }
  return { url: page.url, text: extraction.mainText, links: page.links };
}

/**
 * Scores one page: its section's language, then every module (and learns its document
 * frequencies). The vectors are built only when the whole analysis is kept (batch scoring).
 */
export function scorePage(scorer: FocusScorer, page: Omit<PageInput, 'language'>, keepAnalysis: boolean): ScoredPage {
  const input = { ...page, language: scorer.languages?.languageOf(page.url, page.text) };
  if (!keepAnalysis) return { verdicts: verdictsOf(scorer.analyzer.score(input)) };
  const analysis = scorer.analyzer.analyze(input);
  return { verdicts: verdictsOf(analysis), analysis };
}

function verdictsOf(scored: PageScores): LinkVerdicts {
  const n = scored.links.length;
  const m = MODULES.length;
  const verdicts: LinkVerdicts = {
    similarity: scored.similarity,
    modules: MODULES,
    priorities: new Float64Array(n),
    scores: new Float64Array(n * m).fill(NaN),
    weights: new Float64Array(n * m).fill(NaN),
    excluded: new Uint8Array(n),
  };
  scored.links.forEach((link, i) => {
    verdicts.priorities[i] = link.priority;
    if (link.excluded) verdicts.excluded[i] = 1;
    MODULES.forEach((name, k) => {
      const score = link.breakdown.scores[name];
      const weight = link.breakdown.weights[name];
      if (score !== undefined) verdicts.scores[i * m + k] = score;
      if (weight !== undefined) verdicts.weights[i * m + k] = weight;
    });
  });
  return verdicts;
}

/**
 * The module scores and weights of link `i` as the frontier stores them: the JSON of
 * `{scores: {module: score}, weights: {module: weight}}`, written directly (one per out-link of
 * every page) with the numbers as JSON.stringify writes them.
 */
export function breakdownJsonOf(v: LinkVerdicts, i: number): string {
  const m = v.modules.length;
  const scores: string[] = [];
  const weights: string[] = [];
  for (let k = 0; k < m; k++) {
    const score = v.scores[i * m + k]!;
    const weight = v.weights[i * m + k]!;
    if (!Number.isNaN(score)) scores.push(`"${v.modules[k]}":${jsonNumber(score)}`);
    if (!Number.isNaN(weight)) weights.push(`"${v.modules[k]}":${jsonNumber(weight)}`);
  }
  // Joined, so each breakdown is one flat string: the frontier holds thousands until it writes them.
  return ['{"scores":{', scores.join(','), '},"weights":{', weights.join(','), '}}'].join('');
}

/** A number as JSON writes it (Infinity becomes null, as there). */
function jsonNumber(x: number): string {
  return Number.isFinite(x) ? String(x) : 'null';
}
