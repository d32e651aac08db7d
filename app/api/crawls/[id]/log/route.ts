import { apiRoute, pageParams, upToParam } from '../../../../lib/server/handler';
import { existingCrawlId } from '../../../../lib/server/crawl-views';
import { equals, inIdOrder, listPage } from '../../../../lib/server/list-query';
import { crawlLogFilters, crawlLogFilterValues } from './conditions';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/log [view] ?page&pageSize&outcome&q&upTo → crawl-log entries, newest first
 * (`outcome`: one outcome only; `q`: URL contains, as written; `upTo`: entries up to that id only, so
 * the pages past the first stay put while a crawl adds entries, and `newer` counts those added
 * since), and how many entries of the crawl have each outcome (for the filter).
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const url = new URL(req.url);
  const { page, pageSize, offset } = pageParams(url);
  const crawlId = await existingCrawlId(prisma, params.id);
  const conditions = [equals('crawlId', crawlId), ...crawlLogFilters(url)];
  // The outcomes' counts from the crawl's log tallies (a trigger keeps them), in the page's read
  // transaction: the total of a list filtered by outcome at most is one of them, not a count of the log.
  let outcomes: { outcome: string; count: number }[] = [];
  const readOutcomes = () => (outcomes = db.prepare('SELECT outcome, SUM(entries) AS count FROM CrawlLogTally WHERE crawlId = ? GROUP BY outcome ORDER BY count DESC, outcome').all(crawlId) as typeof outcomes);
  const { outcome, q } = crawlLogFilterValues(url);
  const counted = q
    ? undefined
    : () => readOutcomes().reduce((sum, o) => sum + (!outcome || o.outcome === outcome ? o.count : 0), 0);
  const { ids, total, newer } = listPage(db, { table: 'CrawlLogEntry', conditions, orderBy: 'id DESC', upTo: upToParam(url), offset, limit: pageSize, counted });
  if (counted === undefined) readOutcomes();
  const rows = await prisma.crawlLogEntry.findMany({ where: { id: { in: ids } } });
  return { items: inIdOrder(rows, ids), total, newer, page, pageSize, outcomes };
});
