import { apiRoute, pageParams } from '../../../../lib/server/handler';
import { existingCrawlId } from '../../../../lib/server/crawl-views';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/captures [view] ?page&pageSize&q&sort=score → captures, newest (or most relevant) first. */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma }) => {
  const url = new URL(req.url);
  const { page, pageSize, offset } = pageParams(url);
  const q = url.searchParams.get('q')?.trim();
  const where = { crawlId: await existingCrawlId(prisma, params.id), ...(q ? { url: { contains: q } } : {}) };
  // SQLite sorts NULL lowest, so unscored captures (non-HTML, unfocused crawls) come last.
  const orderBy = url.searchParams.get('sort') === 'score' ? [{ score: 'desc' as const }, { id: 'desc' as const }] : [{ id: 'desc' as const }];
  const [items, total] = await Promise.all([
    prisma.capture.findMany({
      where, orderBy, skip: offset, take: pageSize,
      select: { id: true, url: true, status: true, mime: true, size: true, recordType: true, payloadDigest: true, warcFile: true, warcOffset: true, depth: true, score: true, scoreBreakdown: true, similarity: true, title: true, fetchedAt: true, durationMs: true },
    }),
    prisma.capture.count({ where }),
  ]);
  return { items, total, page, pageSize };
});
