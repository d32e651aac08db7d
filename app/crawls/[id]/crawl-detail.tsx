'use client';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { Fragment, useEffect, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { CrawlControls } from '../../components/crawl-controls';
import { PageError } from '../../components/error-message';
import { StatusBadge } from '../../components/status-badge';
import { appendSample, useCrawlEvents } from '../../lib/client/live';
import { formatBytes, formatDate, ownerName, shownRate, useCrawl } from '../../lib/client/queries';
import { useCan } from '../../lib/client/session';
import { hasFeedsOrRecrawls, incrementalSettingsOf } from '../../../worker/coherence/incremental-view';
import { ApiError } from '../../lib/client/api';
import { CapturesTable } from './captures-table';
import { CrawlDeleted } from './crawl-deleted';
import { CrawlLogTable } from './crawl-log-table';
import { CrawlReports } from './crawl-reports';
import { FeedsAndRecrawls } from './feeds-recrawls';
import { Annotations } from './annotations';
import { LiveCounters } from './live-counters';
import { LiveExclusions } from './live-exclusions';
import { isTerminal } from '../../../worker/process/crawl-control';
import { waitingForHostsWords } from '../../../worker/frontier/host-queue-backoff';
import { RelevancePanel } from './relevance-panel';
import { ThroughputCharts } from './throughput-charts';
import { UrlInspector } from './url-inspector';
import { RefusedSettings } from './refused-settings';

const LIVE_LABEL = { connecting: 'connecting…', live: 'live', offline: 'offline (reconnecting)', refused: 'live updates refused', 'session-ended': 'session ended: no live updates' } as const;

export function CrawlDetailView({ crawlId }: { crawlId: number }) {
  const crawl = useCrawl(crawlId);
  const router = useRouter();
  // Deleted from this page (its name, as the cache no longer holds it): it says so until the
  // crawls list, which says it too, has replaced it.
  const [deletedHere, setDeletedHere] = useState<string | null>(null);
  const onDeleted = (name: string) => {
    setDeletedHere(name);
    router.replace(`/crawls?deleted=${crawlId}`);
  };
  const live = useCrawlEvents(crawlId);
  const client = useQueryClient();
  const mayExport = useCan('export');
  const stats = crawl.data?.stats;
  const [logOutcome, setLogOutcome] = useState('');
  const [reportsOpen, setReportsOpen] = useState(false);
  // The header's "and N more" seeds: the reports open, the focus on their summary, the seeds report under it.
  const showSeedsReport = () => {
    setReportsOpen(true);
    requestAnimationFrame(() => {
      const summary = document.querySelector<HTMLElement>('#crawl-reports > summary');
      summary?.scrollIntoView({ block: 'start' });
      summary?.focus();
    });
  };
  const showInLog = (reason: string) => {
    setLogOutcome(reason);
    document.getElementById('crawl-log')?.scrollIntoView({ block: 'start' });
    document.getElementById('log-outcome')?.focus();
  };

  // The first sample of the chart is the state the page loaded with.
  useEffect(() => {
    if (stats) appendSample(client, crawlId, stats);
  }, [client, crawlId, stats]);

  if (deletedHere !== null) return <CrawlDeleted crawlId={crawlId} name={deletedHere} here />;
  if (crawl.isPending) return <p className="text-slate-600">Loading the crawl…</p>;
  if (crawl.isError) {
    // Shown, then gone (its deleted event, or any read after): deleted elsewhere. Never shown: the 404 page.
    if (crawl.data && crawl.error instanceof ApiError && crawl.error.status === 404) return <CrawlDeleted crawlId={crawlId} name={crawl.data.name} here={false} />;
    return <PageError error={crawl.error} />;
  }
  const c = crawl.data;
  const focus = c.definition?.focus;
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <h1 className="text-2xl font-bold"><bdi>{c.name}</bdi> <span className="text-base font-normal text-slate-500">#{c.id}</span></h1>
        {/* A polite live region: a screen reader hears the crawl pause, stop or end (a few words, a few times a crawl). */}
        <span role="status" data-testid="crawl-status"><span className="sr-only">Crawl status: </span><StatusBadge status={c.status} /></span>
        <span className="text-xs text-slate-600" data-testid="live-state" data-state={live}>
          {LIVE_LABEL[live]}
          {live === 'session-ended' && <> · <a className="link" href={`/login?next=${encodeURIComponent(`/crawls/${crawlId}`)}`}>Sign in again</a></>}
        </span>
        <CrawlControls crawl={c} onDeleted={() => onDeleted(c.name)} />
        <nav aria-label="Crawl" className="ml-auto flex flex-wrap gap-3 text-sm">
          {c.icdId != null && <Link className="link" href={`/icds/${c.icdId}`}>Definition</Link>}
          <Link className="link" href={`/crawls/${c.id}/objects`}>Web objects</Link>
          <Link className="link" href={`/crawls/${c.id}/coherence`}>Coherence</Link>
          {mayExport && <Link className="link" href={`/exports?crawl=${c.id}`}>Export</Link>}
        </nav>
      </header>
      <p className="text-sm text-slate-600">
        Owner {ownerName(c.owner)} · started {formatDate(c.startedAt)} · finished {formatDate(c.finishedAt)}
        {c.definition?.seeds && <> · <SeedsLine seeds={c.definition.seeds} count={c.seedCount ?? c.definition.seeds.length} onMore={showSeedsReport} /></>}
        {c.definition?.aah?.enabled && <> · knowledge base <span data-testid="crawl-knowledge-base">{c.knowledgeBaseName ? `${c.knowledgeBaseName} (as saved when the crawl was created)` : 'the shipped one (knowledge-base/default.xml)'}</span></>}
      </p>
      {c.error && c.status === 'paused' && <p role="alert" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="paused-because">{c.error}</p>}
      {c.error && c.status !== 'paused' && <p role="alert" className="whitespace-pre-line rounded border border-red-300 bg-red-50 px-3 py-2 text-sm text-red-800">The crawl stopped with an error: {c.error}</p>}
      <RefusedSettings crawlId={crawlId} status={c.status} />
      {/* The engine decides the limit a moment before the crawl is finished: "Finished…" waits for the status. */}
      {stats?.endedBy && isTerminal(c.status) && (
        <p className="rounded border border-sky-300 bg-sky-50 px-3 py-2 text-sm text-sky-900" data-testid="ended-by">
          {stats.endedBy === 'time-limit'
            ? `Finished when its time limit of ${c.definition?.scope?.maxDurationMinutes} minutes ran out`
            : stats.endedBy === 'page-limit'
              ? `Finished when it had fetched its page limit of ${(c.definition?.scope?.maxPages ?? 0).toLocaleString()} pages`
              : `Finished when its captures reached its size limit of ${formatBytes(c.definition?.scope?.maxBytes)}`}
          , with {(stats.queued ?? 0).toLocaleString()} URL{stats.queued === 1 ? '' : 's'} still queued.
        </p>
      )}
      {stats?.hostsInBackoff && c.status === 'running' ? (
        <p role="status" className="rounded border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-900" data-testid="hosts-in-backoff">
          {waitingForHostsWords(stats.hostsInBackoff, stats.nextHostTryAt)}
        </p>
      ) : null}
      <LiveCounters stats={stats ?? null} rate={shownRate(c)} onFailureReason={showInLog} />
      <ThroughputCharts crawlId={crawlId} ended={isTerminal(c.status)} />
      {hasFeedsOrRecrawls(incrementalSettingsOf(c.definition)) && <FeedsAndRecrawls crawlId={crawlId} running={c.status === 'running'} />}
      {focus?.enabled && <RelevancePanel crawlId={crawlId} running={c.status === 'running'} threshold={focus.relevanceThreshold ?? 0.333} />}
      <LiveExclusions crawlId={crawlId} ended={isTerminal(c.status)} running={c.status === 'running'} />
      <CapturesTable crawlId={crawlId} focused={Boolean(focus?.enabled)} />
      <CrawlLogTable crawlId={crawlId} running={c.status === 'running'} outcome={logOutcome} onOutcome={setLogOutcome} />
      <CrawlReports crawlId={crawlId} running={c.status === 'running'} open={reportsOpen} onOpenChange={setReportsOpen} />
      <UrlInspector crawlId={crawlId} />
      <section aria-labelledby="annotations-title" className="card space-y-3">
        <h2 id="annotations-title" className="text-lg font-semibold">Annotations</h2>
        <Annotations crawlId={crawlId} captureId={null} />
      </section>
    </div>
  );
}

