'use client';
import { useRouter, useSearchParams } from 'next/navigation';
import { useCallback, useRef, useState } from 'react';
import { CrawlPicker } from '../components/crawl-picker';
import { COHERENCE_STATUSES, describeSelection, describeStoredSelection, takesRequisites, type ExportFormat } from '../../worker/export/collection-plan';
import { exportCancelRefusal, exportDeleteRefusal, exportRefusal, noCapturesRefusal } from '../../worker/process/crawl-control';
import { DeleteExport } from './delete-export';
import { OtherCrawlsPicker } from './other-crawls-picker';
import { ErrorMessage } from '../components/error-message';
import { StatusBadge } from '../components/status-badge';
import { exportFileName, formatBytes, formatDate, selectionFromForm, useCancelExport, useExports, useRequestExport, useSelectionPreview, type CrawlRow, type ExportRecord } from '../lib/client/queries';

const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'];
const COHERENCE_LABELS: Record<(typeof COHERENCE_STATUSES)[number], string> = {
  unchanged: 'unchanged (proved coherent)', 'content-changed': 'content changed', 'links-changed': 'links changed', missing: 'missing',
};
import { useCan } from '../lib/client/session';
import { exportUnderWayFor } from '../lib/client/export-request';
import { isolate } from '../lib/client/bidi-isolate';

