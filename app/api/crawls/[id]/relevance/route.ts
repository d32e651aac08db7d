import { crawlIcd } from '../../../../lib/server/crawl-views';
import { relevanceSeries } from '../../../../../worker/analyze/relevance-series';
import { storedSimilarities } from '../../../../../worker/store/capture-store';
import { HttpError, apiRoute, idParam } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/relevance [view] ?window=N → `{windowSize, threshold, documents, harvestRatio,
 * points:[{documents, meanSimilarity, normalised, harvestRatio}]}` over the crawl's analysed
 * captures in crawl order (ARCOMEM Figure 8); the window defaults to the ICD's relevanceWindow.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const id = idParam(params.id);
  const { focus } = await crawlIcd(prisma, id, 'view');
  const asked = new URL(req.url).searchParams.get('window');
  const windowSize = asked === null ? focus.relevanceWindow : Number(asked);
  if (!Number.isInteger(windowSize) || windowSize < 1 || windowSize > 1_000_000) throw new HttpError(400, 'window must be an integer from 1 to 1000000');
  return relevanceSeries(storedSimilarities(db, id), windowSize, focus.relevanceThreshold);
});