/** How many seeds the crawl's header names; the seeds report lists them all, 200 a page. */
const SEEDS_IN_HEADER = 5;

/**
 * The crawl's seeds in its header: the first SEEDS_IN_HEADER, then "and N more", which opens the
 * seeds report. All of them, joined, made a paragraph 20,000 px tall for 5,000 seeds, above
 * everything else on the page. `seeds` are the first of the crawl's `count` (the crawl's answer holds 20).
 */
function SeedsLine({ seeds, count, onMore }: { seeds: string[]; count: number; onMore: () => void }) {
  const more = count - Math.min(seeds.length, SEEDS_IN_HEADER);
  return (
    <span data-testid="crawl-seeds">
      {count === 1 ? 'seed ' : 'seeds '}
      {seeds.slice(0, SEEDS_IN_HEADER).map((seed, i) => (
        <Fragment key={i}>{i > 0 && ', '}<bdi className="break-all">{seed}</bdi></Fragment>
      ))}
      {more > 0 && (
        <>
          {' '}and{' '}
          <button type="button" className="link" onClick={onMore} aria-label={`${more.toLocaleString('en')} more seeds, in the seeds report`} data-testid="more-seeds">
            {more.toLocaleString('en')} more
          </button>
        </>
      )}
    </span>
  );
}
