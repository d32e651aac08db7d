import { apiRoute, pageParams } from '../../../../lib/server/handler';
import { existingCrawlId } from '../../../../lib/server/crawl-views';

export const dynamic = 'force-dynamic';

/** GET /api/crawls/:id/objects [view] ?page&pageSize&type&host&q → Web objects the AAH extracted, newest first. */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma }) => {
  const url = new URL(req.url);
  const { page, pageSize, offset } = pageParams(url);
  const type = url.searchParams.get('type')?.trim();
  const host = url.searchParams.get('host')?.trim();
  const q = url.searchParams.get('q')?.trim();
  // `q` searches the fields' text and the source URL (fields are stored as one JSON string).
  const where = {
    crawlId: await existingCrawlId(prisma, params.id),
    ...(type ? { type } : {}),
    ...(host ? { host } : {}),
    ...(q ? { OR: [{ fields: { contains: q } }, { url: { contains: q } }] } : {}),
  };
  const [rows, total] = await Promise.all([
    prisma.webObject.findMany({ where, orderBy: { id: 'desc' }, skip: offset, take: pageSize }),
    prisma.webObject.count({ where }),
  ]);
  const items = rows.map((row) => ({ ...row, fields: parseFields(row.fields) }));
  return { items, total, page, pageSize };
});

function parseFields(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : { value };
  } catch {
    return { text };
  }
}
