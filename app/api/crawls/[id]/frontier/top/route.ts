import { topQueuedUrls } from '../../../../../../worker/frontier/frontier-sql';
import { HttpError, apiRoute, idParam } from '../../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/frontier/top [view] ?limit=N (≤ 200, default 25) → `[{url, host, depth, score, updates, breakdown}]`, next to be fetched first. */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const id = idParam(params.id);
  if (!(await prisma.crawl.findUnique({ where: { id }, select: { id: true } }))) throw new HttpError(404, 'not found');
  const limit = Math.min(200, Math.max(1, Math.floor(Number(new URL(req.url).searchParams.get('limit')) || 25)));
  return topQueuedUrls(db, id, limit);
});
