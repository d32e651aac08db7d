import type { DocumentFrequencies, TextAnalyzer } from '../text';
import type { AnalysisConfig } from './page-analyzer';
import { topicVectorFromRecord } from './topic-vector';

/**
 * The part of the ICD's `focus` section the analysis reads (structurally the zod schema's
 * output, so a parsed ICD's `focus` fits).
 */
export interface FocusSettings {
  topicTerms: Record<string, number>;
  moduleWeights: { text: number; urlPattern: number; spam: number; entity: number; aah: number };
  urlPatterns: { pattern: string; weight: number }[];
  blacklist: string[];
  entities: { name: string; aliases: string[] }[];
}

/** Builds the page analyzer's configuration from a validated ICD's `focus` section. */
export function analysisConfigFromFocus(
  focus: FocusSettings,
  tools: { analyzer: TextAnalyzer; documentFrequencies: DocumentFrequencies },
): AnalysisConfig {
  return {
    topicVector: topicVectorFromRecord(focus.topicTerms),
    analyzer: tools.analyzer,
    documentFrequencies: tools.documentFrequencies,
    moduleWeights: { ...focus.moduleWeights },
    urlPatterns: focus.urlPatterns,
    blacklist: focus.blacklist,
    entities: focus.entities,
  };
}