/** Export a crawl: pick it, request an export, follow its progress, download the WARC files and the CDXJ index. */
export function ExportsView() {
  const params = useSearchParams();
  const router = useRouter();
  const mayExport = useCan('export');
  const selected = Number(params.get('crawl')) || null;
  // The picker's crawls (the chosen one among them): its status decides whether it may be exported.
  const [crawls, setCrawls] = useState<{ items: CrawlRow[]; error: unknown }>({ items: [], error: null });
  const onLoaded = useCallback((items: CrawlRow[], error: unknown) => setCrawls({ items, error }), []);
  const exports = useExports(mayExport ? selected : null);
  const request = useRequestExport();
  const crawl = crawls.items.find((c) => c.id === selected);
  // The server's rule and words (409): a paused crawl asked to resume is refused too. An ended
  // crawl whose stats count no page is not refused there, but its export could only fail.
  const fetched = crawl?.stats?.fetched;
  const refusal = crawl ? (exportRefusal(crawl.status, crawl.desired ?? '') ?? (typeof fetched === 'number' ? noCapturesRefusal(crawl.status, fetched) : null)) : null;
  const [format, setFormat] = useState<ExportFormat>('warc');
  const [pageText, setPageText] = useState(false);
  // requisites: null until the manager ticks or clears the box (the server's default then, which the box shows).
  const [form, setForm] = useState({ hosts: '', mimeTypes: '', statusClasses: [] as string[], urlContains: '', coherence: [] as string[], requisites: null as boolean | null });
  const toggle = (list: string[], value: string, on: boolean) => (on ? [...list, value].sort() : list.filter((x) => x !== value));
  const selection = selectionFromForm(form);
  // The other crawls of its ICD ticked, for the crawl chosen when they were (another crawl starts with none).
  const [taken, setTaken] = useState<{ crawlId: number | null; ids: number[] }>({ crawlId: null, ids: [] });
  const otherCrawls = taken.crawlId === selected ? taken.ids : [];
  const preview = useSelectionPreview(selected, selection, otherCrawls);
  const ask = selected ? { crawlId: selected, selection, format, pageText, otherCrawls } : null;
  // The export just requested, while it is being made and the form asks for it again: not twice.
  const underWay = exportUnderWayFor(request.isSuccess ? { ask: request.variables, id: request.data.id } : undefined, ask, exports.data);
  // After a delete the card is gone: the focus goes to the list's heading, and the deletion is said.
  const listHeading = useRef<HTMLHeadingElement>(null);
  const [deleted, setDeleted] = useState<number | null>(null);
  const onDeleted = (id: number) => {
    setDeleted(id);
    listHeading.current?.focus();
  };

  if (!mayExport) {
    return (
      <div className="space-y-4">
        <h1 className="text-2xl font-bold">Exports</h1>
        <p role="alert" data-testid="forbidden" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-amber-900">
          Not allowed: exporting collections is for managers. Your role may not export.
        </p>
      </div>
    );
  }
  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold">Exports</h1>
      <div className="card flex flex-wrap items-end gap-3">
        <CrawlPicker
          id="export-crawl"
          className="input min-w-72"
          value={selected}
          onChange={(id) => router.replace(id ? `/exports?crawl=${id}` : '/exports')}
          optionLabel={(c) => `${isolate(c.name)} #${c.id} (${c.status}, ${c.stats?.fetched ?? 0} pages)`}
          onLoaded={onLoaded}
        />
        <fieldset className="flex flex-wrap gap-x-4 gap-y-1 text-sm" data-testid="export-format">
          <legend className="mb-1 font-medium">As</legend>
          <label className="flex items-center gap-1">
            <input type="radio" name="export-format" value="warc" checked={format === 'warc'} onChange={() => setFormat('warc')} />
            WARC files and a CDXJ index
          </label>
          <label className="flex items-center gap-1">
            <input type="radio" name="export-format" value="wacz" checked={format === 'wacz'} onChange={() => setFormat('wacz')} />
            one WACZ package (opens in ReplayWeb.page)
          </label>
          {format === 'wacz' && (
            <label className="flex items-center gap-1">
              <input type="checkbox" checked={pageText} onChange={(e) => setPageText(e.target.checked)} />
              with each page&apos;s text (searchable in ReplayWeb.page; a longer export)
            </label>
          )}
        </fieldset>
        <button
          type="button"
          className="btn btn-primary"
          disabled={!ask || request.isPending || underWay !== null || refusal !== null || ((selection !== undefined || otherCrawls.length > 0) && preview.data?.captures === 0)}
          onClick={() => ask && underWay === null && request.mutate(ask)}
          data-testid="request-export"
        >
          {selection ? 'Export the selection' : 'Request export'}{otherCrawls.length ? ` of ${otherCrawls.length + 1} crawls` : ''}
        </button>
        {refusal && <p className="text-sm text-slate-700" data-testid="export-refusal">{refusal}.</p>}
        {underWay !== null && (
          <p role="status" className="text-sm text-slate-700" data-testid="export-under-way">
            Export #{underWay} is being prepared (below): the same export can be requested again once it has ended.
          </p>
        )}
        <ErrorMessage error={request.error ?? crawls.error} />
        {selected && <OtherCrawlsPicker crawlId={selected} value={otherCrawls} onChange={(ids) => setTaken({ crawlId: selected, ids })} />}
        {!selection && otherCrawls.length > 0 && (
          <p className="w-full text-sm" role="status" data-testid="other-crawls-preview">
            {preview.isError ? <ErrorMessage error={preview.error} /> : preview.data ? `${preview.data.captures.toLocaleString('en')} captures over ${otherCrawls.length + 1} crawls (${formatBytes(preview.data.bytes)})` : 'Counting the captures…'}
          </p>
        )}
        <details className="w-full" data-testid="export-selection">
          <summary className="cursor-pointer text-sm font-medium">
            Select part of the crawl (a collection){selection && <span className="font-normal text-slate-600"> · {describeSelection(selection)}</span>}
          </summary>
          <p className="mt-2 text-sm text-slate-600">
            Captures matching every filter you fill in go into new WARC files of their own, with their requests and metadata, the
            records their revisits point to, the captures their redirects lead to, their pages&apos; requisites if you keep them, and an index. Leave all empty to export the crawl&apos;s own files.
          </p>
          <div className="mt-2 grid gap-3 md:grid-cols-2">
            <div>
              <label htmlFor="selection-hosts" className="mb-1 block text-sm font-medium">Hosts</label>
              <textarea id="selection-hosts" className="input h-20 w-full font-mono text-sm" value={form.hosts} onChange={(e) => setForm({ ...form, hosts: e.target.value })} aria-describedby="selection-hosts-help" />
              <p id="selection-hosts-help" className="text-xs text-slate-600">One per line, with the port when not the default (example.org, 127.0.0.1:3001).</p>
            </div>
            <div>
              <label htmlFor="selection-mime" className="mb-1 block text-sm font-medium">MIME types</label>
              <textarea id="selection-mime" className="input h-20 w-full font-mono text-sm" value={form.mimeTypes} onChange={(e) => setForm({ ...form, mimeTypes: e.target.value })} aria-describedby="selection-mime-help" />
              <p id="selection-mime-help" className="text-xs text-slate-600">One per line; a prefix takes a family (image/).</p>
            </div>
            <fieldset>
              <legend className="mb-1 text-sm font-medium">HTTP statuses</legend>
              <div className="flex gap-4">
                {STATUS_CLASSES.map((c) => (
                  <label key={c} className="flex items-center gap-1 text-sm">
                    <input
                      type="checkbox"
                      checked={form.statusClasses.includes(c)}
                      onChange={(e) => setForm({ ...form, statusClasses: toggle(form.statusClasses, c, e.target.checked) })}
                    />
                    {c}
                  </label>
                ))}
              </div>
            </fieldset>
            <div>
              <label htmlFor="selection-url" className="mb-1 block text-sm font-medium">URL contains</label>
              <input id="selection-url" className="input w-full font-mono text-sm" value={form.urlContains} onChange={(e) => setForm({ ...form, urlContains: e.target.value })} />
            </div>
            <fieldset className="md:col-span-2">
              <legend className="mb-1 text-sm font-medium">Coherence between visit and revisit (visit–revisit captures)</legend>
              <div className="flex flex-wrap gap-4">
                {COHERENCE_STATUSES.map((c) => (
                  <label key={c} className="flex items-center gap-1 text-sm">
                    <input type="checkbox" checked={form.coherence.includes(c)} onChange={(e) => setForm({ ...form, coherence: toggle(form.coherence, c, e.target.checked) })} />
                    {COHERENCE_LABELS[c]}
                  </label>
                ))}
              </div>
              <p className="text-xs text-slate-600">With a coherence filter the collection also holds the crawl&apos;s coherence certificate.</p>
            </fieldset>
            <div className="md:col-span-2">
              <label className="flex items-center gap-1 text-sm">
                <input
                  type="checkbox"
                  checked={takesRequisites({ mimeTypes: selection?.mimeTypes, requisites: form.requisites ?? undefined })}
                  onChange={(e) => setForm({ ...form, requisites: e.target.checked })}
                  aria-describedby="selection-requisites-help"
                />
                with the pages&apos; requisites
              </label>
              <p id="selection-requisites-help" className="text-xs text-slate-600">
                What the selected pages embed (images, stylesheets, scripts, fonts, frames), so they replay as captured. On unless you filter by MIME type; ticked with a MIME filter, only requisites of those types come.
              </p>
            </div>
          </div>
          {selection && (
            <p className="mt-2 text-sm" role="status" data-testid="selection-preview">
              {preview.isError ? (
                <ErrorMessage error={preview.error} />
              ) : preview.data ? (
                <>
                  {preview.data.captures.toLocaleString('en')} capture{preview.data.captures === 1 ? '' : 's'} match ({formatBytes(preview.data.bytes)})
                  {preview.data.captures === 0 && ': nothing to export'}
                </>
              ) : (
                'Counting the captures that match…'
              )}
            </p>
          )}
        </details>
      </div>
      {selected && (
        <section aria-labelledby="exports-title" className="space-y-3">
          <h2 id="exports-title" ref={listHeading} tabIndex={-1} className="text-lg font-semibold">Exports of {crawl ? <bdi>{crawl.name}</bdi> : `crawl #${selected}`}</h2>
          <p role="status" className="text-sm text-slate-700" data-testid="export-deleted">{deleted !== null && `Export #${deleted} deleted, with its files.`}</p>
          <ErrorMessage error={exports.error} />
          {exports.data?.length === 0 && <p className="text-slate-600">No export yet.</p>}
          <ul className="space-y-3">
            {exports.data?.map((e) => <ExportCard key={e.id} record={e} listedFor={selected} onDeleted={() => onDeleted(e.id)} />)}
          </ul>
        </section>
      )}
    </div>
  );
}

