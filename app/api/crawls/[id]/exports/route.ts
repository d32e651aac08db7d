import { HttpError, apiRoute, idParam } from '../../../../lib/server/handler';
import { exportView } from '../../../../lib/server/export-views';

export const dynamic = 'force-dynamic';
type Params = { id: string };

/** GET /api/crawls/:id/exports [export] → the crawl's exports, newest first. */
export const GET = apiRoute<Params>('export', async ({ params, prisma }) => {
  const rows = await prisma.export.findMany({ where: { crawlId: idParam(params.id) }, orderBy: { id: 'desc' } });
  return rows.map(exportView);
});

/** POST /api/crawls/:id/exports [export] → 201 pending export; the worker verifies and lists the files. */
export const POST = apiRoute<Params>('export', async ({ params, prisma, user }) => {
  const crawlId = idParam(params.id);
  const crawl = await prisma.crawl.findUnique({ where: { id: crawlId }, select: { status: true } });
  if (!crawl) throw new HttpError(404, 'not found');
  if (['created', 'running', 'pausing', 'stopping'].includes(crawl.status)) throw new HttpError(409, `The crawl is ${crawl.status}: pause, stop or let it finish before exporting`);
  const row = await prisma.export.create({ data: { crawlId, requestedById: user.id } });
  return Response.json(exportView(row), { status: 201 });
});
