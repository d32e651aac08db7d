import { z } from 'zod';
import { CRAWL_ACTIONS } from '../../../../../worker/process/crawl-control';
import { controlCrawl } from '../../../../../worker/process/crawl-requests';
import { apiRoute, idParam, readJson } from '../../../../lib/server/handler';
import { getCrawl, settledRequest } from '../../../../lib/server/crawl-views';

export const dynamic = 'force-dynamic';

/**
 * POST /api/crawls/:id/control [run] {action: pause|resume|stop} → the crawl (the worker converges within a second).
 * 409 for an action the crawl's status does not allow, for a resume while one of its exports is pending or running,
 * and for a resume while its ICD copy has settings this version refuses (named; POST …/stored-icd corrects them);
 * 404 for a crawl that is not there, deleted a moment before included.
 */
export const POST = apiRoute<{ id: string }>('run', async ({ req, params, prisma, db }) => {
  const id = idParam(params.id);
  const { action } = await readJson(req, z.object({ action: z.enum(CRAWL_ACTIONS as [string, ...string[]]) }));
  settledRequest(controlCrawl(db, id, action as (typeof CRAWL_ACTIONS)[number]));
  return getCrawl(prisma, id);
});
