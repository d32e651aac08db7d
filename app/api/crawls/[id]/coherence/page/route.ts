import { z } from 'zod';
import { coherencePageDetail } from '../../../../../../worker/coherence/coherence-report';
import { coherenceRoute } from '../coherence-route';

export const dynamic = 'force-dynamic';

const querySchema = z.object({ url: z.string().url() });

/** GET /api/crawls/:id/coherence/page?url= → the page's visit and revisit with their diff. */
export const GET = coherenceRoute(async ({ crawlId, prisma, request }) => {
  const query = querySchema.safeParse(Object.fromEntries(new URL(request.url).searchParams));
  if (!query.success) return Response.json({ error: 'invalid', issues: query.error.issues.map((i) => ({ path: i.path, message: i.message })) }, { status: 400 });
  const detail = await coherencePageDetail(prisma, crawlId, query.data.url);
  return detail ? Response.json(detail) : Response.json({ error: 'not found' }, { status: 404 });
});
