import { equals, urlContainsText, type SqlCondition } from '../../../../lib/server/list-query';

/** The crawl log's filters as asked: `outcome` (one outcome only) and `q` (URL contains, as written); unset when empty. */
export function crawlLogFilterValues(url: URL): { outcome?: string; q?: string } {
  return { outcome: url.searchParams.get('outcome')?.trim() || undefined, q: url.searchParams.get('q')?.trim() || undefined };
}

/** The crawl log's filters as the table and its download take them (crawlLogFilterValues). */
export function crawlLogFilters(url: URL): SqlCondition[] {
  const { outcome, q } = crawlLogFilterValues(url);
  return [...(outcome ? [equals('outcome', outcome)] : []), ...(q ? [urlContainsText(['url'], q)] : [])];
}
