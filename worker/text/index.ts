/**
 * The text pipeline (pure): main content → language → tokens → stop words and stems → sparse
 * term vectors weighted by TF-IDF with document frequencies learnt online.
 */
export { extractMainContent, type MainContent, type MainContentOptions } from './main-content';
export { LanguageMemo, languageSection, type LanguageMemoOptions } from './language-memo';
export { detectLanguage, languageInfo, stemmableLanguages, type LanguageInfo } from './language';
export { tokenize } from './tokenize';
export { createTextAnalyzer, type TextAnalyzer, type TextAnalyzerOptions, type AnalyzedText } from './text-analyzer';
export {
  type TermVector, termFrequencies, norm, dot, cosine, cosineTo, normalize, addInto, sumVectors, topTerms,
} from './term-vector';
export { DocumentFrequencies, type DocumentFrequenciesJson } from './document-frequencies';
