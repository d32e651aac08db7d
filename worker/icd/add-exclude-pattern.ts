import { z } from 'zod';
import { icdSchema, regexSource } from './schema';

/**
 * An exclude pattern added to a crawl while it runs (POST /api/crawls/:id/exclusions): checked as
 * the ICD's `scope.exclude` patterns are (regexSource: it compiles, it cannot backtrack
 * exponentially), and not empty: an empty pattern matches every URL and would exclude the whole crawl.
 */
export const excludePatternSchema = z.string().min(1, 'Enter a pattern').pipe(regexSource);

/**
 * The stored ICD copy with its `scope.exclude` changed (`change`: the new list, or why not), the rest
 * as stored. The list is read as stored, not through the schema: a pattern stored before today's
 * checks on patterns (which the schema now refuses) can still be taken out.
 */
function withExcludeList(definition: string, change: (exclude: readonly string[]) => string[] | { error: string }): { definition: string } | { error: string } {
  const raw = JSON.parse(definition) as Record<string, unknown>;
  const scope = typeof raw.scope === 'object' && raw.scope !== null ? (raw.scope as Record<string, unknown>) : {};
  const stored = Array.isArray(scope.exclude) ? scope.exclude.filter((p): p is string => typeof p === 'string') : [];
  const exclude = change(stored);
  if (!Array.isArray(exclude)) return exclude;
  return { definition: JSON.stringify({ ...raw, scope: { ...scope, exclude } }) };
}

/**
 * The crawl's ICD copy (Crawl.definition, JSON) with `pattern` added to its `scope.exclude`, the
 * rest as stored; or why not: the crawl excludes it already, or the ICD's limits refuse one more
 * (the message the ICD's schema gives). Pure.
 */
export function withExcludePattern(definition: string, pattern: string): { definition: string } | { error: string } {
  const next = withExcludeList(definition, (exclude) => (exclude.includes(pattern) ? { error: 'The crawl excludes this pattern already' } : [...exclude, pattern]));
  if ('error' in next) return next;
  const parsed = icdSchema.safeParse(JSON.parse(next.definition));
  if (!parsed.success) return { error: parsed.error.issues[0]?.message ?? 'The crawl definition would not be valid' };
  return next;
}

/**
 * The crawl's ICD copy with `pattern` taken out of its `scope.exclude` (DELETE
 * /api/crawls/:id/exclusions), the rest as stored; or why not: the crawl does not exclude it. Pure.
 */
export function withoutExcludePattern(definition: string, pattern: string): { definition: string } | { error: string } {
  return withExcludeList(definition, (exclude) => (exclude.includes(pattern) ? exclude.filter((p) => p !== pattern) : { error: 'The crawl does not exclude this pattern' }));
}

/**
 * The patterns a crawl's engine excludes that its ICD copy no longer has (`stored`: its
 * `scope.exclude` now): removed by the archivist since the engine took them. Pure.
 */
export function patternsRemoved(engine: readonly string[], stored: readonly string[]): string[] {
  const kept = new Set(stored);
  return engine.filter((p) => !kept.has(p));
}
