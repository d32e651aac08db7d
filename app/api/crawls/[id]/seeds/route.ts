import { crawlIcd } from '../../../../lib/server/crawl-views';
import { SEEDS_PER_PAGE, seedReportPage } from '../../../../lib/server/crawl-seeds';
import { apiRoute, idParam, pageParams } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/seeds [view] `?page=&pageSize=` (at most 200, the default) → `{items, total, page, pageSize}`:
 * the seeds report's rows (as in GET …/report) of one page of the crawl's seeds, in its ICD's order;
 * `total` the crawl's seeds. Every seed, where GET /api/crawls/:id holds the first 20 only.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, db, prisma }) => {
  const crawlId = idParam(params.id);
  const url = new URL(req.url);
  if (!url.searchParams.has('pageSize')) url.searchParams.set('pageSize', String(SEEDS_PER_PAGE));
  const { page, pageSize: asked } = pageParams(url);
  const pageSize = Math.min(asked, SEEDS_PER_PAGE);
  const icd = await crawlIcd(prisma, crawlId, 'view');
  const items = await seedReportPage(db, crawlId, icd, (page - 1) * pageSize, pageSize);
  return { items, total: icd.seeds.length, page, pageSize };
});
