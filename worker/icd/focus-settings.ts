import type { Icd } from './schema';

/** A setting refused with the path of its field, as zod's issues have it (the form shows it there). */
export interface SettingIssue {
  path: (string | number)[];
  message: string;
}

/**
 * Focus settings that validate one by one but can never work together, refused when a person
 * writes them (the form, the API, the CLI: user-icd.ts), not when a stored crawl's definition is
 * read again, so a crawl created before still resumes. With focused crawling off they do nothing.
 * Client-safe: no text analysis here (keyword-terms.ts has the check that needs it).
 */
export function focusSettingProblems(focus: Icd['focus']): SettingIssue[] {
  if (!focus.enabled) return [];
  const issues: SettingIssue[] = [];
  // The priority is the modules' weighted average: with every weight 0 it is 0 for every link.
  if (Object.values(focus.moduleWeights).every((w) => w === 0)) {
    issues.push({
      path: ['focus', 'moduleWeights', 'text'],
      message: 'Give at least one module a weight above 0: with all at 0 every link gets priority 0 and the crawl is not focused',
    });
  }
  // The harvest ratio counts pages whose similarity is above the threshold; none is above 1.
  if (focus.relevanceThreshold >= 1) {
    issues.push({ path: ['focus', 'relevanceThreshold'], message: 'Below 1: a page counts as relevant when its similarity is above the threshold, and no similarity is above 1' });
  }
  return issues;
}
