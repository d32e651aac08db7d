import { coherenceReport } from '../../../../../worker/coherence/coherence-report';
import { coherenceRoute } from './coherence-route';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/coherence [view] → summary, discovery tree, change-rate histogram. */
export const GET = coherenceRoute(async ({ crawlId, db, warcDir }) => coherenceReport(db, crawlId, warcDir));
