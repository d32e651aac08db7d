import { apiRoute, readIcd } from '../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** GET /api/icds [view] → ICDs, newest first. */
export const GET = apiRoute('view', async ({ prisma }) =>
  prisma.icd.findMany({ select: { id: true, name: true, ownerId: true, updatedAt: true }, orderBy: { updatedAt: 'desc' } }),
);

/** POST /api/icds [design] ICD → 201 {id,name,definition}; 400 lists every invalid field. */
export const POST = apiRoute('design', async ({ req, prisma, user }) => {
  const icd = await readIcd(req);
  const row = await prisma.icd.create({ data: { name: icd.name, definition: JSON.stringify(icd), ownerId: user.id } });
  return Response.json({ id: row.id, name: row.name, definition: icd }, { status: 201 });
});
