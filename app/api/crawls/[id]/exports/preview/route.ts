import { collectionSelectionSchema } from '../../../../../../worker/export/collection-plan';
import { collectionSize } from '../../../../../../worker/export/collection-additions';
import { notOtherCrawlsOfIcd } from '../../../../../../worker/export/export-crawls';
import { crawlWarcDir } from '../../../../../../worker/store/data-layout';
import { HttpError, apiRoute, idParam } from '../../../../../lib/server/handler';
import { services } from '../../../../../lib/server/services';

export const dynamic = 'force-dynamic';

/** `?otherCrawls=3,5`: crawl ids, as the export request's `otherCrawls`. */
function otherCrawlsParam(raw: string | null): number[] {
  if (!raw) return [];
  const ids = raw.split(',').map((s) => Number(s.trim()));
  if (ids.some((n) => !Number.isInteger(n) || n <= 0)) throw new HttpError(400, 'otherCrawls is a comma-separated list of crawl ids');
  return [...new Set(ids)];
}

/**
 * GET /api/crawls/:id/exports/preview [export] ?selection=<JSON>&otherCrawls=<ids> → `{captures, bytes}`: how many
 * captures (responses and revisits) a collection with this selection would hold, as the export
 * writes it (the captures its redirects lead to, its pages' requisites and the responses its
 * revisits repeat included: collectionSize), and their payload bytes, before it is requested;
 * with `otherCrawls` (other crawls of the same ICD), summed over the crawl and them.
 * 400 naming the field of an invalid selection, or why `otherCrawls` are not other crawls of its ICD.
 */
export const GET = apiRoute<{ id: string }>('export', async ({ req, params, db }) => {
  const crawlId = idParam(params.id);
  if (!db.prepare('SELECT 1 FROM Crawl WHERE id = ?').get(crawlId)) throw new HttpError(404, 'not found');
  const query = new URL(req.url).searchParams;
  let raw: unknown;
  try {
    raw = JSON.parse(query.get('selection') ?? '{}');
  } catch {
    throw new HttpError(400, 'selection is not valid JSON');
  }
  // null, as in the export request, selects the whole crawl.
  const selection = collectionSelectionSchema.nullable().parse(raw) ?? collectionSelectionSchema.parse({});
  const others = otherCrawlsParam(query.get('otherCrawls'));
  const problem = notOtherCrawlsOfIcd(db, crawlId, others);
  if (problem) throw new HttpError(400, problem);
  const total = { captures: 0, bytes: 0 };
  for (const id of [crawlId, ...others]) {
    const size = await collectionSize(db, id, crawlWarcDir(services().env.dataDir, id), selection, req.signal);
    // Deleted a moment ago.
    if (!size) throw new HttpError(404, 'not found');
    total.captures += size.captures;
    total.bytes += size.bytes;
  }
  return total;
});
