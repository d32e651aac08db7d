import { icdSchema } from '../../../../worker/icd/schema';
import { HttpError, apiRoute, idParam, readIcd } from '../../../lib/server/handler';

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
  const icd = await readIcd(req);
  if (!(await prisma.icd.findUnique({ where: { id }, select: { id: true } }))) throw new HttpError(404, 'not found');
  const row = await prisma.icd.update({ where: { id }, data: { name: icd.name, definition: JSON.stringify(icd) } });
  return { id: row.id, name: row.name, definition: icd };
});

/**
 * DELETE /api/icds/:id [delete] → 204; 409 while crawls of it exist (the database would cascade
 * to them and leave their WARC files orphaned: delete the crawls first, deliberately).
 */
export const DELETE = apiRoute<Params>('delete', async ({ params, prisma }) => {
  const id = idParam(params.id);
  if (!(await prisma.icd.findUnique({ where: { id }, select: { id: true } }))) throw new HttpError(404, 'not found');
  const crawls = await prisma.crawl.count({ where: { icdId: id } });
  if (crawls) throw new HttpError(409, `This ICD has ${crawls} crawl${crawls === 1 ? '' : 's'}: delete them first`);
  await prisma.icd.delete({ where: { id } });
  return undefined;
});
