import { apiRoute, pageParams, upToParam } from '../../../../lib/server/handler';
import { existingCrawlId } from '../../../../lib/server/crawl-views';
import { equals, inIdOrder, listPage } from '../../../../lib/server/list-query';
import { crawlLogFilters } from './conditions';

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
  const { ids, total, newer } = listPage(db, { table: 'CrawlLogEntry', conditions, orderBy: 'id DESC', upTo: upToParam(url), offset, limit: pageSize });
  const [rows, groups] = await Promise.all([
    prisma.crawlLogEntry.findMany({ where: { id: { in: ids } } }),
    prisma.crawlLogEntry.groupBy({ by: ['outcome'], where: { crawlId }, _count: { _all: true } }),
  ]);
  const outcomes = groups.map((g) => ({ outcome: g.outcome, count: g._count._all })).sort((a, b) => b.count - a.count || a.outcome.localeCompare(b.outcome));
  return { items: inIdOrder(rows, ids), total, newer, page, pageSize, outcomes };
});
