import { apiRoute } from '../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** GET /api/knowledge-bases [view] → names and update times. */
export const GET = apiRoute('view', async ({ prisma }) => prisma.knowledgeBase.findMany({ select: { id: true, name: true, updatedAt: true }, orderBy: { name: 'asc' } }));
