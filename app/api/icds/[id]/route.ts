import { icdSchema } from '../../../../worker/icd/schema';
import { HttpError, apiRoute, idParam, readJson } from '../../../lib/server/handler';

export const dynamic = 'force-dynamic';
type Params = { id: string };

/** GET /api/icds/:id [view] → {id,name,definition}. */
export const GET = apiRoute<Params>('view', async ({ params, prisma }) => {
  const row = await prisma.icd.findUnique({ where: { id: idParam(params.id) } });
  if (!row) throw new HttpError(404, 'not found');
  return { id: row.id, name: row.name, ownerId: row.ownerId, updatedAt: row.updatedAt, definition: JSON.parse(row.definition) };
});

/** PUT /api/icds/:id [design] ICD → {id,name,definition}. Crawls keep the copy they started with. */
export const PUT = apiRoute<Params>('design', async ({ req, params, prisma }) => {
  const id = idParam(params.id);
  const icd = await readJson(req, icdSchema);
  if (!(await prisma.icd.findUnique({ where: { id }, select: { id: true } }))) throw new HttpError(404, 'not found');
  const row = await prisma.icd.update({ where: { id }, data: { name: icd.name, definition: JSON.stringify(icd) } });
  return { id: row.id, name: row.name, definition: icd };
});

/** DELETE /api/icds/:id [delete] → 204; refused while one of its crawls is running. */
export const DELETE = apiRoute<Params>('delete', async ({ params, prisma }) => {
  const id = idParam(params.id);
  if (!(await prisma.icd.findUnique({ where: { id }, select: { id: true } }))) throw new HttpError(404, 'not found');
  const active = await prisma.crawl.count({ where: { icdId: id, status: { in: ['running', 'pausing', 'stopping'] } } });
  if (active) throw new HttpError(409, 'A crawl of this ICD is running: stop it first');
  await prisma.icd.delete({ where: { id } });
  return undefined;
});
