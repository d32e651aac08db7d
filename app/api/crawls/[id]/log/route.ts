import { apiRoute, idParam, pageParams } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/log [view] ?page&pageSize&outcome → crawl-log entries, newest first. */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma }) => {
  const url = new URL(req.url);
  const { page, pageSize, offset } = pageParams(url);
  const outcome = url.searchParams.get('outcome')?.trim();
  const where = { crawlId: idParam(params.id), ...(outcome ? { outcome } : {}) };
  const [items, total] = await Promise.all([
    prisma.crawlLogEntry.findMany({ where, orderBy: { id: 'desc' }, skip: offset, take: pageSize }),
    prisma.crawlLogEntry.count({ where }),
  ]);
  return { items, total, page, pageSize };
});
