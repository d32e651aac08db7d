'use client';
import { useState, type ReactNode } from 'react';
import { FEED_FILTERS, feedsSelected, type FeedFilter, type FeedSection, type RecrawlSection } from '../../../worker/coherence/incremental-view';
import { ErrorMessage } from '../../components/error-message';
import { Pager } from '../../components/pager';
import { formatDate, useIncremental } from '../../lib/client/queries';

/** A stored time for people, in the browser's locale, readable by machines too. */
function Time({ at, testId }: { at: string; testId?: string }) {
  return <time dateTime={at} data-testid={testId}>{formatDate(at)}</time>;
}

const count = (n: number | null) => (n === null ? '–' : String(n));

/** A table that scrolls sideways on a narrow screen; focusable, so the keyboard can scroll it. */
function ScrollingTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="overflow-x-auto" role="region" aria-label={label} tabIndex={0}>
      {children}
    </div>
  );
}

/** The feed filters in words (the filter select, the table's caption). */
const FILTER_LABELS: Record<FeedFilter, string> = {
  all: 'all feeds',
  problems: 'problems: failing, refused or excluded',
  failing: 'failing',
  refused: 'refused by robots.txt',
  excluded: 'excluded',
  'not-polled': 'not polled yet',
  ok: 'polled ok',
};

/** Every feed of the crawl counted by its last poll, whichever page is shown. */
function FeedSummaryLine({ f }: { f: FeedSection }) {
  const s = f.summary;
  const problems = feedsSelected(s, 'problems');
  return (
    <p className="text-sm" data-testid="feed-summary">
      <span data-testid="feed-count">{f.feedCount}</span> feed{f.feedCount === 1 ? '' : 's'}: {s.ok} polled ok, {s.failing} failing, {s.refused} refused by robots.txt, {s.excluded} excluded,{' '}
      {s['not-polled']} not polled yet{s['not-known'] > 0 && `, ${s['not-known']} polled before results were kept`}; <span data-testid="feed-articles-all">{s.articlesNew}</span> new article{s.articlesNew === 1 ? '' : 's'} in all.
      {problems > 0 && <strong className="ml-1 text-red-800" data-testid="feed-trouble">{problems} of {f.feedCount} feeds: last poll failed or refused.</strong>}
    </p>
  );
}

/** `filter`: the one chosen, which the select shows while the page of that filter is read. */
function FeedTable({ f, filter: chosen, onPage, onFilter }: { f: FeedSection; filter: FeedFilter; onPage(page: number): void; onFilter(filter: FeedFilter): void }) {
  const { rows, minPollMinutes, polling } = f;
  return (
    <div className="space-y-2">
      <h3 className="font-semibold">Feeds</h3>
      <p className="text-sm text-slate-600">
        Polled by the posting-rate scheduler, each at most once every {minPollMinutes} minute{minPollMinutes === 1 ? '' : 's'}; new articles are crawled first.
        {polling
          ? ' The next poll is the scheduler’s plan from what the polls taught it: a feed that posts new articles meanwhile may come sooner, and a poll waits its host’s turn.'
          : ' The crawl is not running: no feed is polled until it runs again.'}
      </p>
      <FeedSummaryLine f={f} />
      <div className="flex flex-wrap items-center gap-2 text-sm">
        <label htmlFor="feed-filter">Show</label>
        <select id="feed-filter" className="input w-72" value={chosen} onChange={(e) => onFilter(e.target.value as FeedFilter)}>
          {FEED_FILTERS.map((filter) => (
            <option key={filter} value={filter}>{FILTER_LABELS[filter]} ({feedsSelected(f.summary, filter)})</option>
          ))}
        </select>
      </div>
      <ScrollingTable label="Feeds">
        <table className="table-base" data-testid="feed-table" data-total={f.total} data-page={f.page}>
          <caption className="sr-only">Feeds of the crawl ({FILTER_LABELS[f.filter]}), as the ICD lists them, with their last poll: page {f.page}</caption>
          <thead>
            <tr>
              <th scope="col">Feed</th>
              <th scope="col">Last poll</th>
              <th scope="col">Next poll</th>
              <th scope="col">Result</th>
              <th scope="col" className="text-right">Listed</th>
              <th scope="col" className="text-right">New</th>
              <th scope="col" className="text-right">New, all polls</th>
              <th scope="col" className="text-right">Polls (failed)</th>
              <th scope="col">New in the last polls</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.url} data-testid="feed-row" data-url={r.url} data-outcome={r.outcome ?? 'none'}>
                <th scope="row" className="max-w-md truncate font-mono text-xs font-normal" title={r.url}>{r.url}</th>
                <td className="whitespace-nowrap">{r.lastPollAt ? <Time at={r.lastPollAt} testId="feed-last-poll" /> : 'not polled yet'}</td>
                <td className="whitespace-nowrap" data-testid="feed-next-poll">{r.nextPollAt ? <Time at={r.nextPollAt} /> : polling ? 'not planned yet' : '–'}</td>
                <td className="text-xs">
                  {r.problem ? (
                    <span className="font-medium text-red-800" data-testid="feed-problem">{r.problem}</span>
                  ) : r.outcome === 'ok' ? (
                    <span>ok{r.status !== null && ` (${r.status})`}</span>
                  ) : r.lastPollAt ? 'not known' : '–'}
                </td>
                <td className="text-right tabular-nums">{count(r.listed)}</td>
                <td className="text-right tabular-nums" data-testid="feed-last-new">{count(r.lastNew)}</td>
                <td className="text-right tabular-nums" data-testid="feed-articles-new">{count(r.articlesNew)}</td>
                <td className="text-right tabular-nums">{r.polls === null ? '–' : `${r.polls} (${r.failedPolls ?? 0})`}</td>
                <td className="font-mono text-xs">{r.recentNew.length ? r.recentNew.join(' · ') : '–'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </ScrollingTable>
      {rows.length === 0 && <p className="text-sm text-slate-600" data-testid="no-feeds">No feed {f.page > 1 ? 'on this page' : 'of this kind'}.</p>}
      {/* Past the last page too (a feed moved to another kind meanwhile): the way back. */}
      {(f.total > f.pageSize || f.page > 1) && <Pager page={f.page} pageSize={f.pageSize} total={f.total} onPage={onPage} label="Feed pages" />}
    </div>
  );
}

