import { coherenceGraphml } from '../../../../../../worker/coherence/coherence-report';
import { coherenceRoute } from '../coherence-route';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/coherence/graphml [view] → the discovery tree as a GraphML attachment. */
export const GET = coherenceRoute(async ({ crawlId, db }) =>
  new Response(coherenceGraphml(db, crawlId), {
    headers: { 'content-type': 'application/graphml+xml; charset=utf-8', 'content-disposition': `attachment; filename="crawl-${crawlId}-coherence.graphml"` },
  }));
