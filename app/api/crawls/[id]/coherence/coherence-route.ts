import type { PrismaClient } from '../../../../../worker/store/prisma';
import { apiRoute, HttpError, idParam } from '../../../../lib/server/handler';
import { services } from '../../../../lib/server/services';
import { crawlWarcDir } from '../../../../../worker/store/data-layout';

/** What the coherence routes need: the crawl (which exists), the request and where its WARC files are. */
export interface CoherenceRouteContext {
  crawlId: number;
  request: Request;
  prisma: PrismaClient;
  /** Where the crawl's WARC files and certificate are. */
  warcDir: string;
}

/** A GET handler under `/api/crawls/:id/coherence` [view]: the common wrapper plus a crawl lookup. */
export function coherenceRoute(handler: (ctx: CoherenceRouteContext) => Promise<unknown>) {
  return apiRoute<{ id: string }>('view', async ({ req, params, prisma }) => {
    const crawlId = idParam(params.id);
    if (!(await prisma.crawl.findUnique({ where: { id: crawlId }, select: { id: true } }))) throw new HttpError(404, 'not found');
    return handler({ crawlId, request: req, prisma, warcDir: crawlWarcDir(services().env.dataDir, crawlId) });
  });
}
