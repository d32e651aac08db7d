'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import { CrawlControls } from '../components/crawl-controls';
import { ErrorMessage } from '../components/error-message';
import { Pager } from '../components/pager';
import { StatusBadge } from '../components/status-badge';
import { formatDate, ownerName, shownRate, useCrawls, useIcds, useStartCrawl } from '../lib/client/queries';
import { useCan } from '../lib/client/session';
import { CRAWLS_PER_PAGE, crawlListPage, STATUS_GROUPS, type CrawlListFilter, type StatusGroup } from '../lib/client/crawl-list-view';

/**
 * The crawls with their status and progress, 50 a page, filtered by status and name (with hundreds
 * of crawls, the running one was somewhere down a page of thousands of rows), and a way to start a
 * new one from a definition.
 */
export function CrawlsList() {
  const crawls = useCrawls();
  const mayRun = useCan('run');
  const mayDesign = useCan('design');
  const [filter, setFilter] = useState<CrawlListFilter>({ group: '', name: '', page: 1 });
  const shown = crawlListPage(crawls.data ?? [], filter);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-4">
        <h1 className="text-2xl font-bold">Crawls</h1>
        {mayDesign && <Link href="/icds/new" className="btn btn-primary">New crawl definition</Link>}
      </div>
      {mayRun && <StartCrawl />}
      <ErrorMessage error={crawls.error} />
      {crawls.data && (
        crawls.data.length === 0 ? (
          <p className="text-slate-600">No crawl yet.</p>
        ) : (
          <div className="card space-y-3 overflow-x-auto">
            <form role="search" aria-label="Crawls" className="flex flex-wrap items-end gap-3" onSubmit={(e) => e.preventDefault()}>
              <div>
                <label htmlFor="crawls-status" className="mb-1 block text-sm">Status</label>
                <select id="crawls-status" className="input" value={filter.group} onChange={(e) => setFilter({ ...filter, group: e.target.value as StatusGroup, page: 1 })}>
                  {Object.entries(STATUS_GROUPS).map(([key, g]) => <option key={key} value={key}>{g.label}</option>)}
                </select>
              </div>
              <div>
                <label htmlFor="crawls-name" className="mb-1 block text-sm">Name or #id</label>
                <input id="crawls-name" className="input w-64" value={filter.name} onChange={(e) => setFilter({ ...filter, name: e.target.value, page: 1 })} />
              </div>
            </form>
            <table className="table-base" data-testid="crawls-table">
              <caption className="sr-only">Crawls</caption>
              <thead>
                <tr>
                  <th scope="col">Crawl</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="text-right">Pages</th>
                  <th scope="col" className="text-right">Pages/s</th>
                  <th scope="col">Started</th>
                  <th scope="col">Owner</th>
                  <th scope="col"><span className="sr-only">Actions</span></th>
                </tr>
              </thead>
              <tbody>
                {shown.items.map((crawl) => (
                  <tr key={crawl.id} data-testid="crawl-row" data-crawl-id={crawl.id}>
                    <td><Link className="link" href={`/crawls/${crawl.id}`}>{crawl.name}</Link> <span className="text-xs text-slate-500">#{crawl.id}</span></td>
                    <td><StatusBadge status={crawl.status} /></td>
                    <td className="text-right tabular-nums">{crawl.stats?.fetched ?? 0}</td>
                    <td className="text-right tabular-nums" title={shownRate(crawl).average ? 'average over the time it ran' : 'over the last seconds'}>{shownRate(crawl).value.toFixed(1)}</td>
                    <td>{formatDate(crawl.startedAt)}</td>
                    <td>{ownerName(crawl.owner)}</td>
                    <td><CrawlControls crawl={crawl} /></td>
                  </tr>
                ))}
              </tbody>
            </table>
            {shown.total === 0 && <p className="text-sm text-slate-600">No crawl matches.</p>}
            {shown.total > CRAWLS_PER_PAGE && <Pager page={shown.page} pageSize={CRAWLS_PER_PAGE} total={shown.total} onPage={(page) => setFilter({ ...filter, page })} label="Crawls pages" />}
          </div>
        )
      )}
    </div>
  );
}

function StartCrawl() {
  const icds = useIcds();
  const start = useStartCrawl();
  const router = useRouter();
  const [chosen, setIcdId] = useState('');
  // The first definition (the bundled Demo on a fresh install) is ready to start.
  const icdId = chosen || String(icds.data?.[0]?.id ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (!icdId) return;
    start.mutate(Number(icdId), { onSuccess: (crawl) => router.push(`/crawls/${crawl.id}`) });
  };
  return (
    <form onSubmit={submit} className="card flex flex-wrap items-end gap-3" aria-label="Start a crawl">
      <div>
        <label htmlFor="start-icd" className="mb-1 block text-sm font-medium">Start a crawl of</label>
        <select id="start-icd" className="input min-w-64" value={icdId} onChange={(e) => setIcdId(e.target.value)} required>
          <option value="">Choose a crawl definition…</option>
          {icds.data?.map((icd) => <option key={icd.id} value={icd.id}>{icd.name}</option>)}
        </select>
      </div>
      <button type="submit" className="btn btn-primary" disabled={!icdId || start.isPending}>Start</button>
      <ErrorMessage error={start.error ?? icds.error} />
    </form>
  );
}