function NextRound({ next }: { next: RecrawlSection['nextRound'] }) {
  switch (next.state) {
    case 'initial-crawl':
      return <>one interval after the initial crawl has fetched every page it queued</>;
    case 'scheduled':
      return <Time at={next.at!} />;
    case 'due':
      return <>due since <Time at={next.at!} />: it starts once no page of the crawl waits to be fetched</>;
    case 'not-running':
      return next.at ? <>the crawl is not running: at <Time at={next.at} />, or when it runs again if later</> : <>the crawl is not running</>;
  }
}

/** The round under way failed: what went wrong and when it is tried again (the section's next round). */
function RoundFailed({ f, next }: { f: NonNullable<RecrawlSection['failure']>; next: RecrawlSection['nextRound'] }) {
  return (
    <div className="rounded border border-red-300 bg-red-50 p-3 text-sm text-red-900" data-testid="round-failure" data-round={f.round}>
      <p>
        <strong>Round {f.round} failed</strong>{' '}
        {f.failures === 1 ? <>at <Time at={f.failedAt} /></> : <>{f.failures} times since <Time at={f.firstFailedAt} />, last at <Time at={f.failedAt} /></>}
        {f.url && <> while refetching <span className="break-all font-mono text-xs">{f.url}</span></>}:{' '}
        <span data-testid="round-failure-message">{f.message}</span>
      </p>
      <p data-testid="round-retry" data-state={next.state}>
        {next.state === 'not-running'
          ? <>It is not tried again while the crawl is not running{next.at && <>: when it runs again, from <Time at={next.at} /></>}.</>
          : next.state === 'scheduled' && next.at
            ? <>Tried again at <Time at={next.at} />.</>
            : <>Tried again once no page of the crawl waits to be fetched.</>}
        {' '}The crawl log has one entry for failures in a row with the same error, its retries counting those after the first, and at most ten a round (outcome <span className="font-mono text-xs">recrawl-round-failed</span>).
      </p>
    </div>
  );
}

