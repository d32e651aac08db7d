import { crawlIcd } from '../../../../lib/server/crawl-views';
import { inspectUrl } from '../../../../../worker/frontier/url-inspection';
import { HttpError, apiRoute, idParam } from '../../../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** Longest URL looked up: longer than any the crawl keeps (the ICD's maxUrlLength is at most 65,536). */
const MAX_INPUT = 100_000;

/**
 * GET /api/crawls/:id/inspect [view] ?url=URL → what the crawl knows of one URL
 * (worker/frontier/url-inspection.ts): `{url, entry, discoveryPath, pathCut, scope, captures, log}`.
 * 400 without a url.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const crawlId = idParam(params.id);
  const input = new URL(req.url).searchParams.get('url')?.trim() ?? '';
  if (!input) throw new HttpError(400, 'Give the URL to look up (?url=…)');
  if (input.length > MAX_INPUT) throw new HttpError(400, `The URL is longer than ${MAX_INPUT.toLocaleString('en-US')} characters`);
  return inspectUrl(db, crawlId, await crawlIcd(prisma, crawlId, 'judge-urls'), input);
});
