'use client';
import { useState } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { NewerEntries } from '../../components/newer-entries';
import { Pager } from '../../components/pager';
import { UrlSearchForm } from '../../components/search-form';
import { usePinnedPages } from '../../lib/client/pinned-pages';
import { formatBytes, useCrawlLog } from '../../lib/client/queries';
import { localTimestamp } from '../../lib/client/local-timestamp';
import { requestFigures } from '../../../worker/store/crawl-log-text';

/** Time and retries of an entry whose URL was never requested (its host's robots.txt unanswered): not applicable. */
const NOT_REQUESTED = <abbr title="not applicable: the URL was not requested">n/a</abbr>;

const PAGE_SIZE = 20;

/** Outcomes that are no failure: a capture, and a recrawl round that finished after failing. */
const GOOD_OUTCOMES = new Set(['ok', 'recrawl-round-recovered']);

/** The crawl log as a tab-separated file, the entries the filters select (all of them, oldest first). */
function crawlLogDownloadHref(crawlId: number, outcome: string, query: string): string {
  const params = new URLSearchParams();
  if (outcome) params.set('outcome', outcome);
  if (query) params.set('q', query);
  const search = params.toString();
  return `/api/crawls/${crawlId}/log/download${search ? `?${search}` : ''}`;
}

/**
 * Every fetch outcome of the crawl, newest first, as Heritrix's crawl.log: failures and robots
 * exclusions too, which the captures table does not hold. Filtered by outcome and URL.
 */
export function CrawlLogTable({ crawlId, running, outcome, onOutcome }: { crawlId: number; running: boolean; outcome: string; onOutcome(outcome: string): void }) {
  const [query, setQuery] = useState('');
  // The page belongs to the filters it was chosen under: other filters (an outcome chosen here or
  // from the counters' failure reasons, another URL) start at page 1.
  const pages = usePinnedPages(`${outcome}\n${query}`);
  const log = useCrawlLog(crawlId, pages.page, outcome, query, pages.upTo, running, PAGE_SIZE);
  const data = log.data;
  const setPage = (page: number) => pages.goTo(page, data?.items[0]?.id);
  const all = data?.outcomes.reduce((n, o) => n + o.count, 0) ?? 0;
  return (
    <section id="crawl-log" aria-labelledby="crawl-log-title" className="card space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <h2 id="crawl-log-title" className="text-lg font-semibold">Crawl log</h2>
        <UrlSearchForm id="log-search" label="Crawl log" onSearch={setQuery}>
          <label htmlFor="log-outcome" className="text-sm">Outcome</label>
          <select
            id="log-outcome"
            className="input w-56"
            value={outcome}
            onChange={(e) => onOutcome(e.target.value)}
          >
            <option value="">all ({all})</option>
            {/* The chosen outcome stays listed while a refresh has not counted it yet. */}
            {outcome && !data?.outcomes.some((o) => o.outcome === outcome) && <option value={outcome}>{outcome}</option>}
            {data?.outcomes.map((o) => (
              <option key={o.outcome} value={o.outcome}>
                {o.outcome} ({o.count})
              </option>
            ))}
          </select>
        </UrlSearchForm>
        <a className="btn" href={crawlLogDownloadHref(crawlId, outcome, query)} download data-testid="crawl-log-download">
          Download{outcome || query ? ' these entries' : ''} (TSV)
        </a>
      </div>
      <ErrorMessage error={log.error} />
      {data && (
        <>
          <div className="overflow-x-auto">
            <table className="table-base" data-testid="crawl-log" data-total={data.total}>
              <caption className="sr-only">Crawl log, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">At</th>
                  <th scope="col">Outcome</th>
                  <th scope="col">Status</th>
                  <th scope="col" className="text-right">Size</th>
                  <th scope="col" className="text-right">Time</th>
                  <th scope="col" className="text-right">Retries</th>
                  <th scope="col">URL</th>
                  <th scope="col">Message</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((e) => (
                  <tr key={e.id} data-testid="log-row" data-outcome={e.outcome}>
                    <td className="whitespace-nowrap tabular-nums"><time dateTime={e.at}>{localTimestamp(e.at)}</time></td>
                    <td className={GOOD_OUTCOMES.has(e.outcome) ? 'font-mono text-xs' : 'font-mono text-xs text-red-800'}>{e.outcome}</td>
                    <td className="tabular-nums">{e.status ?? '–'}</td>
                    <td className="text-right tabular-nums">{formatBytes(e.size)}</td>
                    <td className="text-right tabular-nums">{requestFigures(e).durationMs === null ? NOT_REQUESTED : `${e.durationMs} ms`}</td>
                    <td className="text-right tabular-nums">{requestFigures(e).retries ?? NOT_REQUESTED}</td>
                    <td className="max-w-md truncate font-mono text-xs" title={e.url}>{e.url}</td>
                    <td className="max-w-sm truncate text-xs" title={e.message ?? undefined}>{e.message ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.items.length === 0 && <p className="text-sm text-slate-600">No entry{outcome || query ? ' matches' : ' yet'}.</p>}
          {pages.upTo !== null && <NewerEntries count={data.newer ?? 0} noun={['entry', 'entries']} onShow={() => setPage(1)} />}
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label="Crawl log pages" />
        </>
      )}
    </section>
  );
}
