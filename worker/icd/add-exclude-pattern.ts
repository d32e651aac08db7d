import { z } from 'zod';
import { icdSchema, parseIcd, regexSource } from './schema';

/**
 * An exclude pattern added to a crawl while it runs (POST /api/crawls/:id/exclusions): checked as
 * the ICD's `scope.exclude` patterns are (regexSource: it compiles, it cannot backtrack
 * exponentially), and not empty: an empty pattern matches every URL and would exclude the whole crawl.
 */
export const excludePatternSchema = z.string().min(1, 'Enter a pattern').pipe(regexSource);

/**
 * The crawl's ICD copy (Crawl.definition, JSON) with `pattern` added to its `scope.exclude`, the
 * rest as stored; or why not: the crawl excludes it already, or the ICD's limits refuse one more
 * (the message the ICD's schema gives). Pure.
 */
export function withExcludePattern(definition: string, pattern: string): { definition: string } | { error: string } {
  const raw = JSON.parse(definition) as Record<string, unknown>;
  const exclude = parseIcd(raw).scope.exclude;
  if (exclude.includes(pattern)) return { error: 'The crawl excludes this pattern already' };
  const scope = typeof raw.scope === 'object' && raw.scope !== null ? raw.scope : {};
  const next = { ...raw, scope: { ...scope, exclude: [...exclude, pattern] } };
  const parsed = icdSchema.safeParse(next);
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'The crawl definition would not be valid' };
  return { definition: JSON.stringify(next) };
}
