import { z } from 'zod';
import { coherencePageDetail } from '../../../../../../worker/coherence/coherence-report';
import { HttpError } from '../../../../../lib/server/handler';
import { coherenceRoute } from '../coherence-route';

export const dynamic = 'force-dynamic';

const querySchema = z.object({ url: z.string().url() });

/** GET /api/crawls/:id/coherence/page?url= [view] → the page's visit and revisit with their diff. */
export const GET = coherenceRoute(async ({ crawlId, prisma, request }) => {
  const { url } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const detail = await coherencePageDetail(prisma, crawlId, url);
  if (!detail) throw new HttpError(404, 'not found');
  return detail;
});
