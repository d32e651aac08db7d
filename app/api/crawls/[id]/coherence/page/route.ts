import { z } from 'zod';
import { coherencePageDetail } from '../../../../../../worker/coherence/coherence-report';
import { HttpError } from '../../../../../lib/server/handler';
import { coherenceRoute } from '../coherence-route';

export const dynamic = 'force-dynamic';

// By the page's id (what the cockpit asks: a URL of up to 65,536 characters, escaped, overflows
// the request line the server takes), or by its URL.
const querySchema = z.union([z.object({ id: z.coerce.number().int().positive() }), z.object({ url: z.string().url() })]);

/** GET /api/crawls/:id/coherence/page?id= or ?url= [view] → the page's visit and revisit with their diff. */
export const GET = coherenceRoute(async ({ crawlId, prisma, request }) => {
  const page = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  const detail = await coherencePageDetail(prisma, crawlId, page);
  if (!detail) throw new HttpError(404, 'not found');
  return detail;
});
