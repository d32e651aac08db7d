import { setFlagsFromString } from 'node:v8';

/**
 * Makes every regular expression of this process that backtracks too much (V8: 50,000 backtracks)
 * finish on V8's linear-time engine instead. ICD scope and URL patterns, spam-list `re:` entries
 * and knowledge-base patterns run on every link, and a nesting safe-regex2 does not see, such as
 * `(a|a)*\.html$`, backtracks exponentially: one 40-character URL held a crawl for hours. Patterns
 * the linear engine cannot run (lookarounds, backreferences) still backtrack; the ICD schema's
 * star-height check is what guards those. Each process entry point calls this first.
 */
export function boundRegExpBacktracking(): void {
  setFlagsFromString('--enable-experimental-regexp-engine-on-excessive-backtracks');
}
