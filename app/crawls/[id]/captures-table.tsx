'use client';
import { useRef, useState, type FocusEvent } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { NewerEntries } from '../../components/newer-entries';
import { Pager } from '../../components/pager';
import { UrlSearchForm } from '../../components/search-form';
import { usePinnedPages } from '../../lib/client/pinned-pages';
import { formatBytes, useCaptures } from '../../lib/client/queries';
import { CaptureRecordView } from './capture-record';
import { localTimestamp } from '../../lib/client/local-timestamp';

const PAGE_SIZE = 20;

/** Why a capture's body is not whole, by its WARC-Truncated value. */
const CUT_TEXT: Record<string, string> = {
  length: 'cut at the size cap',
  time: 'cut off by a timeout',
  disconnect: 'cut off: the connection closed',
  unspecified: 'cut off: the response broke HTTP',
};

/**
 * The latest captures, newest first; the first page grows live as the socket reports captures,
 * the pages past it stay put (usePinnedPages). The first page holds still too while the focus is
 * in the table or a capture's record is open: at a few captures a second, the row the keyboard was
 * on slid off the page within a second, and the focus with it (newer ones are counted below it).
 * The score column is shown for focused crawls only: elsewhere every URL has the default priority.
 */
export function CapturesTable({ crawlId, focused }: { crawlId: number; focused: boolean }) {
  const [query, setQuery] = useState('');
  const [shown, setShown] = useState<number | null>(null);
  // The newest capture on the first page when the focus came into the table: it is read up to it.
  const [heldAt, setHeldAt] = useState<number | null>(null);
  // The capture's button that opened the record: the focus goes back to it when the record closes.
  const opener = useRef<HTMLElement | null>(null);
  const show = (id: number, button: HTMLElement) => {
    opener.current = button;
    setShown(id);
  };
  const close = () => {
    setShown(null);
    if (opener.current?.isConnected) opener.current.focus();
    else setHeldAt(null);
  };
  const pages = usePinnedPages(query);
  const live = pages.page === 1 && pages.upTo === null && !query;
  const upTo = live ? heldAt : pages.upTo;
  const captures = useCaptures(crawlId, pages.page, query, '', PAGE_SIZE, upTo);
  const data = captures.data;
  const setPage = (page: number) => {
    setHeldAt(null);
    pages.goTo(page, data?.items[0]?.id);
  };
  const hold = () => {
    if (live && heldAt === null && data?.items.length) setHeldAt(data.items[0]!.id);
  };
  const release = (event: FocusEvent) => {
    if (shown === null && !event.currentTarget.contains(event.relatedTarget as Node | null)) setHeldAt(null);
  };
  return (
    <section aria-labelledby="captures-title" className="card space-y-3">
      <div className="flex flex-wrap items-end gap-3">
        <h2 id="captures-title" className="text-lg font-semibold">Latest captures</h2>
        <UrlSearchForm id="capture-search" label="Captures" onSearch={setQuery} />
      </div>
      <ErrorMessage error={captures.error} />
      {data && (
        <>
          <div className="overflow-x-auto" onFocus={hold} onBlur={release}>
            <table className="table-base" data-testid="captures-table" data-total={data.total}>
              <caption className="sr-only">Captures, newest first</caption>
              <thead>
                <tr>
                  <th scope="col">Fetched</th>
                  <th scope="col">Status</th>
                  <th scope="col">Type</th>
                  <th scope="col" className="text-right">Size</th>
                  {focused && <th scope="col" className="text-right">Score</th>}
                  <th scope="col">URL</th>
                </tr>
              </thead>
              <tbody>
                {data.items.map((c) => (
                  <tr key={c.id} data-testid="capture-row">
                    <td className="whitespace-nowrap tabular-nums"><time dateTime={c.fetchedAt}>{localTimestamp(c.fetchedAt)}</time></td>
                    <td className="tabular-nums">{c.status}</td>
                    <td className="font-mono text-xs">{c.mime ?? '–'}</td>
                    <td className="text-right tabular-nums">
                      {formatBytes(c.size)}
                      {c.truncated && <span className="block text-xs text-amber-800" data-testid="capture-cut">{CUT_TEXT[c.truncated] ?? `cut short (${c.truncated})`}</span>}
                    </td>
                    {focused && <td className="text-right tabular-nums">{c.score == null ? '–' : c.score.toFixed(2)}</td>}
                    <td className="max-w-xl truncate font-mono text-xs" title={c.url}>
                      <button type="button" className="link max-w-full truncate text-left" onClick={(e) => show(c.id, e.currentTarget)} aria-label={`Show the stored record of ${c.url}`} data-testid="capture-url">
                        {c.url}
                      </button>
                      {c.title && <span className="block truncate font-sans text-slate-600" data-testid="capture-title"><bdi>{c.title}</bdi></span>}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {data.items.length === 0 && <p className="text-sm text-slate-600">No capture{query ? ' matches' : ' yet'}.</p>}
          {upTo !== null && <NewerEntries count={data.newer ?? 0} noun={['capture', 'captures']} onShow={() => setPage(1)} />}
          <Pager page={data.page} pageSize={data.pageSize} total={data.total} onPage={setPage} label="Captures pages" />
          {shown !== null && <CaptureRecordView key={shown} crawlId={crawlId} captureId={shown} onClose={close} />}
        </>
      )}
    </section>
  );
}
