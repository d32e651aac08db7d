import { equals, urlContainsText, type SqlCondition } from '../../../../lib/server/list-query';

/** The crawl log's filters as the table and its download take them: `outcome` (one outcome only) and `q` (URL contains, as written). */
export function crawlLogFilters(url: URL): SqlCondition[] {
  const outcome = url.searchParams.get('outcome')?.trim();
  const q = url.searchParams.get('q')?.trim();
  return [...(outcome ? [equals('outcome', outcome)] : []), ...(q ? [urlContainsText(['url'], q)] : [])];
}
