import { apiRoute, readIcd } from '../../lib/server/handler';
import { versionedJson } from '../../lib/server/versioned-save';

export const dynamic = 'force-dynamic';

/** GET /api/icds [view] → ICDs, newest first. */
export const GET = apiRoute('view', async ({ prisma }) =>
  prisma.icd.findMany({ select: { id: true, name: true, ownerId: true, updatedAt: true }, orderBy: { updatedAt: 'desc' } }),
);

/** POST /api/icds [design] ICD → 201 {id,name,updatedAt,definition} with its `ETag`; 400 lists every invalid field. */
export const POST = apiRoute('design', async ({ req, prisma, user }) => {
  const icd = await readIcd(req);
  const row = await prisma.icd.create({ data: { name: icd.name, definition: JSON.stringify(icd), ownerId: user.id } });
  return versionedJson({ id: row.id, name: row.name, updatedAt: row.updatedAt, definition: icd }, row.updatedAt, 201);
});
