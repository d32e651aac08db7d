import { collectionSelectionSchema, collectionSizeSql } from '../../../../../../worker/export/collection-plan';
import { HttpError, apiRoute, idParam } from '../../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/exports/preview [export] ?selection=<JSON> → `{captures, bytes}`: how many
 * captures (responses and revisits) a collection with this selection would hold, the responses its
 * revisits repeat included, and their payload bytes, before it is requested (collectionSizeSql).
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
  const { sql, bind } = collectionSizeSql(selection);
  return db.prepare(sql).get(...bind(crawlId)) as { captures: number; bytes: number };
});
