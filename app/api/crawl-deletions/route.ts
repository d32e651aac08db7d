import { apiRoute, pageParams } from '../../lib/server/handler';
import { stuckDeletions } from '../../lib/server/crawl-deletion-views';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawl-deletions [view] ?page&pageSize → the deleted crawls whose files could not all be
 * removed (their disk space is not freed), lowest crawl id first: `{items, total, page, pageSize}`,
 * each `{crawlId, crawlName, requestedAt, stuck: [{folder, path, failed, code, message}], error,
 * failedTries, nextTryAt}` (StuckDeletionView). The server tries them again on its own (CrawlDeletions).
 */
export const GET = apiRoute('view', async ({ req, prisma }) => {
  const { page, pageSize, offset } = pageParams(new URL(req.url));
  const { items, total } = await stuckDeletions(prisma, { offset, limit: pageSize });
  return { items, total, page, pageSize };
});
