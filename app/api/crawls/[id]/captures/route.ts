import { apiRoute, HttpError, pageParams, pinnedWhere } from '../../../../lib/server/handler';
import { existingCrawlId } from '../../../../lib/server/crawl-views';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/captures [view] ?page&pageSize&q&sort&upTo → captures, newest first; `sort=score`:
 * by the priority each URL had when fetched; `sort=similarity`: the analysed pages only, most
 * similar to the topic first; `upTo`: captures up to that id only, and `newer` counts those since.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma }) => {
  const url = new URL(req.url);
  const { page, pageSize, offset } = pageParams(url);
  const q = url.searchParams.get('q')?.trim();
  const sort = url.searchParams.get('sort');
  if (sort && sort !== 'score' && sort !== 'similarity') throw new HttpError(400, 'sort: expected "score" or "similarity"');
  const pinned = pinnedWhere(url, {
    crawlId: await existingCrawlId(prisma, params.id),
    ...(q ? { url: { contains: q } } : {}),
    // A page never compared with the topic (not HTML, an unfocused crawl) has no place in a ranking by similarity.
    ...(sort === 'similarity' ? { similarity: { not: null } } : {}),
  });
  const { where } = pinned;
  // SQLite sorts NULL lowest, so by score the unscored captures come last.
  const orderBy = sort ? [{ [sort]: 'desc' as const }, { id: 'desc' as const }] : [{ id: 'desc' as const }];
  const [items, total, newer] = await Promise.all([
    prisma.capture.findMany({
      where, orderBy, skip: offset, take: pageSize,
      select: { id: true, url: true, status: true, mime: true, size: true, recordType: true, payloadDigest: true, warcFile: true, warcOffset: true, depth: true, score: true, scoreBreakdown: true, similarity: true, title: true, fetchedAt: true, durationMs: true },
    }),
    prisma.capture.count({ where }),
    pinned.newer ? prisma.capture.count({ where: pinned.newer }) : 0,
  ]);
  return { items, total, newer, page, pageSize };
});
