import { readCertificate } from '../../../../../../worker/coherence/coherence-report';
import { HttpError } from '../../../../../lib/server/handler';
import { coherenceRoute } from '../coherence-route';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/coherence/certificate [view] → coherence-certificate.json as an attachment. */
export const GET = coherenceRoute(async ({ crawlId, warcDir }) => {
  const certificate = readCertificate(warcDir);
  if (certificate === null) throw new HttpError(404, 'not found');
  return new Response(certificate, {
    headers: { 'content-type': 'application/json; charset=utf-8', 'content-disposition': `attachment; filename="crawl-${crawlId}-coherence-certificate.json"` },
  });
});
