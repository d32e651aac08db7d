import { createReadStream } from 'node:fs';
import { Readable } from 'node:stream';
import { downloadAnswer, downloadTarget, findExportFile } from '../../../../../lib/server/export-download';
import { HttpError, apiRoute } from '../../../../../lib/server/handler';
import { services } from '../../../../../lib/server/services';

export const dynamic = 'force-dynamic';

/**
 * GET /api/exports/:id/files/:name [export] → the file as an attachment (only names the export
 * lists), or the byte range asked for (206). server.ts answers this path itself so the download keeps its Content-Length; this
 * handler serves it when Next is run on its own.
 */
export const GET = apiRoute<{ id: string; name: string }>('export', async ({ req, params, db }) => {
  const target = downloadTarget(params.id, params.name);
  if (!target) throw new HttpError(404, 'not found');
  const found = await findExportFile(db, services().env.dataDir, target.exportId, target.name);
  if ('error' in found) throw new HttpError(found.status, found.error);
  const answer = downloadAnswer(found, req.headers.get('range') ?? undefined);
  const body = answer.span ? (Readable.toWeb(createReadStream(found.path, answer.span)) as ReadableStream) : null;
  return new Response(body, { status: answer.status, headers: answer.headers });
});
