import type { CrawlContext } from './crawl-context';
import { FeedMonitor } from './feed-monitor';
import { SqliteFeedMemoryStore } from './feed-state-store';
import { RecrawlState, runRecrawlRound, type RoundPosition, type RoundReport } from './recrawl-round';
import { failureMessage } from './recrawl-history';
import { logRoundFailure } from './round-failure-log';
import type { Icd } from '../icd/schema';
import { isStorageFailure } from '../store/storage-failure';
import { runInTransaction } from '../store/sqlite';

export interface IncrementalOptions {
  /** Length of a minute in ms (tests shorten it). */
  minuteMs?: number;
  onCoherence?(payload: unknown): void;
  /** A pause or stop (feed polls waiting for their host's turn give up). */
  halted?(): boolean;
}

/**
 * What keeps a crawl running after its frontier is empty: feed monitoring (ICD coherence.feeds)
 * and scheduled recrawl rounds (coherence.recrawlIntervalMinutes). Such a crawl runs until it is
 * stopped or paused. Null when the ICD asks for neither.
 */
export class IncrementalDriver {
  private readonly minuteMs: number;
  private readonly feeds: FeedMonitor | null;
  private readonly recrawl: RecrawlState | null;
  readonly rounds: RoundReport[] = [];
  /** After a round that failed: not before then (stored with the failure, so a restart keeps it). */
  private retryAt = 0;

  private constructor(private readonly ctx: CrawlContext, private readonly o: IncrementalOptions, now: number) {
    this.minuteMs = o.minuteMs ?? 60_000;
    const { feeds, minFeedPollMinutes, recrawlIntervalMinutes } = ctx.icd.coherence;
    this.feeds = feeds.length ? new FeedMonitor(ctx, { feeds, minPollMinutes: minFeedPollMinutes, minuteMs: this.minuteMs, halted: o.halted, store: new SqliteFeedMemoryStore(ctx.db, ctx.crawlId), onPoll: (url, poll) => o.onCoherence?.({ phase: 'feed', url, ...poll }) }, now) : null;
    this.recrawl = recrawlIntervalMinutes > 0 ? new RecrawlState(ctx.db, ctx.crawlId) : null;
    // A round that failed in an earlier run (before a restart, a pause) waits for the time stored with
    // its failure; retried at once, a failure that recurs on every start would be retried on every start.
    this.retryAt = this.recrawl?.pendingFailure()?.retryAt ?? 0;
  }

  static create(ctx: CrawlContext, o: IncrementalOptions, now: number): IncrementalDriver | null {
    return runsIncrementally(ctx.icd) ? new IncrementalDriver(ctx, o, now) : null;
  }

  /** Articles the feed polls of this run queued as new. */
  get feedArticlesQueued(): number {
    return this.feeds?.articlesQueued ?? 0;
  }

  /** Feed polls due now (at any time of the crawl). */
  tick(now: number): Promise<void> | null {
    return this.feeds?.tick(now) ?? null;
  }

  /** The crawl's exclude patterns changed (live-exclusions.ts): the feeds they now match are recorded excluded at once. */
  exclusionsChanged(now: number): void {
    this.feeds?.exclusionsChanged(now);
  }

  /** With the frontier idle: the recrawl round due now, if any (it rejects when the round failed). */
  whenIdle(now: number, halted: () => boolean): Promise<void> | null {
    if (!this.recrawl) return null;
    this.retryAt = Math.min(this.retryAt, now + this.minuteMs); // a clock set back, as below
    const last = this.recrawl.last();
    if (!last) {
      // The initial crawl is round 0; the first recrawl is one interval after it ended.
      this.recrawl.finishRound(0, now, 0.5);
      return null;
    }
    if (last.finishedAt > now) {
      // A clock set back (after running ahead): the interval counts from now. Left in the future,
      // the last round's end held every round until the clock came back to it.
      this.recrawl.finishRound(last.round, now, last.parentThreshold);
      return null;
    }
    if (now < this.nextRoundAt(last.finishedAt) || now < this.retryAt) return null;
    const round = last.round + 1;
    const position: RoundPosition = { url: null };
    return runRecrawlRound(this.ctx, this.recrawl, { halted, position }).then(
      (report) => {
        if (!report) return;
        this.rounds.push(report);
        this.o.onCoherence?.({ phase: 'recrawl', ...report });
      },
      (err: unknown) => {
        // The caller decides the crawl's fate (a full disk pauses it); a round that failed for a
        // reason of its own is tried again a minute later, not at once and again without end.
        const at = Date.now();
        this.retryAt = at + this.minuteMs;
        this.recordFailure(round, at, err, position.url);
        throw err;
      },
    );
  }

  /**
   * Stores the round's failure and logs it (one transaction; round-failure-log.ts), for the
   * cockpit's "Feeds and recrawls" and crawl log. A failure that pauses the crawl (storage-failure.ts,
   * or a refused commit of a refetch's capture: CrawlEngine.pauseForRefusal) is retried when the
   * crawl is resumed, not at a time.
   */
  private recordFailure(round: number, at: number, err: unknown, url: string | null): void {
    const retryAt = isStorageFailure(err) || this.ctx.sequencer.refusedAny ? null : this.retryAt;
    try {
      const failure = runInTransaction(this.ctx.db, () => {
        const previous = this.recrawl!.pendingFailure();
        const f = this.recrawl!.fail({ round, at, message: failureMessage(err), url, retryAt });
        logRoundFailure(this.ctx, f, previous);
        return f;
      });
      this.o.onCoherence?.({ phase: 'recrawl-failed', ...failure });
    } catch (recordErr) {
      // The database may refuse this too (a full disk): the round's own error is the one passed on.
      console.error(`tidemark: crawl ${this.ctx.crawlId}: recrawl round ${round}'s failure was not recorded: ${recordErr instanceof Error ? recordErr.message : String(recordErr)}`);
    }
  }

  private nextRoundAt(lastFinishedAt: number): number {
    return lastFinishedAt + this.ctx.icd.coherence.recrawlIntervalMinutes * this.minuteMs;
  }

  /** When something is next due (the engine sleeps until then). */
  wakeAt(): number | null {
    const times: number[] = [];
    if (this.feeds) times.push(this.feeds.wakeAt);
    const last = this.recrawl?.last();
    if (last) times.push(Math.max(this.nextRoundAt(last.finishedAt), this.retryAt));
    return times.length ? Math.min(...times) : null;
  }
}

/** Whether the crawl's ICD asks for feeds or recrawl rounds: it goes on after its frontier is empty. */
export function runsIncrementally(icd: Pick<Icd, 'coherence'>): boolean {
  return icd.coherence.feeds.length > 0 || icd.coherence.recrawlIntervalMinutes > 0;
}
