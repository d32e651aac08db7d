'use client';
import { useState, type ReactNode } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { formatBytes, useCrawlReport, useSeedsPage, type CrawlReport } from '../../lib/client/queries';
import { seedOutcome } from '../../../worker/frontier/url-outcome';
import { backoffWords } from '../../../worker/frontier/host-queue-backoff';

/** A small report table: a caption, column heads (numbers right-aligned), rows. */
function ReportTable({ id, caption, heads, rows }: { id: string; caption: string; heads: string[]; rows: ReactNode[][] }) {
  return (
    <div className="overflow-x-auto">
      <table className="table-base" data-testid={id}>
        <caption className="mb-1 text-left text-sm font-semibold">{caption}</caption>
        <thead>
          <tr>
            {heads.map((h, i) => <th key={h} scope="col" className={i > 0 ? 'text-right' : ''}>{h}</th>)}
          </tr>
        </thead>
        <tbody>
          {rows.map((cells, r) => (
            <tr key={r}>
              {cells.map((c, i) => <td key={i} className={i > 0 ? 'text-right tabular-nums' : 'font-mono text-xs'}>{c}</td>)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/**
 * Heritrix's seeds report: each seed, where it redirects, and how its chain ended (the crawl log's
 * message when it went wrong). The report holds the first page of seeds; the others are read, a
 * page at a time, when asked for (GET /api/crawls/:id/seeds), as of when they are read.
 */
function SeedsTable({ crawlId, report }: { crawlId: number; report: CrawlReport }) {
  const [page, setPage] = useState(1);
  const perPage = Math.max(1, report.seeds.length);
  const pages = Math.max(1, Math.ceil(report.seedCount / perPage));
  const later = useSeedsPage(crawlId, page, page > 1);
  const rows = page === 1 ? report.seeds : later.data?.items ?? [];
  // The page the rows are of: while the next one loads, the rows (and so the caption) stay the last one's.
  const first = ((page === 1 ? 1 : later.data?.page ?? page) - 1) * perPage + 1;
  const caption = pages === 1
    ? `Seeds (${report.seedCount})`
    : page === 1
      ? `Seeds (the first ${report.seeds.length} of ${report.seedCount})`
      : `Seeds (${first.toLocaleString('en')}–${(first + rows.length - 1).toLocaleString('en')} of ${report.seedCount.toLocaleString('en')})`;
  return (
    <div className="mt-4 overflow-x-auto">
      <ErrorMessage error={later.error} />
      <table className="table-base" data-testid="report-seeds" aria-busy={page > 1 && later.isFetching}>
        <caption className="mb-1 text-left text-sm font-semibold">{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Seed</th>
            <th scope="col">Outcome</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((row, i) => {
            const outcome = seedOutcome(row);
            const last = row.hops.at(-1)!;
            return (
              <tr key={i} data-outcome={outcome.captured ? 'captured' : outcome.problem ? 'problem' : 'pending'}>
                <td className="font-mono text-xs break-all">{row.seed}</td>
                <td className={`text-sm ${outcome.problem ? 'text-red-700' : ''}`}>
                  {outcome.steps.map((step, k) => (
                    <div key={k} className={k > 0 ? 'break-all' : ''}>{step}</div>
                  ))}
                  {outcome.problem && last.message && <div className="text-xs text-slate-600">{last.message}</div>}
                </td>
              </tr>
            );
          })}
        </tbody>
      </table>
      {pages > 1 && (
        <nav aria-label="Pages of seeds" className="mt-2 flex items-center gap-3 text-sm" data-testid="seeds-pages">
          <button type="button" className="btn" disabled={page === 1} onClick={() => setPage(page - 1)}>Previous {perPage} seeds</button>
          <span>Page {page} of {pages}</span>
          <button type="button" className="btn" disabled={page === pages} onClick={() => setPage(page + 1)} data-testid="next-seeds">Next {perPage} seeds</button>
        </nav>
      )}
    </div>
  );
}

/**
 * Heritrix's seeds, hosts, host-queues, MIME-type, deduplication and status reports, folded until
 * opened (they group the whole crawl log); `open` and `onOpenChange` let the page open them (the
 * header's "and N more seeds").
 */
export function CrawlReports({ crawlId, running, open, onOpenChange }: { crawlId: number; running: boolean; open: boolean; onOpenChange: (open: boolean) => void }) {
  const setOpen = onOpenChange;
  const report = useCrawlReport(crawlId, open);
  const r = report.data;
  return (
    <details id="crawl-reports" className="card" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="crawl-reports">
      <summary className="cursor-pointer text-lg font-semibold">Reports: seeds, hosts, host queues, MIME types, WARC records, statuses</summary>
      <ErrorMessage error={report.error} />
      {open && report.isPending && <p className="mt-3 text-sm text-slate-600">Counting…</p>}
      {r && (
        <p className="mt-3 flex items-center gap-3 text-sm text-slate-600">
          Counted at {new Date(report.dataUpdatedAt).toLocaleTimeString()}
          {running && ' (the crawl goes on)'}
          <button type="button" className="btn" onClick={() => void report.refetch()} disabled={report.isFetching} data-testid="refresh-reports">
            {report.isFetching ? 'Counting…' : 'Count again'}
          </button>
        </p>
      )}
      {r && <SeedsTable crawlId={crawlId} report={r} />}
      {r && (
        <div className="mt-4 grid gap-6 lg:grid-cols-2">
          <ReportTable
            id="report-hosts"
            caption={r.hostCount > r.hosts.length ? `Hosts (the ${r.hosts.length} most fetched of ${r.hostCount})` : `Hosts (${r.hostCount})`}
            heads={['Host', 'Fetches', 'OK', 'Failed', 'Excluded, not fetched', 'Not requested, robots.txt unanswered', 'Bytes']}
            rows={r.hosts.map((h) => [h.host, h.fetches, h.ok, h.failed, h.excluded, h.notRequested, formatBytes(h.bytes)])}
          />
          <ReportTable
            id="report-queues"
            caption={
              r.queues.hostCount > r.queues.queues.length
                ? `Host queues: ${r.queues.waiting.toLocaleString()} URLs waiting (the ${r.queues.queues.length} largest of ${r.queues.hostCount} hosts)`
                : `Host queues: ${r.queues.waiting.toLocaleString()} URLs waiting on ${r.queues.hostCount} host${r.queues.hostCount === 1 ? '' : 's'}`
            }
            heads={['Host', 'Queued', 'Retrying', 'In flight', 'Back-off (no answer)']}
            rows={r.queues.queues.map((q) => [q.host, q.queued, q.retrying, q.inFlight, q.backoff ? backoffWords(q.backoff) : ''])}
          />
          <ReportTable
            id="report-mime"
            caption="MIME types (captures)"
            heads={['MIME type', 'Captures', 'Bytes']}
            rows={r.mimeTypes.map((m) => [m.mime ?? '(none)', m.captures, formatBytes(m.bytes)])}
          />
          <ReportTable
            id="report-records"
            caption="WARC records (a revisit stores no payload again)"
            heads={['Record type', 'Captures', 'Payload bytes', 'Stored in WARC']}
            rows={r.records.map((k) => [k.recordType, k.captures, formatBytes(k.bytes), formatBytes(k.warcBytes)])}
          />
          <ReportTable
            id="report-status"
            caption="HTTP statuses (crawl log)"
            heads={['Status', 'Entries']}
            rows={r.statuses.map((s) => [s.status ?? 'no response', s.entries])}
          />
        </div>
      )}
    </details>
  );
}
