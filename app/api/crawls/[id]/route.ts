import { rmSync } from 'node:fs';
import { deleteCrawlRow } from '../../../../worker/process/crawl-requests';
import { prunePolitenessRows } from '../../../../worker/process/prune-politeness';
import { deleteCrawlEngineRows } from '../../../../worker/process/delete-crawl-engine-rows';
import { apiRoute, idParam } from '../../../lib/server/handler';
import { getCrawl, settledRequest } from '../../../lib/server/crawl-views';
import { announceCrawlEvent, services } from '../../../lib/server/services';
import { deleteCoherenceData } from '../../../../worker/coherence/coherence-report';
import { crawlSpoolDir, crawlWarcDir, exportDir } from '../../../../worker/store/data-layout';

export const dynamic = 'force-dynamic';
type Params = { id: string };

/** GET /api/crawls/:id [view] → the crawl with its ICD copy and stats. */
export const GET = apiRoute<Params>('view', async ({ params, prisma }) => getCrawl(prisma, idParam(params.id)));

/**
 * DELETE /api/crawls/:id [delete] → 204: rows, WARC files, spool folder and its exports' own files; 409 while a
 * worker writes it, and while one of its exports is being made (it reads the crawl's files). The crawl's room hears
 * `crawl:<id>:deleted`.
 */
export const DELETE = apiRoute<Params>('delete', async ({ params, prisma, db }) => {
  const crawlId = idParam(params.id);
  const exports = settledRequest(deleteCrawlRow(db, crawlId));
  await deleteCoherenceData(prisma, crawlId);
  // The frontier's and the engine's own tables belong to the worker's driver code, keyed by crawl id.
  await deleteCrawlEngineRows(db, crawlId);
  await prunePolitenessRows(db);
  const { dataDir } = services().env;
  rmSync(crawlWarcDir(dataDir, crawlId), { recursive: true, force: true });
  // Empty unless the worker died in the crawl's last run (a paused crawl is not run again to empty it).
  rmSync(crawlSpoolDir(dataDir, crawlId), { recursive: true, force: true });
  for (const id of exports) rmSync(exportDir(dataDir, id), { recursive: true, force: true });
  // Pages open on the crawl (other tabs, other people) showed it as it was, Delete answering "Not found.".
  announceCrawlEvent(crawlId, 'deleted', { crawlId });
  return undefined;
});