/** One export in the list of crawl `listedFor`'s exports: started from it, or from another crawl that took it. */
function ExportCard({ record, listedFor, onDeleted }: { record: ExportRecord; listedFor: number; onDeleted: () => void }) {
  const pct = Math.round(Math.min(1, Math.max(0, record.progress ?? 0)) * 100);
  const files = record.files ?? [];
  const cancel = useCancelExport();
  return (
    <li className="card space-y-2" data-testid="export" data-export-id={record.id} data-status={record.status}>
      <div className="flex flex-wrap items-center gap-3">
        <h3 className="font-semibold">Export #{record.id}</h3>
        <StatusBadge status={record.status} />
        {record.createdAt && <span className="text-sm text-slate-600">requested {formatDate(record.createdAt)}</span>}
        {exportCancelRefusal(record.status) === null && (
          <button
            type="button"
            className="btn btn-danger"
            disabled={cancel.isPending}
            onClick={() => cancel.mutate({ exportId: record.id, crawlId: listedFor })}
            aria-label={`Cancel export ${record.id}`}
            data-testid="cancel-export"
          >
            {cancel.isPending ? 'Cancelling…' : 'Cancel'}
          </button>
        )}
        {exportDeleteRefusal(record.status) === null && <DeleteExport exportId={record.id} crawlId={listedFor} onDeleted={onDeleted} />}
      </div>
      {record.status === 'cancelled' && (
        <p className="text-sm text-slate-700" data-testid="export-cancelled">
          Cancelled{record.cancelledBy ? ` by ${record.cancelledBy}` : ''}{record.cancelledAt ? ` at ${formatDate(record.cancelledAt)}` : ''}: what it had written was removed.
        </p>
      )}
      <ErrorMessage error={cancel.error} />
      <p className="text-sm text-slate-700" data-testid="export-scope">
        {record.selection ? <>Collection: {describeStoredSelection(record.selection)}</> : 'The whole crawl, its own files'}
        {record.format === 'wacz' && ` · as one WACZ package${record.pageText ? ', with page text' : ''}`}
        {record.crawlId !== undefined && record.crawlId !== listedFor && (
          <span data-testid="export-started-from"> · started from crawl #{record.crawlId}</span>
        )}
        {record.otherCrawls?.length ? (
          <span data-testid="export-other-crawls-taken">
            {' '}· with crawl{record.otherCrawls.length === 1 ? '' : 's'} {record.otherCrawls.map((c) => `#${c.id}${c.name === null ? ' (deleted since)' : ''}`).join(', ')}
          </span>
        ) : null}
      </p>
      <div className="flex items-center gap-2">
        <progress className="h-2 w-64" value={pct} max={100} aria-label={`Export ${record.id} progress`} />
        <span className="text-sm tabular-nums">{pct} %</span>
      </div>
      {record.error && <p role="alert" className="text-sm text-red-700">{record.error}</p>}
      {files.length > 0 && (
        <ul className="space-y-1 text-sm" data-testid="export-files">
          {files.map((f) => {
            const name = exportFileName(f);
            return (
              <li key={name} className="flex flex-wrap gap-3">
                <a className="link font-mono" href={`/api/exports/${record.id}/files/${encodeURIComponent(name)}`} download={name} data-testid="export-file" data-name={name}>
                  {name}
                </a>
                {typeof f !== 'string' && f.bytes !== undefined && <span className="text-slate-600">{formatBytes(f.bytes)}</span>}
                {typeof f !== 'string' && f.sha256 && <span className="font-mono text-xs text-slate-500" title="SHA-256">sha256 {f.sha256.slice(0, 16)}…</span>}
              </li>
            );
          })}
        </ul>
      )}
    </li>
  );
}
