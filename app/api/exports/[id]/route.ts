import { apiRoute, idParam } from '../../../lib/server/handler';
import { getExport } from '../../../lib/server/export-views';

export const dynamic = 'force-dynamic';

/** GET /api/exports/:id [export] → status, progress, files. */
export const GET = apiRoute<{ id: string }>('export', async ({ params, prisma }) => getExport(prisma, idParam(params.id)));
