import { z } from 'zod';
import { parseIcd } from '../../../worker/icd/schema';
import { HttpError, apiRoute, readJson } from '../../lib/server/handler';
import { getCrawl, listCrawls } from '../../lib/server/crawl-views';

export const dynamic = 'force-dynamic';

/** GET /api/crawls [view] → crawls, newest first, with their latest stats. */
export const GET = apiRoute('view', async ({ prisma }) => listCrawls(prisma));

/** POST /api/crawls [run] {icdId} → 201 crawl: a crawl of a copy of the ICD, started at once. */
export const POST = apiRoute('run', async ({ req, prisma, user }) => {
  const { icdId } = await readJson(req, z.object({ icdId: z.number().int().positive() }));
  const icd = await prisma.icd.findUnique({ where: { id: icdId } });
  if (!icd) throw new HttpError(404, `No ICD ${icdId}`);
  // Re-validate: an ICD stored before a schema change must not reach the worker half-valid.
  const definition = parseIcd(JSON.parse(icd.definition));
  const crawl = await prisma.crawl.create({
    data: { icdId, name: definition.name, definition: JSON.stringify(definition), status: 'created', desired: 'run', ownerId: user.id },
  });
  return Response.json(await getCrawl(prisma, crawl.id), { status: 201 });
});
