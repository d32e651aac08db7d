import { HttpError, apiRoute, idParam, readIcd } from '../../../lib/server/handler';
import { conflictResponse, saveIcd, versionedJson } from '../../../lib/server/versioned-save';
import { parseIfMatch } from '../../../lib/version-tag';

export const dynamic = 'force-dynamic';
type Params = { id: string };

/** GET /api/icds/:id [view] → {id,name,ownerId,updatedAt,definition}, its version in `ETag`. */
export const GET = apiRoute<Params>('view', async ({ params, prisma }) => {
  const row = await prisma.icd.findUnique({ where: { id: idParam(params.id) } });
  if (!row) throw new HttpError(404, 'not found');
  return versionedJson({ id: row.id, name: row.name, ownerId: row.ownerId, updatedAt: row.updatedAt, definition: JSON.parse(row.definition) }, row.updatedAt);
});

/**
 * PUT /api/icds/:id [design] ICD → {id,name,updatedAt,definition} and the new `ETag`; with
 * `If-Match`, 412 and nothing saved unless that is still the stored version. Crawls keep the copy
 * they started with.
 */
export const PUT = apiRoute<Params>('design', async ({ req, params, prisma }) => {
  const id = idParam(params.id);
  const icd = await readIcd(req);
  const saved = await saveIcd(prisma, id, icd, parseIfMatch(req.headers.get('if-match')));
  if (saved.kind === 'missing') throw new HttpError(404, 'not found');
  if (saved.kind === 'conflict') return conflictResponse('crawl definition', saved.current);
  return versionedJson({ id, name: icd.name, updatedAt: saved.version, definition: icd }, saved.version);
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
