import { HOST_OF_URL_SQL } from '../../../../../worker/store/sql-url';
import { ROUND_OUTCOMES } from '../../../../../worker/crawler/recrawl-history';
import { EXCLUSION_OUTCOMES } from '../../../../../worker/crawler/crawl-stats';
import { crawlIcd } from '../../../../lib/server/crawl-views';
import { readSeedReport } from '../../../../../worker/frontier/seed-report';
import { readHostQueues } from '../../../../../worker/frontier/host-queues';
import { readRecordHttpHeader } from '../../../../../worker/warc/read-record';
import { crawlWarcDir } from '../../../../../worker/store/data-layout';
import { apiRoute, idParam } from '../../../../lib/server/handler';
import { services } from '../../../../lib/server/services';

export const dynamic = 'force-dynamic';

/** Most hosts listed; `hostCount` says how many there are in all. */
const MAX_HOSTS = 200;
/** Most seeds listed (each may mean reading its redirects' records); `seedCount` says how many there are. */
const MAX_SEEDS = 200;

interface HostRow {
  host: string;
  fetches: number;
  ok: number;
  failed: number;
  excluded: number;
  bytes: number;
}

/**
 * GET /api/crawls/:id/report [view] → Heritrix-style crawl reports, from the crawl log and the
 * captures: `hosts` (fetches, ok, failed, excluded, bytes; ok includes a capture cut at the size cap,
 * `truncated-*`, which the failure counters do not count either; most fetched first, at most 200, of
 * `hostCount`; a recrawl round's failure or recovery, logged under a page's URL, is no fetch of its host;
 * a URL the crawl log records as excluded (EXCLUSION_OUTCOMES: robots.txt, an exclude pattern) was never
 * requested: counted as excluded, not as a fetch; the hosts' figures count requests, so a robots.txt
 * request's own entry, subject 'robots', is a fetch of its host, one that got no answer a failed one), `mimeTypes` (captures and bytes),
 * `records` (captures per WARC record type, response then revisit: their payloads' bytes and the bytes their records take in the
 * WARC files, so what deduplication saved shows) and `statuses` (crawl-log entries per HTTP
 * status; null when no response came back). Grouped in SQLite: one query each, any crawl size.
 * `seeds` (the ICD's first 200 of `seedCount`, in its order): what became of each seed and of each
 * URL it redirects to (worker/frontier/seed-report.ts), `{seed, hops: [{url, state, status, reason,
 * message}], cut}`. `queues` (worker/frontier/host-queues.ts): the 200 hosts with the most URLs
 * waiting in the frontier, `{queues: [{host, queued, retrying, inFlight}], hostCount, waiting}`.
 */
export const GET = apiRoute<{ id: string }>('view', async ({ params, db, prisma }) => {
  const crawlId = idParam(params.id);
  const icd = await crawlIcd(prisma, crawlId);
  const hosts = db
    .prepare(
      `SELECT host, fetches, ok, fetches - ok AS failed, excluded, bytes FROM (
         SELECT ${HOST_OF_URL_SQL} AS host, SUM(NOT excluded) AS fetches, SUM(outcome = 'ok' OR outcome LIKE 'truncated-%') AS ok, SUM(excluded) AS excluded, SUM(size) AS bytes
         FROM (SELECT url, outcome, size, outcome IN (${EXCLUSION_OUTCOMES.map(() => '?').join(', ')}) AS excluded FROM CrawlLogEntry WHERE crawlId = ? AND outcome NOT IN (${ROUND_OUTCOMES.map(() => '?').join(', ')})) GROUP BY host
       ) ORDER BY fetches DESC, excluded DESC, host LIMIT ?`,
    )
    .all(...EXCLUSION_OUTCOMES, crawlId, ...ROUND_OUTCOMES, MAX_HOSTS) as HostRow[];
  const { hostCount } = db.prepare(`SELECT COUNT(DISTINCT ${HOST_OF_URL_SQL}) AS hostCount FROM CrawlLogEntry WHERE crawlId = ? AND outcome NOT IN (${ROUND_OUTCOMES.map(() => '?').join(', ')})`).get(crawlId, ...ROUND_OUTCOMES) as { hostCount: number };
  const mimeTypes = db
    .prepare('SELECT mime, COUNT(*) AS captures, SUM(size) AS bytes FROM Capture WHERE crawlId = ? GROUP BY mime ORDER BY captures DESC, mime')
    .all(crawlId) as { mime: string | null; captures: number; bytes: number }[];
  const records = db
    .prepare('SELECT recordType, COUNT(*) AS captures, SUM(size) AS bytes, SUM(warcLength) AS warcBytes FROM Capture WHERE crawlId = ? GROUP BY recordType ORDER BY recordType DESC')
    .all(crawlId) as { recordType: string; captures: number; bytes: number; warcBytes: number }[];
  const statuses = db
    .prepare('SELECT status, COUNT(*) AS entries FROM CrawlLogEntry WHERE crawlId = ? GROUP BY status ORDER BY entries DESC, status')
    .all(crawlId) as { status: number | null; entries: number }[];
  const warcDir = crawlWarcDir(services().env.dataDir, crawlId);
  const seeds = await readSeedReport(db, crawlId, icd.seeds, icd.scope.queryHandling, MAX_SEEDS, (file, offset, length) =>
    readRecordHttpHeader(warcDir, file, offset, length, 'location'),
  );
  const queues = readHostQueues(db, crawlId, MAX_HOSTS);
  return { hosts, hostCount, mimeTypes, records, statuses, seeds, seedCount: icd.seeds.length, queues };
});
