'use client';
import { useEffect, useRef, useState } from 'react';
import { ErrorMessage } from '../components/error-message';
import { ApiError } from '../lib/client/api';
import { localTimestamp } from '../lib/client/local-timestamp';
import { useRetryDeletionFiles, useStuckDeletions } from '../lib/client/queries';
import { useCan } from '../lib/client/session';
import { deletedCrawlLabel, stuckDeletionReasons, stuckDeletionsSummary, stuckDeletionTries, type StuckDeletion } from '../lib/client/stuck-deletion-words';

/**
 * The crawls list's notice of deleted crawls whose files could not all be removed (an immutable
 * file, a folder without write permission, a busy file): which, why, and when the server tries
 * again; those who may delete crawls may try again now. Before, only the server's log said so, and
 * the disk space stayed taken unnoticed. The first line is an alert, read out when the notice comes
 * and when the crawls it names change, not each time a try's time does; the outcome of "Try again
 * now" is a status line that stays when the notice goes, and takes the focus the removed button had.
 */
export function StuckDeletions() {
  const deletions = useStuckDeletions();
  const mayDelete = useCan('delete');
  const retry = useRetryDeletionFiles();
  const [outcome, setOutcome] = useState<{ text: string; removed: boolean } | null>(null);
  const outcomeLine = useRef<HTMLParagraphElement>(null);
  useEffect(() => {
    if (outcome?.removed) outcomeLine.current?.focus();
  }, [outcome]);
  const items = deletions.data?.items ?? [];
  const total = deletions.data?.total ?? 0;
  const tryAgain = (d: StuckDeletion) => {
    setOutcome(null);
    const label = deletedCrawlLabel(d);
    retry.mutate(d.crawlId, {
      onSuccess: ({ deletion }) => setOutcome(deletion
        ? { text: `The files of ${label} could still not all be removed: ${stuckDeletionReasons(deletion).join('; ')}.`, removed: false }
        : { text: `The files of ${label} are removed.`, removed: true }),
      // Removed meanwhile (the server's own try, someone else's): the list read again no longer has it.
      onError: (error) => {
        if (error instanceof ApiError && error.status === 404) setOutcome({ text: `The files of ${label} are removed already.`, removed: true });
      },
    });
  };
  const retryError = retry.error instanceof ApiError && retry.error.status === 404 ? null : retry.error;
  return (
    <>
      {items.length > 0 && (
        <section aria-labelledby="stuck-deletions-title" className="space-y-2 rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950" data-testid="stuck-deletions">
          <h2 id="stuck-deletions-title" className="font-semibold">Files of deleted crawls not removed</h2>
          <p role="alert" data-testid="stuck-deletions-summary">{stuckDeletionsSummary(items, total)}</p>
          <ul className="space-y-2">
            {items.map((d) => (
              <li key={d.crawlId} className="rounded border border-amber-200 bg-white/60 px-2 py-1" data-testid="stuck-deletion" data-crawl-id={d.crawlId}>
                <p className="font-semibold">{d.crawlName === null ? `Crawl #${d.crawlId}` : <><bdi>{d.crawlName}</bdi> <span className="text-xs font-normal">#{d.crawlId}</span></>}</p>
                <ul className="list-disc pl-5" data-testid="stuck-deletion-reasons">
                  {stuckDeletionReasons(d).map((reason, i) => <li key={i}><bdi>{reason}</bdi></li>)}
                </ul>
                <p data-testid="stuck-deletion-tries">{stuckDeletionTries(d, localTimestamp)}</p>
                {mayDelete && (
                  <button type="button" className="btn mt-1" onClick={() => tryAgain(d)} disabled={retry.isPending} aria-label={`Try again now to remove the files of ${deletedCrawlLabel(d)}`}>
                    {retry.isPending && retry.variables === d.crawlId ? 'Trying…' : 'Try again now'}
                  </button>
                )}
              </li>
            ))}
          </ul>
          {total > items.length && <p>And {(total - items.length).toLocaleString('en-US')} more deleted crawls whose files could not all be removed (GET /api/crawl-deletions lists them all).</p>}
          <p className="text-amber-900">
            Make the files removable on the server (their permissions, their folder&apos;s, an immutable flag, a program holding them){mayDelete ? ', then try again now' : ''}; the server also tries again on its own, and at each start.
          </p>
          <ErrorMessage error={retryError} />
        </section>
      )}
      {/* Always there, so a screen reader hears what comes into it; out of the layout while empty. */}
      <p ref={outcomeLine} tabIndex={-1} role="status" className={!outcome ? 'sr-only' : outcome.removed ? 'rounded border border-emerald-300 bg-emerald-50 px-3 py-2 text-sm text-emerald-900' : 'text-sm text-amber-950'} data-testid="stuck-deletions-retried">{outcome?.text ?? ''}</p>
    </>
  );
}
