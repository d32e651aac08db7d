import { collectionSelectionSchema } from '../../../../../../worker/export/collection-plan';
import { collectionSize } from '../../../../../../worker/export/collection-additions';
import { crawlWarcDir } from '../../../../../../worker/store/data-layout';
import { HttpError, apiRoute, idParam } from '../../../../../lib/server/handler';
import { services } from '../../../../../lib/server/services';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/exports/preview [export] ?selection=<JSON> → `{captures, bytes}`: how many
 * captures (responses and revisits) a collection with this selection would hold, as the export
 * writes it (the captures its redirects lead to, its pages' requisites and the responses its
 * revisits repeat included: collectionSize), and their payload bytes, before it is requested.
 * 400 naming the field of an invalid selection.
 */
export const GET = apiRoute<{ id: string }>('export', async ({ req, params, db }) => {
  const crawlId = idParam(params.id);
  if (!db.prepare('SELECT 1 FROM Crawl WHERE id = ?').get(crawlId)) throw new HttpError(404, 'not found');
  let raw: unknown;
  try {
    raw = JSON.parse(new URL(req.url).searchParams.get('selection') ?? '{}');
  } catch {
    throw new HttpError(400, 'selection is not valid JSON');
  }
  // null, as in the export request, selects the whole crawl.
  const selection = collectionSelectionSchema.nullable().parse(raw) ?? collectionSelectionSchema.parse({});
  const size = await collectionSize(db, crawlId, crawlWarcDir(services().env.dataDir, crawlId), selection, req.signal);
  if (!size) throw new HttpError(404, 'not found');
  return size;
});
