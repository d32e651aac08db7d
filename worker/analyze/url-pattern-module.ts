/**
 * URL-pattern scoring: the archivist's regular expressions, each with a weight in [-1, 1]
 * (negative = less interesting, e.g. `/tag/` pages). A link's score is 0.5 (neutral) moved by the
 * weights of every pattern it matches, clamped to [0, 1].
 */
import { caseInsensitiveRegExp } from '../process/case-insensitive-regexp';

/** A user-weighted URL pattern as in the ICD. */
export interface UrlPattern {
  pattern: string;
  weight: number;
}

/** Compiled patterns; `active` is false when the ICD has none (the module then stays silent). */
export interface UrlPatternScorer {
  active: boolean;
  score(url: string): number;
}

/** Compiles patterns once; invalid ones (the schema refuses them, but be safe) are skipped. */
export function compileUrlPatterns(patterns: readonly UrlPattern[]): UrlPatternScorer {
  const compiled: { re: RegExp; weight: number }[] = [];
  for (const p of patterns) {
    try {
      compiled.push({ re: caseInsensitiveRegExp(p.pattern), weight: p.weight });
    } catch {
      // Skipped: a broken pattern must not stop the crawl.
    }
  }
  return {
    active: compiled.length > 0,
    score(url) {
      let s = 0.5;
      for (const { re, weight } of compiled) if (re.test(url)) s += weight / 2;
      return s < 0 ? 0 : s > 1 ? 1 : s;
    },
  };
}
