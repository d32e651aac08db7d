import type { CrawlStats } from '../../../worker/events/messages';
import { formatBytes, type ShownRate } from '../../lib/client/queries';

/**
 * The crawl's counters, updated by socket.io events through the query cache. A failure reason,
 * when `onFailureReason` is given, shows that reason's entries in the crawl log.
 */
export function LiveCounters({ stats, rate, onFailureReason }: { stats: Partial<CrawlStats> | null; rate: ShownRate; onFailureReason?: (reason: string) => void }) {
  const s = stats;
  const counters = [
    { key: 'fetched', label: 'Fetched', value: String(s?.fetched ?? 0) },
    { key: 'queued', label: 'Queued', value: String(s?.queued ?? 0) },
    { key: 'in-flight', label: 'In flight', value: String(s?.inFlight ?? 0) },
    { key: 'failed', label: 'Failed', value: String(s?.failed ?? 0) },
    { key: 'excluded', label: 'Excluded', value: String(s?.excluded ?? 0) },
    { key: 'bytes', label: 'Bytes', value: formatBytes(s?.bytes ?? 0) },
    { key: 'pages-per-second', label: rate.average ? 'Pages/s (average)' : 'Pages/s', value: rate.value.toFixed(2) },
  ];
  const reasons = (record: Record<string, number> | undefined) => Object.entries(record ?? {}).filter(([, n]) => n > 0).sort((a, b) => b[1] - a[1]);
  const failed = reasons(s?.failedByReason);
  const excluded = reasons(s?.excludedByReason);
  return (
    <section aria-label="Counters" className="space-y-2">
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4 lg:grid-cols-7" aria-live="off">
        {counters.map((c) => (
          <div key={c.key} className="card py-3">
            <dt className="text-xs uppercase tracking-wide text-slate-600">{c.label}</dt>
            <dd className="text-2xl font-semibold tabular-nums" data-testid={`counter-${c.key}`}>{c.value}</dd>
          </div>
        ))}
      </dl>
      {(failed.length > 0 || excluded.length > 0) && (
        <div className="flex flex-wrap gap-6 text-sm">
          {failed.length > 0 && (
            <div data-testid="failed-by-reason">
              <h2 className="font-semibold">Failed by reason</h2>
              <ul>
                {failed.map(([r, n]) => (
                  <li key={r}>
                    {onFailureReason ? (
                      <button type="button" className="link font-mono" onClick={() => onFailureReason(r)} title="Show these in the crawl log">{r}</button>
                    ) : (
                      <span className="font-mono">{r}</span>
                    )}
                    : {n}
                  </li>
                ))}
              </ul>
            </div>
          )}
          {excluded.length > 0 && (
            <div data-testid="excluded-by-reason">
              <h2 className="font-semibold">Excluded by reason</h2>
              <ul>{excluded.map(([r, n]) => <li key={r}><span className="font-mono">{r}</span>: {n}</li>)}</ul>
            </div>
          )}
        </div>
      )}
    </section>
  );
}
