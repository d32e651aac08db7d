'use client';
import { useState, type FormEvent } from 'react';
import { useQuery } from '@tanstack/react-query';
import { ErrorMessage } from '../../components/error-message';
import { api } from '../../lib/client/api';
import { discoveryPathHeading, inspectionVerdict } from '../../../worker/frontier/url-outcome';
import type { UrlInspection } from '../../../worker/frontier/url-inspection';

/**
 * "Why was this page not captured?": one URL looked up in the crawl's frontier, captures and log,
 * with the way the crawl found it.
 */
export function UrlInspector({ crawlId }: { crawlId: number }) {
  const [draft, setDraft] = useState('');
  const [asked, setAsked] = useState('');
  const lookup = useQuery({
    queryKey: ['crawls', crawlId, 'inspect', asked],
    queryFn: () => api<UrlInspection>('GET', `/api/crawls/${crawlId}/inspect?url=${encodeURIComponent(asked)}`),
    enabled: asked !== '',
    refetchOnWindowFocus: false,
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    setAsked(draft.trim());
    if (draft.trim() === asked) void lookup.refetch();
  };
  const i = lookup.data;
  return (
    <section aria-labelledby="url-inspector-title" className="card space-y-3" data-testid="url-inspector">
      <h2 id="url-inspector-title" className="text-lg font-semibold">Look up a URL</h2>
      <form onSubmit={submit} className="flex flex-wrap items-end gap-2">
        <label htmlFor="inspect-url" className="text-sm">URL</label>
        <input id="inspect-url" className="input min-w-0 flex-1" type="text" inputMode="url" value={draft} onChange={(e) => setDraft(e.target.value)} placeholder="https://…" />
        <button type="submit" className="btn" disabled={draft.trim() === ''}>Look up</button>
      </form>
      <ErrorMessage error={lookup.error} />
      {asked && lookup.isFetching && <p className="text-sm text-slate-600">Looking it up…</p>}
      {i && (
        <div className="space-y-2 text-sm" data-testid="inspection" data-state={i.entry?.state ?? (i.url === null ? 'invalid' : 'unseen')}>
          <p>
            {i.url && <span className="break-all font-mono text-xs">{i.url}</span>} <span data-testid="inspection-verdict">{inspectionVerdict(i)}</span>
          </p>
          {i.entry && (
            <p className="text-slate-700">
              Depth {i.entry.depth}, found as {i.entry.kind}
              {i.entry.attempts > 1 ? `, ${i.entry.attempts} attempts` : ''}.
            </p>
          )}
          {i.discoveryPath.length > 0 && (
            <div>
              <h3 className="font-semibold">{discoveryPathHeading(i)}</h3>
              <ol className="list-decimal pl-6" data-testid="discovery-path">
                {i.discoveryPath.map((step) => (
                  <li key={step.url}><span className="break-all font-mono text-xs">{step.url}</span> <span className="text-slate-600">({step.kind})</span></li>
                ))}
              </ol>
            </div>
          )}
          {i.captures.length > 0 && (
            <p data-testid="inspection-captures">
              Captures: {i.captures.map((c) => `${c.status} ${c.recordType} at ${new Date(c.fetchedAt).toLocaleString()}`).join('; ')}
            </p>
          )}
          {i.log.length > 0 && (
            <p data-testid="inspection-log">
              Crawl log: {i.log.map((e) => `${e.outcome}${e.status === null ? '' : ` ${e.status}`}${e.message ? ` (${e.message})` : ''}`).join('; ')}
            </p>
          )}
        </div>
      )}
    </section>
  );
}
