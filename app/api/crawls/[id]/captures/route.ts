import { apiRoute, idParam, pageParams } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/captures [view] ?page&pageSize&q → captures, newest first. */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma }) => {
  const url = new URL(req.url);
  const { page, pageSize, offset } = pageParams(url);
  const q = url.searchParams.get('q')?.trim();
  const where = { crawlId: idParam(params.id), ...(q ? { url: { contains: q } } : {}) };
  const [items, total] = await Promise.all([
    prisma.capture.findMany({
      where, orderBy: { id: 'desc' }, skip: offset, take: pageSize,
      select: { id: true, url: true, status: true, mime: true, size: true, recordType: true, payloadDigest: true, warcFile: true, warcOffset: true, depth: true, score: true, scoreBreakdown: true, similarity: true, fetchedAt: true, durationMs: true },
    }),
    prisma.capture.count({ where }),
  ]);
  return { items, total, page, pageSize };
});
