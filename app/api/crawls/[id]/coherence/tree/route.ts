import { z } from 'zod';
import { coherenceTreePage, TREE_PAGE_MAX } from '../../../../../../worker/coherence/coherence-report';
import { coherenceRoute } from '../coherence-route';

export const dynamic = 'force-dynamic';

/** Rows a page holds unless `limit` says otherwise. */
const TREE_PAGE_DEFAULT = 1_000;

const querySchema = z.object({
  after: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).default(0),
  limit: z.coerce.number().int().min(1).max(TREE_PAGE_MAX).default(TREE_PAGE_DEFAULT),
});

/**
 * GET /api/crawls/:id/coherence/tree?after=&limit= [view] → `{items, next, total}`: the discovery
 * tree's rows after row id `after` (0: from the first), at most `limit` (1,000; up to 2,000), in visit
 * order; `next` the `after` of the following page, null after the last; 400 for another value.
 */
export const GET = coherenceRoute(async ({ crawlId, db, request }) => {
  const { after, limit } = querySchema.parse(Object.fromEntries(new URL(request.url).searchParams));
  return coherenceTreePage(db, crawlId, after, limit);
});
