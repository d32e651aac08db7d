import { createReadStream, statSync } from 'node:fs';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { HttpError, apiRoute, idParam } from '../../../../../lib/server/handler';
import { getExport } from '../../../../../lib/server/export-views';
import { services } from '../../../../../lib/server/services';

export const dynamic = 'force-dynamic';

/** GET /api/exports/:id/files/:name [export] → the file as an attachment (only names the export lists). */
export const GET = apiRoute<{ id: string; name: string }>('export', async ({ params, prisma }) => {
  const exp = await getExport(prisma, idParam(params.id));
  if (exp.status !== 'done') throw new HttpError(409, `The export is ${exp.status}`);
  const name = decodeURIComponent(params.name);
  // Only names the export listed: no path of the client's choosing reaches the file system.
  const file = exp.files.find((f) => f.name === name);
  if (!file) throw new HttpError(404, 'not found');
  const path = join(services().env.dataDir, 'warcs', String(exp.crawlId), file.name);
  const size = statSync(path).size;
  const type = name.endsWith('.gz') ? 'application/warc+gzip' : name.endsWith('.json') ? 'application/json' : 'text/plain; charset=utf-8';
  return new Response(Readable.toWeb(createReadStream(path)) as ReadableStream, {
    headers: {
      'content-type': type,
      'content-length': String(size),
      'content-disposition': `attachment; filename="${file.name.replace(/"/g, '')}"`,
      'x-content-sha256': file.sha256,
    },
  });
});
