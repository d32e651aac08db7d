import { createTextAnalyzer } from '../text';
import type { SettingIssue } from './focus-settings';
import type { Icd } from './schema';

/**
 * Keywords of a focused crawl that give the topic vector no term, so they count for nothing
 * without a word: stop words ("The Who"), one-letter words ("R", "C++") and digits ("2024", "G7")
 * are not indexed. Each is refused at its field, saying so, with the entity as the way to find such
 * a name as written. Analysed as the crawl analyses keywords (focus-scorer.ts): in the ICD's
 * language, or the one detected in the keyword.
 */
export function keywordsWithoutTerms(focus: Icd['focus']): SettingIssue[] {
  if (!focus.enabled || !focus.keywords.length) return [];
  const text = createTextAnalyzer({ language: focus.language });
  return focus.keywords.flatMap((k, i) =>
    text.analyze(k.term).terms.length
      ? []
      : [{
          path: ['focus', 'keywords', i, 'term'],
          message: `“${k.term}” gives no word the focus can match: stop words (the, who…), one-letter words and digits are not indexed. To find a name as written, give it as an entity`,
        }],
  );
}
