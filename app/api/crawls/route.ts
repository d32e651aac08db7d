import { z } from 'zod';
import { apiRoute, readJson } from '../../lib/server/handler';
import { getCrawl, listCrawls } from '../../lib/server/crawl-views';
import { createCrawl } from '../../lib/server/crawl-creation';

export const dynamic = 'force-dynamic';

/** GET /api/crawls [view] → crawls, newest first, with their latest stats. */
export const GET = apiRoute('view', async ({ prisma }) => listCrawls(prisma));

/**
 * POST /api/crawls [run] {icdId} → 201 crawl: a crawl of a copy of the ICD (and of the knowledge
 * base its AAH names), started at once; 400 when that knowledge base is not stored.
 */
export const POST = apiRoute('run', async ({ req, prisma, user }) => {
  const { icdId } = await readJson(req, z.object({ icdId: z.number().int().positive() }));
  const id = await createCrawl(prisma, icdId, user.id);
  return Response.json(await getCrawl(prisma, id), { status: 201 });
});
