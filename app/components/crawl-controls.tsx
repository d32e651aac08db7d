'use client';
import { useCrawlControl, type CrawlRow } from '../lib/client/queries';
import { useCan } from '../lib/client/session';
import { ErrorMessage } from './error-message';

const ACTIVE = ['created', 'running', 'pausing'];

/** Pause / Resume / Stop for one crawl, shown only to roles that may run crawls. */
export function CrawlControls({ crawl }: { crawl: CrawlRow }) {
  const mayRun = useCan('run');
  const control = useCrawlControl();
  if (!mayRun) return null;
  const desired = crawl.desired;
  const terminal = ['stopped', 'finished', 'failed'].includes(crawl.status) || desired === 'stop';
  const act = (action: 'pause' | 'resume' | 'stop') => control.mutate({ id: crawl.id, action });
  return (
    <div className="flex flex-wrap items-center gap-2">
      {!terminal && ACTIVE.includes(crawl.status) && desired !== 'pause' && (
        <button type="button" className="btn" onClick={() => act('pause')} disabled={control.isPending} aria-label={`Pause ${crawl.name}`}>Pause</button>
      )}
      {!terminal && (crawl.status === 'paused' || desired === 'pause') && (
        <button type="button" className="btn" onClick={() => act('resume')} disabled={control.isPending} aria-label={`Resume ${crawl.name}`}>Resume</button>
      )}
      {!terminal && (
        <button type="button" className="btn btn-danger" onClick={() => act('stop')} disabled={control.isPending} aria-label={`Stop ${crawl.name}`}>Stop</button>
      )}
      <ErrorMessage error={control.error} />
    </div>
  );
}
