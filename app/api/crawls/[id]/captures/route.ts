import { apiRoute, HttpError, pageParams, upToParam } from '../../../../lib/server/handler';
import { existingCrawlId } from '../../../../lib/server/crawl-views';
import { equals, inIdOrder, listPage, urlContainsText } from '../../../../lib/server/list-query';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/captures [view] ?page&pageSize&q&sort&upTo → captures, newest first; `sort=score`:
 * by the priority each URL had when fetched; `sort=similarity`: the analysed pages only, most
 * similar to the topic first; `q`: URL contains, as written; `upTo`: captures up to that id only,
 * and `newer` counts those since.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const url = new URL(req.url);
  const { page, pageSize, offset } = pageParams(url);
  const q = url.searchParams.get('q')?.trim();
  const sort = url.searchParams.get('sort');
  if (sort && sort !== 'score' && sort !== 'similarity') throw new HttpError(400, 'sort: expected "score" or "similarity"');
  const conditions = [
    equals('crawlId', await existingCrawlId(prisma, params.id)),
    ...(q ? [urlContainsText(['url'], q)] : []),
    // A page never compared with the topic (not HTML, an unfocused crawl) has no place in a ranking by similarity.
    ...(sort === 'similarity' ? [{ sql: 'similarity IS NOT NULL', params: [] }] : []),
  ];
  // SQLite sorts NULL lowest, so by score the unscored captures come last.
  const { ids, total, newer } = listPage(db, { table: 'Capture', conditions, orderBy: sort ? `${sort} DESC, id DESC` : 'id DESC', upTo: upToParam(url), offset, limit: pageSize });
  const rows = await prisma.capture.findMany({
    where: { id: { in: ids } },
    select: { id: true, url: true, status: true, mime: true, size: true, recordType: true, payloadDigest: true, truncated: true, warcFile: true, warcOffset: true, depth: true, score: true, scoreBreakdown: true, similarity: true, title: true, fetchedAt: true, durationMs: true },
  });
  return { items: inIdOrder(rows, ids), total, newer, page, pageSize };
});
