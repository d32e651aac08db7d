import { visitSetCloses } from '../../../../../worker/coherence';
import { postScoredUrls } from '../../../../../worker/process/crawl-requests';
import { MAX_PENDING_SCORED_URLS, screenScoredUrls, scoredUrlsSchema } from '../../../../../worker/frontier/scored-intake';
import { crawlIcd, settledRequest } from '../../../../lib/server/crawl-views';
import { HttpError, apiRoute, idParam, readJson } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/**
 * POST /api/crawls/:id/urls [run] `[{url, score, blacklist?}]` → 202 `{accepted, excluded, rejected:[{url,reason}]}`.
 * For external analysis processes: scored URLs are queued (or rescored with the ICD's update
 * function), blacklisted ones excluded, by the crawl's worker within a second; URLs out of the
 * crawl's scope are rejected with the reason; a URL given twice (or under other session ids) counts once (screenScoredUrls).
 * 409 once the crawl has ended or is stopping, or once the revisit pass of a visit–revisit capture
 * has begun (it visits no more URLs); 429 when the crawl would have more than 100,000 waiting.
 */
export const POST = apiRoute<{ id: string }>('run', async ({ req, params, prisma, db }) => {
  const id = idParam(params.id);
  const items = await readJson(req, scoredUrlsSchema);
  const icd = await crawlIcd(prisma, id, 'judge-urls');
  const screened = screenScoredUrls(items, icd);
  // Whether the crawl still takes URLs is asked where they are stored, in the same transaction.
  const queued = settledRequest(postScoredUrls(db, id, screened.accepted, visitSetCloses(icd)));
  if (!queued.stored) {
    throw new HttpError(429, `${queued.pending.toLocaleString('en-US')} scored URLs of this crawl wait for its worker, and at most ${MAX_PENDING_SCORED_URLS.toLocaleString('en-US')} may: post again once it has applied them (it does while the crawl runs)`);
  }
  const excluded = screened.accepted.filter((u) => u.blacklist).length;
  return Response.json(
    { accepted: screened.accepted.length - excluded, excluded, rejected: screened.rejected },
    { status: 202, headers: { 'cache-control': 'no-store' } },
  );
});
