import { coherenceReport, coherenceVersion } from '../../../../../worker/coherence/coherence-report';
import { coherenceRoute } from './coherence-route';
import { isNotModified } from '../../../../lib/version-tag';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/coherence [view] → summary, discovery tree, change-rate histogram; with the
 * report's version as ETag, and a 304 for an If-None-Match that names the current one (the cockpit
 * asks again while the passes run: 0.4 s and 12 MB for 100,000 pages, a few ms for the 304).
 */
export const GET = coherenceRoute(async ({ crawlId, db, request, warcDir }) => {
  const etag = (version: string) => `"${version}"`;
  const current = etag(coherenceVersion(db, crawlId, warcDir));
  if (isNotModified(request.headers.get('if-none-match'), current)) return new Response(null, { status: 304, headers: { etag: current, 'cache-control': 'no-store' } });
  const report = coherenceReport(db, crawlId, warcDir);
  return Response.json(report, { headers: { etag: etag(report.version), 'cache-control': 'no-store' } });
});
