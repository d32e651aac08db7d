import { z } from 'zod';
import { CRAWL_ACTIONS, desiredAfter } from '../../../../../worker/process/crawl-control';
import { HttpError, apiRoute, idParam, readJson } from '../../../../lib/server/handler';
import { getCrawl } from '../../../../lib/server/crawl-views';
import { exportUnderWay } from '../../../../../worker/export/export-job';

export const dynamic = 'force-dynamic';

/**
 * POST /api/crawls/:id/control [run] {action: pause|resume|stop} → the crawl (the worker converges within a second).
 * 409 for an action the crawl's status does not allow, and for a resume while one of its exports is pending or running.
 */
export const POST = apiRoute<{ id: string }>('run', async ({ req, params, prisma, db }) => {
  const crawl = await getCrawl(prisma, idParam(params.id));
  const { action } = await readJson(req, z.object({ action: z.enum(CRAWL_ACTIONS as [string, ...string[]]) }));
  const next = desiredAfter(crawl.status, action as (typeof CRAWL_ACTIONS)[number], action === 'resume' ? exportUnderWay(db, crawl.id) : null);
  if ('error' in next) throw new HttpError(409, next.error);
  await prisma.crawl.update({ where: { id: crawl.id }, data: { desired: next.desired } });
  return getCrawl(prisma, crawl.id);
});
