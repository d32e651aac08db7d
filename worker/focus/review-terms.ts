import { createTextAnalyzer } from '../text';

/**
 * The topic terms a term typed in the review stands for: its words analysed as the crawl analyses
 * page text (stop words dropped, stemmed in the ICD's language), so that it can match. The reference
 * crawl proposes stems ('lighthous'); a typed 'Lighthouses' stored as such matched no page.
 */
export function reviewTermsOf(typed: string, language: string | undefined): string[] {
  return [...new Set(createTextAnalyzer({ language }).analyze(typed).terms)];
}