function RecrawlPart({ r }: { r: RecrawlSection }) {
  return (
    <div className="space-y-2">
      <h3 className="font-semibold">Recrawl rounds</h3>
      <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm">
        <dt className="text-slate-600">Interval</dt>
        <dd>every {r.intervalMinutes} minute{r.intervalMinutes === 1 ? '' : 's'} after the last round ended</dd>
        <dt className="text-slate-600">Last round</dt>
        <dd data-testid="last-round">
          {r.lastRound === null || !r.lastFinishedAt ? 'none yet' : <>{r.lastRound === 0 ? 'the initial crawl' : `round ${r.lastRound}`}, ended <Time at={r.lastFinishedAt} /></>}
        </dd>
        <dt className="text-slate-600">Next round</dt>
        <dd data-testid="next-round" data-state={r.nextRound.state}><NextRound next={r.nextRound} />{r.failure && ` (round ${r.failure.round} again, after its failure)`}</dd>
      </dl>
      {r.failure && <RoundFailed f={r.failure} next={r.nextRound} />}
      {r.rounds.length === 0 ? (
        <p className="text-sm text-slate-600" data-testid="no-rounds">No recrawl round has finished yet.</p>
      ) : (
        <ScrollingTable label="Recrawl rounds">
          <table className="table-base" data-testid="round-table">
            <caption className="mb-1 text-left text-sm text-slate-600">
              The last {r.rounds.length} round{r.rounds.length === 1 ? '' : 's'}, newest first. Due: the pages whose revisit time had come that the round set out to refetch;
              those of a host that gave no answer to the rounds before, left out while it waits out its back-off, are counted apart.
            </caption>
            <thead>
              <tr>
                <th scope="col">Round</th>
                <th scope="col">Ended</th>
                <th scope="col" className="text-right">Pages</th>
                <th scope="col" className="text-right">Due</th>
                <th scope="col" className="text-right">Fetched</th>
                <th scope="col" className="text-right">Changed</th>
                <th scope="col" className="text-right">Parents fetched</th>
                <th scope="col" className="text-right">New links</th>
                <th scope="col" className="text-right">Parent threshold</th>
                <th scope="col">Failed before</th>
              </tr>
            </thead>
            <tbody>
              {r.rounds.map((round) => (
                <tr key={round.round} data-testid="round-row" data-round={round.round}>
                  <th scope="row" className="font-normal tabular-nums">{round.round}</th>
                  <td className="whitespace-nowrap"><Time at={round.finishedAt} /></td>
                  <td className="text-right tabular-nums">{round.pages}</td>
                  <td className="text-right tabular-nums" data-testid="round-due">
                    {round.due}
                    {round.backedOff > 0 && <span className="block whitespace-nowrap text-xs text-amber-900" data-testid="round-backed-off">+{round.backedOff} left out: host back-off</span>}
                  </td>
                  <td className="text-right tabular-nums">{round.fetched}</td>
                  <td className="text-right tabular-nums">{round.changed}</td>
                  <td className="text-right tabular-nums">{round.parentsFetched}</td>
                  <td className="text-right tabular-nums">{round.newLinks}</td>
                  <td className="text-right tabular-nums">{round.parentThreshold.toFixed(2)}</td>
                  <td className="text-xs" data-testid="round-failures">
                    {round.lastFailure ? (
                      <span className="block max-w-xs truncate text-red-800" title={round.lastFailure.message}>
                        {round.failures === 1 ? 'once' : `${round.failures} times`}: {round.lastFailure.message}
                      </span>
                    ) : '–'}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </ScrollingTable>
      )}
    </div>
  );
}

/**
 * The crawl's feeds and scheduled recrawls (shown when its ICD has either): every feed counted by
 * its last poll and, a page at a time (all or of one kind), when each feed was last polled, what it
 * found and whether the poll failed; when the next recrawl round is due, whether the
 * round under way failed (why, and when it is tried again), and what the last rounds did. Kept live by the crawl's socket events (live.ts).
 */
export function FeedsAndRecrawls({ crawlId, running }: { crawlId: number; running: boolean }) {
  // Another filter starts at its first page.
  const [shown, setShown] = useState<{ page: number; filter: FeedFilter }>({ page: 1, filter: 'all' });
  const view = useIncremental(crawlId, running, shown.page, shown.filter);
  const v = view.data;
  return (
    <section aria-labelledby="feeds-recrawls-title" className="card space-y-4" data-testid="feeds-recrawls">
      <h2 id="feeds-recrawls-title" className="text-lg font-semibold">Feeds and recrawls</h2>
      <ErrorMessage error={view.error} />
      {view.isPending && <p className="text-sm text-slate-600">Loading…</p>}
      {v?.feeds && <FeedTable f={v.feeds} filter={shown.filter} onPage={(page) => setShown({ ...shown, page })} onFilter={(filter) => setShown({ page: 1, filter })} />}
      {v?.recrawl && <RecrawlPart r={v.recrawl} />}
    </section>
  );
}
