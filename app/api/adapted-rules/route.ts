import { APPROVAL_STATUSES, type ApprovalStatus } from '../../../worker/aah';
import { positiveDecimal } from '../../lib/positive-decimal';
import { HttpError, apiRoute } from '../../lib/server/handler';

export const dynamic = 'force-dynamic';

/**
 * GET /api/adapted-rules [view] ?crawlId&status → adapted rules with provenance, newest first.
 * 400 for a crawlId that is no id or a status that is none: both were dropped or matched nothing,
 * so a mistyped filter listed every rule, or none, as if that were the answer.
 */
export const GET = apiRoute('view', async ({ req, prisma }) => {
  const { crawlId, status } = ruleFilters(new URL(req.url));
  const rows = await prisma.adaptedRule.findMany({ where: { ...(crawlId ? { crawlId } : {}), ...(status ? { status } : {}) }, orderBy: { id: 'desc' } });
  return rows.map((row) => ({ ...row, provenance: safeJson(row.provenance) }));
});

/** The list's filters; an absent or empty parameter filters nothing. */
function ruleFilters(url: URL): { crawlId?: number; status?: ApprovalStatus } {
  const rawCrawlId = url.searchParams.get('crawlId');
  const rawStatus = url.searchParams.get('status');
  const crawlId = rawCrawlId ? positiveDecimal(rawCrawlId) : undefined;
  if (crawlId === null) throw new HttpError(400, 'crawlId must be a crawl id (a whole number from 1)');
  const status = rawStatus ? APPROVAL_STATUSES.find((s) => s === rawStatus) : undefined;
  if (rawStatus && !status) throw new HttpError(400, `status must be one of ${APPROVAL_STATUSES.join(', ')}`);
  return { crawlId, status };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
