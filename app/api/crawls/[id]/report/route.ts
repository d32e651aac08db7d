import { readHostsReport } from '../../../../../worker/crawler/hosts-report';
import { readCapturesReport } from '../../../../../worker/crawler/captures-report';
import { crawlIcd } from '../../../../lib/server/crawl-views';
import { readHostQueues } from '../../../../../worker/frontier/host-queues';
import { apiRoute, idParam } from '../../../../lib/server/handler';
import { SEEDS_PER_PAGE, seedReportPage } from '../../../../lib/server/crawl-seeds';

export const dynamic = 'force-dynamic';

/** Most hosts listed; `hostCount` says how many there are in all. */
const MAX_HOSTS = 200;

/**
 * GET /api/crawls/:id/report [view] → Heritrix-style crawl reports, from the crawl log and the
 * captures: `hosts` (fetches, ok, failed, excluded, notRequested, bytes; most fetched first, at most 200, of
 * `hostCount`; the figures count requests, worker/crawler/hosts-report.ts says which: a page never
 * requested because its host's robots.txt got no answer is counted as notRequested, not as a failed fetch), `mimeTypes` (captures and bytes),
 * `records` (captures per WARC record type, revisit then response: their payloads' bytes and the bytes their records take in the
 * WARC files, so what deduplication saved shows) and `statuses` (crawl-log entries per HTTP
 * status; null when no response came back). Grouped in SQLite: one query each, any crawl size; the
 * hosts and statuses from the crawl log's tallies (CrawlHostTally, CrawlLogTally), not the log itself,
 * the mimeTypes and records from the captures' (CaptureTally), not the captures.
 * `seeds` (the ICD's first 200 of `seedCount`, in its order): what became of each seed and of each
 * URL it redirects to (worker/frontier/seed-report.ts), `{seed, hops: [{url, state, status, reason,
 * message}], cut}`; GET …/seeds pages through the rest. `queues` (worker/frontier/host-queues.ts): the 200 hosts with the most URLs
 * waiting in the frontier, `{queues: [{host, queued, retrying, inFlight}], hostCount, waiting}`.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ params, db, prisma }) => {
  const crawlId = idParam(params.id);
  const icd = await crawlIcd(prisma, crawlId, 'view');
  const { hosts, hostCount } = readHostsReport(db, crawlId, MAX_HOSTS);
  const { mimeTypes, records } = readCapturesReport(db, crawlId);
  // From the crawl's log tallies, where status 0 counts the entries without a response (null).
  const statuses = db
    .prepare('SELECT NULLIF(status, 0) AS status, SUM(entries) AS entries FROM CrawlLogTally WHERE crawlId = ? GROUP BY status ORDER BY entries DESC, NULLIF(status, 0)')
    .all(crawlId) as { status: number | null; entries: number }[];
  const seeds = await seedReportPage(db, crawlId, icd, 0, SEEDS_PER_PAGE);
  const queues = readHostQueues(db, crawlId, MAX_HOSTS);
  return { hosts, hostCount, mimeTypes, records, statuses, seeds, seedCount: icd.seeds.length, queues };
});
