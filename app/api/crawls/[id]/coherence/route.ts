import { coherenceReport } from '../../../../../worker/coherence/coherence-report';
import { coherenceRoute } from './coherence-route';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/coherence → summary, discovery tree, change-rate histogram. */
export const GET = coherenceRoute(async ({ crawlId, prisma, warcDir }) => Response.json(await coherenceReport(prisma, crawlId, warcDir)));
