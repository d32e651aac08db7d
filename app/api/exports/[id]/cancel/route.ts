import { apiRoute, idParam } from '../../../../lib/server/handler';
import { getExport } from '../../../../lib/server/export-views';
import { settledRequest } from '../../../../lib/server/crawl-views';
import { cancelExport } from '../../../../../worker/export/export-cancel';

export const dynamic = 'force-dynamic';

/**
 * POST /api/exports/:id/cancel [export] → the export, cancelled (status `cancelled`, `cancelledBy`,
 * `cancelledAt`): a pending one is never started; a running one stops within about a second and its
 * partial files are removed. 409 for an export that is done, failed or cancelled already; 404 for
 * one that is not there.
 */
export const POST = apiRoute<{ id: string }>('export', async ({ params, db, prisma, user }) => {
  const id = idParam(params.id);
  settledRequest(cancelExport(db, id, user.username));
  return getExport(prisma, db, id);
});
