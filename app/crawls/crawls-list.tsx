'use client';
import Link from 'next/link';
import { useSearchParams } from 'next/navigation';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CrawlControls } from '../components/crawl-controls';
import { ErrorMessage } from '../components/error-message';
import { Pager } from '../components/pager';
import { StatusBadge } from '../components/status-badge';
import { formatDate, ownerName, shownRate, useCrawlList, useIcds, useStuckDeletions, type CrawlRow } from '../lib/client/queries';
import { useStartCrawlAndOpen } from '../lib/client/start-crawl';
import type { Paged } from '../lib/client/api';
import { useCan } from '../lib/client/session';
import { CRAWLS_PER_PAGE, pageCount, STATUS_GROUPS, type CrawlListFilter, type StatusGroup } from '../lib/client/crawl-list-view';
import { isolate } from '../lib/client/bidi-isolate';
import { StuckDeletions } from './stuck-deletions';

/** How long typing in the name field pauses before the list asks the server. */
const TYPING_PAUSE_MS = 250;

/**
 * The crawls with their status and progress, 50 a page, filtered by status and by name or #id, each
 * page read from the server (a library keeps thousands of crawls: the list read them all every
 * 3 s to show 50), and a way to start a new one from a definition.
 */
export function CrawlsList() {
  const mayRun = useCan('run');
  const mayDesign = useCan('design');
  // A crawl deleted from its own page, which came here (`?deleted=7`).
  const deleted = Number(useSearchParams().get('deleted')) || null;
  const stuck = useStuckDeletions();
  const filesStuck = deleted !== null && Boolean(stuck.data?.items.some((d) => d.crawlId === deleted));
  const [filter, setFilter] = useState<CrawlListFilter>({ group: '', name: '', page: 1 });
  // The name as typed shows at once; the server is asked once typing pauses.
  const [name, setName] = useState('');
  useEffect(() => {
    const timer = setTimeout(() => setFilter((f) => (f.name === name ? f : { ...f, name, page: 1 })), TYPING_PAUSE_MS);
    return () => clearTimeout(timer);
  }, [name]);
  const crawls = useCrawlList(filter);
  // The page last read stays in view when the next one cannot be read (an error holds no data).
  const lastRead = useRef<Paged<CrawlRow> | undefined>(undefined);
  if (crawls.data) lastRead.current = crawls.data;
  const data = crawls.data ?? lastRead.current;
  const pages = data ? pageCount(data.total) : 1;
  // The list shrank under the page shown (crawls deleted, a filter elsewhere): the last page there is.
  useEffect(() => {
    if (crawls.data && !crawls.isPlaceholderData && filter.page > pages) setFilter((f) => ({ ...f, page: pages }));
  }, [crawls.data, crawls.isPlaceholderData, filter.page, pages]);
  const filtered = filter.group !== '' || filter.name.trim() !== '';
  const loading = crawls.isFetching && (crawls.isPlaceholderData || !crawls.data);
  return (
    <div className="space-y-6">
      <div className="flex flex-wrap items-center gap-4">
        <h1 className="text-2xl font-bold">Crawls</h1>
        {mayDesign && <Link href="/icds/new" className="btn btn-primary">New crawl definition</Link>}
      </div>
      {deleted !== null && (
        <p role="status" className="rounded border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900" data-testid="crawl-deleted-notice">
          {filesStuck ? `Crawl #${deleted} was deleted, with its captures; not all its files could be removed (below).` : `Crawl #${deleted} was deleted, with its captures and WARC files.`}
        </p>
      )}
      <StuckDeletions />
      {mayRun && <StartCrawl />}
      {crawls.error && (
        <div className="flex flex-wrap items-center gap-3" data-testid="crawls-error">
          <ErrorMessage error={crawls.error} />
          <span className="text-sm text-slate-600">{data ? `The crawls could not be read: the list below is page ${data.page} as last read.` : 'The crawls could not be read.'}</span>
          <button type="button" className="btn" onClick={() => void crawls.refetch()}>Try again</button>
        </div>
      )}
      {!data && crawls.isPending && <p role="status" className="text-slate-600" data-testid="crawls-loading">Loading crawls…</p>}
      {data && (
        data.total === 0 && !filtered && name === '' ? (
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
                <input id="crawls-name" className="input w-64" value={name} onChange={(e) => setName(e.target.value)} />
              </div>
              <p role="status" className="text-sm text-slate-600" data-testid="crawls-loading">{loading ? `Loading page ${filter.page}…` : ''}</p>
            </form>
            <table className="table-base" data-testid="crawls-table" aria-busy={loading || undefined}>
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
              <tbody className={loading ? 'opacity-60' : undefined}>
                {data.items.map((crawl) => (
                  <tr key={crawl.id} data-testid="crawl-row" data-crawl-id={crawl.id}>
                    <td><Link className="link" href={`/crawls/${crawl.id}`}><bdi>{crawl.name}</bdi></Link> <span className="text-xs text-slate-500">#{crawl.id}</span></td>
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
            {data.total === 0 && <p className="text-sm text-slate-600">No crawl matches.</p>}
            {data.total > CRAWLS_PER_PAGE && <Pager page={Math.min(filter.page, pages)} pageSize={CRAWLS_PER_PAGE} total={data.total} onPage={(page) => setFilter({ ...filter, page })} label="Crawls pages" />}
          </div>
        )
      )}
    </div>
  );
}

function StartCrawl() {
  const icds = useIcds();
  const start = useStartCrawlAndOpen();
  const [chosen, setIcdId] = useState('');
  // The first definition (the bundled Demo on a fresh install) is ready to start.
  const icdId = chosen || String(icds.data?.[0]?.id ?? '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (icdId) start.start(Number(icdId));
  };
  return (
    <form onSubmit={submit} className="card flex flex-wrap items-end gap-3" aria-label="Start a crawl">
      <div>
        <label htmlFor="start-icd" className="mb-1 block text-sm font-medium">Start a crawl of</label>
        <select id="start-icd" className="input min-w-64" value={icdId} onChange={(e) => setIcdId(e.target.value)} required>
          <option value="">Choose a crawl definition…</option>
          {icds.data?.map((icd) => <option key={icd.id} value={icd.id}>{isolate(icd.name)}</option>)}
        </select>
      </div>
      <button type="submit" className="btn btn-primary" disabled={!icdId || start.busy}>{start.busy ? 'Starting…' : 'Start'}</button>
      <ErrorMessage error={start.error ?? icds.error} />
    </form>
  );
}
