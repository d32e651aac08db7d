import { crawlLogText } from '../../../../../../worker/store/crawl-log-text';
import { apiRoute } from '../../../../../lib/server/handler';
import { existingCrawlId } from '../../../../../lib/server/crawl-views';
import { crawlLogFilters } from '../conditions';

export const dynamic = 'force-dynamic';

/**
 * GET /api/crawls/:id/log/download [view] ?outcome&q → the crawl log (the entries the table's filters
 * select, all of them) as tab-separated values, oldest first, as a download: `at` (ISO 8601),
 * `status` (empty: no response), `outcome`, `size`, `duration_ms`, `retries`, `url`, `message`.
 * Streamed in slices (worker/store/crawl-log-text.ts).
 */
export const GET = apiRoute<{ id: string }>('view', async ({ req, params, prisma, db }) => {
  const crawlId = await existingCrawlId(prisma, params.id);
  const filters = crawlLogFilters(new URL(req.url));
  const pieces = crawlLogText(db, crawlId, filters.length ? { sql: filters.map((c) => c.sql).join(' AND '), params: filters.flatMap((c) => c.params) } : null);
  const encoder = new TextEncoder();
  const stream = new ReadableStream<Uint8Array>({
    pull(out) {
      const next = pieces.next();
      if (next.done) out.close();
      else out.enqueue(encoder.encode(next.value));
    },
    cancel() {
      pieces.return(undefined);
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
