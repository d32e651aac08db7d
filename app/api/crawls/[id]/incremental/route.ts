import { incrementalSettingsOf } from '../../../../../worker/coherence/incremental-view';
import { readIncrementalView } from '../../../../../worker/crawler/incremental-records';
import { apiRoute, idParam } from '../../../../lib/server/handler';
import { getCrawl } from '../../../../lib/server/crawl-views';
import { services } from '../../../../lib/server/services';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/incremental [view] → the crawl's feeds and recrawl rounds, as the engine
 * stored them: `feeds` (per feed of the ICD, in its order: last poll, how it ended and a note when
 * it failed or robots.txt refused it, items listed and new articles; null without feeds) and
 * `recrawl` (interval, last finished round, when the next is due, the last 10 rounds' reports,
 * newest first; null without recrawls). See worker/coherence/incremental-view.ts.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ params, db, prisma }) => {
  // Every feed of the ICD, not the first few the crawl's answer holds.
  const crawl = await getCrawl(prisma, idParam(params.id), 'whole');
  return readIncrementalView(db, crawl.id, incrementalSettingsOf(crawl.definition), crawl.status, Date.now(), services().env.TIDEMARK_TEST_MINUTE_MS);
});
