'use client';
import { useState, type ReactNode } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { formatBytes, useCrawlReport } from '../../lib/client/queries';

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

/** Heritrix's hosts, MIME-type and status reports, folded until opened (they group the whole crawl log). */
export function CrawlReports({ crawlId, running }: { crawlId: number; running: boolean }) {
  const [open, setOpen] = useState(false);
  const report = useCrawlReport(crawlId, open);
  const r = report.data;
  return (
    <details className="card" open={open} onToggle={(e) => setOpen(e.currentTarget.open)} data-testid="crawl-reports">
      <summary className="cursor-pointer text-lg font-semibold">Reports: hosts, MIME types, statuses</summary>
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
      {r && (
        <div className="mt-4 grid gap-6 lg:grid-cols-3">
          <ReportTable
            id="report-hosts"
            caption={r.hostCount > r.hosts.length ? `Hosts (the ${r.hosts.length} most fetched of ${r.hostCount})` : `Hosts (${r.hostCount})`}
            heads={['Host', 'Fetches', 'OK', 'Failed or excluded', 'Bytes']}
            rows={r.hosts.map((h) => [h.host, h.fetches, h.ok, h.failed, formatBytes(h.bytes)])}
          />
          <ReportTable
            id="report-mime"
            caption="MIME types (captures)"
            heads={['MIME type', 'Captures', 'Bytes']}
            rows={r.mimeTypes.map((m) => [m.mime ?? '(none)', m.captures, formatBytes(m.bytes)])}
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
