import { deleteCrawlRow } from '../../../../worker/process/crawl-requests';
import { apiRoute, HttpError, idParam } from '../../../lib/server/handler';
import { getCrawl, settledRequest } from '../../../lib/server/crawl-views';
import { announceCrawlEvent, services } from '../../../lib/server/services';

export const dynamic = 'force-dynamic';
type Params = { id: string };

/**
 * GET /api/crawls/:id[?lists=whole] [view] → the crawl with its ICD copy and stats; the copy's lists
 * cut to their first 20 items (`seedCount`, `listCounts` say how many they hold), whole with
 * `?lists=whole` (the cockpit reads the answer again at each status change, and shows none of them).
 */
export const GET = apiRoute<Params>('view', async ({ req, params, prisma }) => {
  const lists = new URL(req.url).searchParams.get('lists');
  if (lists !== null && lists !== 'whole') throw new HttpError(400, 'lists: only "whole" (the ICD copy\'s lists whole) may be asked for', [{ path: ['lists'], message: 'only "whole"' }]);
  return getCrawl(prisma, idParam(params.id), lists ?? 'cut');
});

/**
 * DELETE /api/crawls/:id [delete] → 204 once the crawl is gone from the cockpit, its WARC files, spool folder and its
 * exports' own files removed; its other rows are deleted afterwards, in short transactions (CrawlDeletions). A file that
 * cannot be removed leaves the answer 204 (the crawl is gone): it is logged and kept on its CrawlDeletion row, which
 * GET /api/crawl-deletions lists, and CrawlDeletions tries it again until it can be. 409 while a worker writes it, and
 * while one of its exports is being made (it reads the crawl's files). The crawl's room hears `crawl:<id>:deleted`.
 */
export const DELETE = apiRoute<Params>('delete', async ({ params, db }) => {
  const crawlId = idParam(params.id);
  settledRequest(deleteCrawlRow(db, crawlId));
  const { crawlDeletions } = services();
  crawlDeletions.removeFilesAtOnce(crawlId);
  void crawlDeletions.wake();
  // Pages open on the crawl (other tabs, other people) showed it as it was, Delete answering "Not found.".
  announceCrawlEvent(crawlId, 'deleted', { crawlId });
  return undefined;
});
