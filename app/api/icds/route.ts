import { apiRoute, readIcd } from '../../lib/server/handler';
import { versionedJson } from '../../lib/server/versioned-save';
import { scheduleSummary } from '../../lib/server/crawl-scheduler';

export const dynamic = 'force-dynamic';

/** GET /api/icds [view] → ICDs, newest first, each with its schedule ({description, nextRunAt, timeZone}, or null). */
export const GET = apiRoute('view', async ({ prisma }) => {
  const rows = await prisma.icd.findMany({
    select: { id: true, name: true, ownerId: true, updatedAt: true, schedule: true },
    orderBy: { updatedAt: 'desc' },
  });
  return rows.map(({ schedule, ...icd }) => ({ ...icd, schedule: schedule && scheduleSummary(schedule) }));
});

/** POST /api/icds [design] ICD → 201 {id,name,updatedAt,definition} with its `ETag`; 400 lists every invalid field. */
export const POST = apiRoute('design', async ({ req, prisma, user }) => {
  const icd = await readIcd(req);
  const row = await prisma.icd.create({ data: { name: icd.name, definition: JSON.stringify(icd), ownerId: user.id } });
  return versionedJson({ id: row.id, name: row.name, updatedAt: row.updatedAt, definition: icd }, row.updatedAt, 201);
});
