import type { SqlCondition } from '../../../../../lib/server/list-query';
import { crawlLogHeader, crawlLogLine, type CrawlLogRow } from '../../../../../lib/server/crawl-log-text';
import { apiRoute } from '../../../../../lib/server/handler';
import { existingCrawlId } from '../../../../../lib/server/crawl-views';
import { crawlLogConditions } from '../conditions';

export const dynamic = 'force-dynamic';

/** Entries read per query: the file streams out in slices, neither held whole nor holding the database. */
const SLICE = 2000;

/**
 * GET /api/crawls/:id/log/download [view] ?outcome&q → the crawl log (the entries the table's filters
 * select, all of them) as tab-separated values, oldest first, as a download: `at` (ISO 8601),
 * `status` (empty: no response), `outcome`, `size`, `duration_ms`, `retries`, `url`, `message`.
 * Entries added while it streams come along up to the last slice.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const crawlId = await existingCrawlId(prisma, params.id);
  const conditions: SqlCondition[] = crawlLogConditions(crawlId, new URL(req.url));
  const where = conditions.map((c) => c.sql).join(' AND ');
  const slice = db.prepare(
    `SELECT id, at, status, outcome, size, durationMs, retries, url, message FROM CrawlLogEntry WHERE ${where} AND id > ? ORDER BY id LIMIT ${SLICE}`,
  );
  const encoder = new TextEncoder();
  let after = 0;
  let headerSent = false;
  const stream = new ReadableStream<Uint8Array>({
    pull(out) {
      if (!headerSent) {
        headerSent = true;
        out.enqueue(encoder.encode(crawlLogHeader()));
        return;
      }
      const rows = slice.all(...conditions.flatMap((c) => c.params), after) as (CrawlLogRow & { id: number })[];
      if (rows.length === 0) return out.close();
      after = rows.at(-1)!.id;
      out.enqueue(encoder.encode(rows.map(crawlLogLine).join('')));
    },
  });
  return new Response(stream, {
    headers: {
      'content-type': 'text/tab-separated-values; charset=utf-8',
      'content-disposition': `attachment; filename="crawl-${crawlId}-log.tsv"`,
      'cache-control': 'no-store',
      'x-content-type-options': 'nosniff',
    },
  });
});
