import { otherCrawlsOfIcd } from '../../../../../../worker/export/export-crawls';
import { HttpError, apiRoute, idParam } from '../../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/exports/other-crawls [export] → the other crawls of the crawl's ICD, which an
 * export of it may take besides (`otherCrawls`), newest first: `[{id, name, status, startedAt,
 * finishedAt, exportRefusal}]`, `exportRefusal` saying why one cannot be taken now (null when it can).
 * 404 for a crawl that is not there.
 */
export const GET = apiRoute<{ id: string }>('export', async ({ params, db }) => {
  const crawlId = idParam(params.id);
  if (!db.prepare('SELECT 1 FROM Crawl WHERE id = ?').get(crawlId)) throw new HttpError(404, 'not found');
  return otherCrawlsOfIcd(db, crawlId);
});
