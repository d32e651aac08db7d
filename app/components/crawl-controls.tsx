'use client';
import Link from 'next/link';
import { useCrawlControl, useDeleteCrawl, type CrawlRow } from '../lib/client/queries';
import { useCan } from '../lib/client/session';
import { ErrorMessage } from './error-message';
import { isolate } from '../lib/client/bidi-isolate';
import { STORED_ICD_REFUSED } from '../../worker/icd/stored-icd-repair';

const ACTIVE = ['created', 'running', 'pausing'];

/**
 * Whether a plain Resume of the crawl would be refused (409) for settings of its ICD copy this
 * version refuses: its view (the crawl page's) names them; the list, without ICD copies, knows it
 * from the reason the worker paused the crawl with.
 */
function refusedToResume(crawl: CrawlRow): boolean {
  if (crawl.refusedSettings?.length) return true;
  return crawl.status === 'paused' && Boolean(crawl.error?.startsWith(STORED_ICD_REFUSED));
}

/**
 * Pause / Resume / Stop for one crawl, shown only to roles that may run crawls; Delete (of a
 * crawl that is not running) only to roles that may delete.
 */
export function CrawlControls({ crawl, onDeleted }: { crawl: CrawlRow; onDeleted?: () => void }) {
  const mayRun = useCan('run');
  const mayDelete = useCan('delete');
  const control = useCrawlControl();
  const remove = useDeleteCrawl();
  if (!mayRun && !mayDelete) return null;
  const desired = crawl.desired;
  const terminal = ['stopped', 'finished', 'failed'].includes(crawl.status) || desired === 'stop';
  const act = (action: 'pause' | 'resume' | 'stop') => control.mutate({ id: crawl.id, action });
  const deletable = ['stopped', 'finished', 'failed', 'paused'].includes(crawl.status);
  const del = () => {
    if (window.confirm(`Delete crawl “${isolate(crawl.name)}” with its captures and WARC files?`)) remove.mutate(crawl.id, { onSuccess: onDeleted });
  };
  return (
    <div className="flex flex-wrap items-center gap-2">
      {mayDelete && deletable && (
        <button type="button" className="btn btn-danger" onClick={del} disabled={remove.isPending} aria-label={`Delete ${crawl.name}`}>Delete</button>
      )}
      <ErrorMessage error={remove.error} />
      {mayRun && <>
      {!terminal && ACTIVE.includes(crawl.status) && desired !== 'pause' && (
        <button type="button" className="btn" onClick={() => act('pause')} disabled={control.isPending} aria-label={`Pause ${crawl.name}`}>Pause</button>
      )}
      {!terminal && (crawl.status === 'paused' || desired === 'pause') && (refusedToResume(crawl)
        ? <Link className="btn" href={`/crawls/${crawl.id}#refused-settings`} title={crawl.refusedSettings?.length ? `Refused: ${crawl.refusedSettings.join(', ')}` : undefined} aria-label={`Correct settings to resume ${crawl.name}`}>Correct settings to resume</Link>
        : <button type="button" className="btn" onClick={() => act('resume')} disabled={control.isPending} aria-label={`Resume ${crawl.name}`}>Resume</button>
      )}
      {!terminal && (
        <button type="button" className="btn btn-danger" onClick={() => act('stop')} disabled={control.isPending} aria-label={`Stop ${crawl.name}`}>Stop</button>
      )}
      <ErrorMessage error={control.error} />
      </>}
    </div>
  );
}
