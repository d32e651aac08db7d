import { FEED_FILTERS, FEEDS_PER_PAGE, incrementalSettingsOf, type FeedFilter } from '../../../../../worker/coherence/incremental-view';
import { readIncrementalView } from '../../../../../worker/crawler/incremental-records';
import { apiRoute, HttpError, idParam, pageParams } from '../../../../lib/server/handler';
import { getCrawl } from '../../../../lib/server/crawl-views';
import { services } from '../../../../lib/server/services';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/incremental [view] `?page=&pageSize=` (at most 50, the default) `&filter=`
 * (all, the default; problems, failing, refused, excluded, not-polled, ok) → the crawl's feeds
 * and recrawl rounds, as the engine stored them: `feeds` (null without feeds): `feedCount`, a
 * `summary` counting every feed of the ICD by how its last poll ended, with their new articles,
 * and `rows`, page `page` of the `total` feeds the filter selects, in the ICD's order (each: last
 * poll, how it ended and a note when it failed or robots.txt refused it, items listed and new
 * articles, next poll while the crawl runs); and `recrawl` (interval, last finished round, when
 * the next is due, the last 10 rounds' reports, newest first; null without recrawls). See
 * worker/coherence/incremental-view.ts. An ICD names up to 1,000 feeds: a page stays small.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, db, prisma }) => {
  const url = new URL(req.url);
  if (!url.searchParams.has('pageSize')) url.searchParams.set('pageSize', String(FEEDS_PER_PAGE));
  const { page, pageSize: asked } = pageParams(url);
  const filter = url.searchParams.get('filter') || 'all';
  if (!(FEED_FILTERS as readonly string[]).includes(filter)) throw new HttpError(400, `filter must be one of ${FEED_FILTERS.join(', ')}`);
  // Every feed of the ICD, not the first few the crawl's answer holds.
  const crawl = await getCrawl(prisma, idParam(params.id), 'whole');
  const feedPage = { filter: filter as FeedFilter, page, pageSize: Math.min(asked, FEEDS_PER_PAGE) };
  return readIncrementalView(db, crawl.id, incrementalSettingsOf(crawl.definition), crawl.status, Date.now(), services().env.TIDEMARK_TEST_MINUTE_MS, feedPage);
});
