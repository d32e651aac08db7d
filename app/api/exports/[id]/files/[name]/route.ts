import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { findExportFile } from '../../../../../lib/server/export-download';
import { HttpError, apiRoute, idParam } from '../../../../../lib/server/handler';
import { services } from '../../../../../lib/server/services';

export const dynamic = 'force-dynamic';

/**
 * GET /api/exports/:id/files/:name [export] → the file as an attachment (only names the export
 * lists). server.ts answers this path itself so the download keeps its Content-Length; this
 * handler serves it when Next is run on its own.
 */
export const GET = apiRoute<{ id: string; name: string }>('export', async ({ params, db }) => {
  const found = findExportFile(db, services().env.dataDir, idParam(params.id), decodeURIComponent(params.name));
  if ('error' in found) throw new HttpError(found.status, found.error);
  return new Response(Readable.toWeb(createReadStream(found.path)) as ReadableStream, { headers: found.headers });
});
