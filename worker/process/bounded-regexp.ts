import { setFlagsFromString } from 'node:v8';
import { REGEXP_BACKTRACK_FLAG } from './regexp-backtrack-flag.mjs';

/**
 * Makes every regular expression of this process that backtracks too much (V8: 50,000 backtracks)
 * finish on V8's linear-time engine instead. ICD scope and URL patterns, spam-list `re:` entries
 * and knowledge-base patterns run on every link, and a nesting the star-height check does not see,
 * such as `(a|a)*\.html$`, backtracks exponentially: one 40-character URL held a crawl for hours.
 * Patterns the linear engine cannot run (lookarounds, backreferences, counts over 16) still
 * backtrack; regexp-safety.ts refuses those that can backtrack for long. The linear engine takes no
 * `i` flag either: compile a user's case-insensitive pattern with caseInsensitiveRegExp
 * (case-insensitive-regexp.ts), not `new RegExp(source, 'i')`. Each process entry point calls this first.
 */
export function boundRegExpBacktracking(): void {
  setFlagsFromString(REGEXP_BACKTRACK_FLAG);
}
