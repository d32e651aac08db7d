import { apiRoute } from '../../lib/server/handler';

export const dynamic = 'force-dynamic';

/** GET /api/adapted-rules [view] ?crawlId&status → adapted rules with provenance, newest first. */
export const GET = apiRoute('view', async ({ req, prisma }) => {
  const url = new URL(req.url);
  const crawlId = Number(url.searchParams.get('crawlId')) || undefined;
  const status = url.searchParams.get('status') || undefined;
  const rows = await prisma.adaptedRule.findMany({ where: { ...(crawlId ? { crawlId } : {}), ...(status ? { status } : {}) }, orderBy: { id: 'desc' } });
  return rows.map((row) => ({ ...row, provenance: safeJson(row.provenance) }));
});

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}
