import { readCertificate } from '../../../../../../worker/coherence/coherence-report';
import { coherenceRoute } from '../coherence-route';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/coherence/certificate → coherence-certificate.json as an attachment. */
export const GET = coherenceRoute(async ({ crawlId, warcDir }) => {
  const certificate = readCertificate(warcDir);
  if (certificate === null) return Response.json({ error: 'not found' }, { status: 404 });
  return new Response(certificate, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="crawl-${crawlId}-coherence-certificate.json"` },
  });
});
