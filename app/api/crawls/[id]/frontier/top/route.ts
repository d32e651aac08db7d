import { topQueuedUrls } from '../../../../../../worker/frontier/frontier-sql';
import { apiRoute } from '../../../../../lib/server/handler';
import { existingCrawlId } from '../../../../../lib/server/crawl-views';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/frontier/top [view] ?limit=N (≤ 200, default 25) → `[{url, host, depth, score, updates, breakdown}]`, next to be fetched first. */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const id = await existingCrawlId(prisma, params.id);
  const limit = Math.min(200, Math.max(1, Math.floor(Number(new URL(req.url).searchParams.get('limit')) || 25)));
  return topQueuedUrls(db, id, limit);
});
