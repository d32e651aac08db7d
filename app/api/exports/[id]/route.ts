import { apiRoute, HttpError, idParam } from '../../../lib/server/handler';
import { getExport } from '../../../lib/server/export-views';
import { settledRequest } from '../../../lib/server/crawl-views';
import { services } from '../../../lib/server/services';
import { deleteExport } from '../../../../worker/export/export-delete';

export const dynamic = 'force-dynamic';

/** GET /api/exports/:id [export] → status, progress, files, the other crawls it takes. */
export const GET = apiRoute<{ id: string }>('export', async ({ params, prisma, db }) => getExport(prisma, db, idParam(params.id)));

/**
 * DELETE /api/exports/:id [export] → 204: the export's own folder under the exports folder, then its
 * row. 409 while it is pending or running (cancel it first) and when its folder is a symbolic link
 * (nothing outside the exports folder is removed); 500 saying which file could not be removed (the
 * row is kept, listing the files still there); 404 for one that is not there.
 */
export const DELETE = apiRoute<{ id: string }>('export', async ({ params, db }) => {
  const outcome = deleteExport(db, services().env.dataDir, idParam(params.id));
  if (typeof outcome === 'object' && 'failed' in outcome) throw new HttpError(500, outcome.failed);
  settledRequest(outcome);
  return undefined;
});
