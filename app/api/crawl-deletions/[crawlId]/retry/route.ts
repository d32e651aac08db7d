import { apiRoute, HttpError, idParam } from '../../../../lib/server/handler';
import { stuckDeletion } from '../../../../lib/server/crawl-deletion-views';
import { services } from '../../../../lib/server/services';

export const dynamic = 'force-dynamic';

/**
 * POST /api/crawl-deletions/:crawlId/retry [delete] → `{deletion}`: the deleted crawl's files that
 * could not all be removed, tried again at once rather than at its retry time (someone made them
 * removable); `deletion` null when they are all removed now, else as GET /api/crawl-deletions lists
 * it, with the new error, one more failed try and a later retry time. 404 when no deletion of that
 * crawl has files that could not be removed (none, or removed meanwhile).
 */
export const POST = apiRoute<{ crawlId: string }>('delete', async ({ params, prisma }) => {
  const crawlId = idParam(params.crawlId);
  if (services().crawlDeletions.retryFilesNow(crawlId) === null) throw new HttpError(404, `No deletion of crawl #${crawlId} has files that could not be removed`);
  return { deletion: await stuckDeletion(prisma, crawlId) };
});
