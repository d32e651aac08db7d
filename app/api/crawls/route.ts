import { z } from 'zod';
import { apiRoute, HttpError, pageParams, readJson } from '../../lib/server/handler';
import { getCrawl, listCrawls } from '../../lib/server/crawl-views';
import { createCrawl } from '../../lib/server/crawl-creation';
import { isStatusGroup, STATUS_GROUPS } from '../../lib/client/crawl-list-view';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls [view] ?page&pageSize&status&q → a page of the crawls, newest first, with their
 * latest stats: `{items, total, page, pageSize}`. `status`: a status group (active, paused, ended,
 * failed); `q`: text the name holds, or the crawl's id (`7`, `#7`).
 */
export const GET = apiRoute('view', async ({ req, prisma, db }) => {
  const url = new URL(req.url);
  const { page, pageSize, offset } = pageParams(url);
  const group = url.searchParams.get('status') ?? '';
  if (!isStatusGroup(group)) throw new HttpError(400, `status: expected one of ${Object.keys(STATUS_GROUPS).filter(Boolean).join(', ')}`);
  const { items, total } = await listCrawls(prisma, db, { group, q: url.searchParams.get('q') ?? '', offset, limit: pageSize });
  return { items, total, page, pageSize };
});

/**
 * POST /api/crawls [run] {icdId} → 201 crawl: a crawl of a copy of the ICD (and of the knowledge
 * base its AAH names), started at once; 400 when that knowledge base is not stored.
 */
export const POST = apiRoute('run', async ({ req, prisma, user }) => {
  const { icdId } = await readJson(req, z.object({ icdId: z.number().int().positive() }));
  const id = await createCrawl(prisma, icdId, user.id);
  return Response.json(await getCrawl(prisma, id), { status: 201 });
});
