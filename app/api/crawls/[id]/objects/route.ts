import { apiRoute, pageParams } from '../../../../lib/server/handler';
import { existingCrawlId } from '../../../../lib/server/crawl-views';
import { anyOf, containsText, equals, inIdOrder, listPage, urlContainsText } from '../../../../lib/server/list-query';
import { selectedHost } from '../../../../../worker/export/collection-plan';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/objects [view] ?page&pageSize&type&host&q → Web objects the AAH extracted, newest first.
 * `host` as a collection's hosts are read (selectedHost): in any case, in its script or punycode, or
 * pasted as a URL; the objects store it as their URL's host (punycode, lower case, with a port).
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const url = new URL(req.url);
  const { page, pageSize, offset } = pageParams(url);
  const type = url.searchParams.get('type')?.trim();
  const host = url.searchParams.get('host')?.trim();
  const q = url.searchParams.get('q')?.trim();
  const conditions = [
    equals('crawlId', await existingCrawlId(prisma, params.id)),
    ...(type ? [equals('type', type)] : []),
    ...(host ? [equals('host', selectedHost(host))] : []),
    // `q` searches the fields' text and the source URL, as written (fields are stored as one JSON string).
    ...(q ? [anyOf(containsText(['fields'], q), urlContainsText(['url'], q))] : []),
  ];
  const { ids, total } = listPage(db, { table: 'WebObject', conditions, orderBy: 'id DESC', offset, limit: pageSize });
  const rows = await prisma.webObject.findMany({ where: { id: { in: ids } } });
  const items = inIdOrder(rows, ids).map((row) => ({ ...row, fields: parseFields(row.fields) }));
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
