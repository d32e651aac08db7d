import { setMaxListeners } from 'node:events';
import { mkdirSync, appendFileSync, rmSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { CaptureSummary, CrawlStats } from '../events/messages';
import { SqliteFrontier, type Lease, type StateCounts } from '../frontier';
import { PolitenessRegistry, startStopwatch } from '../politeness';
import { runPipeline } from '../pipeline';
import { releaseBody } from '../fetch';
import { CrawlContext, type CrawlContextOptions, type FoundObject } from './crawl-context';
import type { CrawlItem } from './stage';
import { commitItem } from './commit-item';
import { runHostBatch, takeHostBatches } from './host-batch';
import { runRevisitPass } from './revisit-pass';
import { closeVisitSet } from './close-visit-set';
import { finishIntake } from './close-intake';
import { crawlUpdateFunction } from './frontier-config';
import { visitSetCloses } from '../coherence';
import { IncrementalDriver } from './incremental-driver';
import { applyScoredIntake, reopenIntake } from '../frontier/scored-intake';
import { applyLiveExclusions } from './live-exclusions';
import { fetchSlotsOnly, freeSlots } from './fetch-slots';
import { objectLine, repairObjectsJsonl } from './objects-jsonl';
import { HostOutages } from './host-outages';
import { isDatabaseRefusal, isStorageFailure, storageFailureMessage } from '../store/storage-failure';

/** What the crawl's context needs (the engine makes the frontier), and the engine's own hooks. */
export interface CrawlEngineOptions extends Omit<CrawlContextOptions, 'frontier'> {
  /** The CLI writes extracted Web objects here, one JSON object per line. */
  objectsJsonlPath?: string;
  /**
   * Tests only: waits this long between a page's commit and the append of its objects to
   * objects.jsonl, so a test can kill the process in that window (the CLI's
   * TIDEMARK_TEST_OBJECTS_WRITE_DELAY_MS). Widens the window; the crash is real.
   */
  objectsWriteDelayMs?: number;
  /**
   * The worker's politeness clocks, shared by every crawl it runs (CrawlManager), so a host — or an
   * IP — gets one request at a time and its delay whichever crawl asks. Default: the crawl's own (the CLI).
   */
  registry?: PolitenessRegistry;
  /** The newest captures since the last call (50 at most), and how many there were in all (`count`). */
  onCaptures?(captures: CaptureSummary[], count: number): void;
  onRelevance?(payload: unknown): void;
  onCoherence?(payload: unknown): void;
  /** Length of a minute for feed polling, recrawl intervals and the time limit (tests shorten it). */
  minuteMs?: number;
  /** How long a pause or stop waits for fetches under way before cutting them off (default 5 s). */
  haltGraceMs?: number;
  /**
   * How long the crawl ran before this run (its earlier runs, CrawlManager): its time limit
   * (scope.maxDurationMinutes) counts them. The CLI gives none: its limit counts its own run.
   */
  ranBeforeMs?: number;
}

/**
 * A pause or stop lets pages under way finish, but not for a fetch's whole time budget (120 s by
 * default, a server trickling a byte a second): past this, fetches end and their URLs are queued again.
 */
export const HALT_GRACE_MS = 5_000;

export type EngineOutcome = 'finished' | 'paused' | 'stopped';

/**
 * Runs one crawl: leases URLs from the frontier as politeness allows, sends each through the
 * pipeline (worker/pipeline.ts) with up to `concurrency` in flight, and commits each result —
 * frontier state, capture row, crawl-log entry — in one transaction after its WARC records are
 * written. Pause and stop let in-flight pages finish, so nothing acknowledged is lost; fetches
 * still under way after `haltGraceMs` are cut off and their URLs go back to the queue.
 */
export class CrawlEngine {
  private ctx: CrawlContext | null = null;
  private halt: EngineOutcome | null = null;
  /** Set when the crawl finished because its time or size limit was reached with URLs still to visit. */
  private endedBy: CrawlStats['endedBy'];
  private inFlight = new Set<Promise<unknown>>();
  /** Pages of inFlight still resolving, waiting for robots.txt or fetching (processLease). */
  private fetching = 0;
  /** Whether only those hold a slot (fetch-slots.ts). */
  private fetchSlotsOnly = false;
  /** The loop's last pass found every fetch slot taken: a fetch ending wakes it. */
  private waitingForFetchSlot = false;
  private wake: (() => void) | null = null;
  /** When the sleeping loop wakes by itself (Infinity while it is not sleeping: nothing to bring forward). */
  private sleepingUntil = Number.POSITIVE_INFINITY;
  /** An append to objects.jsonl failed this run (said once; the next start repairs the file). */
  private objectsAppendFailed = false;
  private done: Promise<EngineOutcome> | null = null;
  private pendingCaptures: CaptureSummary[] = [];
  private finalStats: CrawlStats | null = null;
  /** Feeds and recrawl rounds of this run, when the ICD asks for them. */
  incremental: IncrementalDriver | null = null;
  /** Hosts that stopped answering, held back (host-outages.ts). */
  private outages: HostOutages | null = null;
  /**
   * Why the crawl paused on its own (storage-failure.ts), or null. A full disk pauses it: every page
   * after the first failed write would fail too, and be lost from the crawl.
   */
  pausedBecause: string | null = null;
  /** Aborted `haltGraceMs` after a pause or stop: fetches still under way end as `interrupted`. */
  private readonly fetchInterrupt = new AbortController();
  /**
   * The timer of that abort, cleared when the run ends first: it held the whole engine (its context,
   * frontier and seen-set) for the grace period after a run that had ended.
   */
  private haltGraceTimer: NodeJS.Timeout | null = null;

  constructor(private readonly opts: CrawlEngineOptions) {
    // Every page in flight (up to the ICD's concurrency, 512) listens for the interrupt: no leak.
    setMaxListeners(0, this.fetchInterrupt.signal);
  }

  get halting(): boolean {
    return this.halt !== null;
  }

  run(): Promise<EngineOutcome> {
    this.done ??= this.loop();
    return this.done;
  }

  /** Lets in-flight pages finish, closes the WARC file; the crawl resumes from the frontier. */
  async pause(): Promise<void> {
    await this.haltWith('paused');
  }

  async stop(): Promise<void> {
    await this.haltWith('stopped');
  }

  private async haltWith(outcome: EngineOutcome): Promise<void> {
    this.requestHalt(outcome);
    await this.done?.catch(() => undefined);
  }

  /** Stops leasing; fetches still under way after the grace period are cut off. */
  private requestHalt(outcome: EngineOutcome): void {
    if (this.halt === null) {
      this.halt = outcome;
      this.haltGraceTimer = setTimeout(() => this.fetchInterrupt.abort(), this.opts.haltGraceMs ?? HALT_GRACE_MS).unref();
    }
    this.wake?.();
  }

  /** Ends this run with the crawl paused for the archivist, saying why (the first reason stands). */
  private pauseWith(reason: string): void {
    if (this.pausedBecause === null) {
      this.pausedBecause = reason;
      console.error(`tidemark: ${reason}`);
    }
    this.requestHalt('paused');
  }

  /**
   * A commit was refused for a reason other than a full disk (a constraint, a lock held too long):
   * no capture behind it may be acknowledged, so this run ends, and the crawl waits for the
   * archivist with the reason rather than being started again and again by the manager.
   */
  private pauseForRefusal(detail: string): void {
    this.pauseWith(`Paused: the database refused to store a capture (${detail}). Nothing acknowledged is lost; the pages under way go back to the queue. Resume the crawl once the database takes writes again.`);
  }

  private pauseForStorage(err: unknown): void {
    this.pauseWith(storageFailureMessage(err));
  }

  /**
   * A recrawl round that threw: storage failures pause the crawl; anything else is logged and the
   * round is tried again later (IncrementalDriver stored the failure for the cockpit and the crawl log).
   */
  private recrawlFailed(err: unknown): void {
    if (isStorageFailure(err)) this.pauseForStorage(err);
    else console.error(`tidemark: crawl ${this.opts.crawlId}: recrawl round failed: ${err instanceof Error ? err.message : String(err)}`);
  }

  stats(): CrawlStats {
    if (this.finalStats) return this.finalStats;
    if (!this.ctx) {
      return { fetched: 0, queued: 0, inFlight: 0, failed: 0, failedByReason: {}, excluded: 0, excludedByReason: {}, bytes: 0, pagesPerSecond: 0, statusClasses: {}, updatedAt: new Date().toISOString() };
    }
    const c = this.ctx.frontier.counters(this.opts.crawlId);
    const stats: CrawlStats = this.ctx.stats.snapshot({ queued: c.queued + c.retrying, inFlight: c.inFlight, excluded: c.excluded, excludedByReason: c.excludedByReason });
    const backoff = this.outages?.waiting();
    if (backoff?.hosts && backoff.nextTryAt !== null) Object.assign(stats, { hostsInBackoff: backoff.hosts, nextHostTryAt: new Date(backoff.nextTryAt).toISOString() });
    return this.endedBy ? { ...stats, endedBy: this.endedBy } : stats;
  }

  private async loop(): Promise<EngineOutcome> {
    const { opts } = this;
    mkdirSync(opts.warcDir, { recursive: true });
    // A spool file lives only while its record is written: what a run that died left is of no use.
    rmSync(opts.spoolDir, { recursive: true, force: true });
    mkdirSync(opts.spoolDir, { recursive: true });
    this.repairObjectsJsonl();
    // A key another crawl of the worker held may free a host of this one while the loop sleeps.
    // A host of its own due before the loop's planned wake-up (its request is over, its page still being
    // processed) wakes it too; one due later does not: at a thousand pages a second, waking the loop for
    // each of them cost the polite benchmark ~3 points of its rate.
    const frontier = new SqliteFrontier(opts.db, {
      registry: opts.registry,
      onHostsWaiting: (readyAt) => {
        if (readyAt === undefined || readyAt < this.sleepingUntil) this.wake?.();
      },
    });
    let ctx: CrawlContext;
    try {
      ctx = await CrawlContext.open({ ...opts, frontier, interrupt: this.fetchInterrupt.signal, halted: () => this.halt !== null, onArchived: (c) => this.pendingCaptures.push(c), onObjects: (objects) => this.appendObjects(objects) });
    } catch (err) {
      // The crawl may be open in the frontier already: it stops listening to the shared registry
      // (closeCrawl does that even when the database refuses its writes; the open's error says more).
      try {
        frontier.close();
      } catch {
        // The database's own failure, most likely the open's too: the open's error is the one reported.
      }
      throw err;
    }
    this.ctx = ctx;
    const concurrency = opts.icd.politeness.concurrency;
    // Batch prioritisation takes the top bl URLs of a host at once (worker/crawler/host-batch.ts).
    const bl = ctx.focus?.batchMode ? opts.icd.focus.batch.bl : 1;
    const maxPages = opts.icd.scope.maxPages;
    // The time limit ends visits as a spent page budget does: pages under way finish, nothing more is
    // leased (the loop looks at least every second: sleepUntilWake). The size limit likewise.
    const limitMs = opts.icd.scope.maxDurationMinutes * (opts.minuteMs ?? 60_000);
    // On the monotonic clock: a wall clock set forward (NTP after a resume) ended crawls at once.
    const ranFor = startStopwatch();
    const timeLeftMs = limitMs - (opts.ranBeforeMs ?? 0);
    const maxBytes = opts.icd.scope.maxBytes;
    // The size limit too: the captures' payload bytes (restored from the database at open, so earlier runs count).
    const limitReached = (): CrawlStats['endedBy'] | null =>
      limitMs > 0 && ranFor() >= timeLeftMs ? 'time-limit' : maxBytes > 0 && ctx.stats.bytes >= maxBytes ? 'size-limit' : null;
    // The page budget counts fetch attempts, so focused crawling spends it on the best URLs. URLs
    // robots.txt refused, or of a host given up, are stored failed but were never requested: they spend none of it.
    const budgetLeftOf = (c: Readonly<StateCounts>) =>
      limitReached() ? 0 : maxPages - (c.done + c.failed - frontier.notRequestedFailures(opts.crawlId) + c.inFlight);
    // Scored URLs posted to the API wait in frontier_intake; applied before the first lease and every
    // 500 ms while the page budget allows visits and no pause or stop is under way. Otherwise they
    // wait, rather than being queued for no visit: for the crawl's end, which records them as
    // excluded (finishIntake, or the worker's endCrawl for a stop), or for its resume.
    const updateFunction = crawlUpdateFunction(opts.icd);
    const applyIntake = (): boolean => {
      if (this.halt !== null || budgetLeftOf(frontier.stateCounts(opts.crawlId)) <= 0) return false;
      const applied = applyScoredIntake(opts.db, frontier, opts.crawlId, updateFunction);
      if (applied.queued === 0) return false;
      this.wake?.();
      return true;
    };
    let flushTimer: NodeJS.Timeout | undefined;
    try {
      this.outages = new HostOutages(ctx);
      // A run that finished its visits and died before the crawl was marked finished is run again.
      reopenIntake(opts.db, opts.crawlId);
      // Exclude patterns added while the crawl was paused or waiting, before any URL is leased; then
      // those added while it runs, every 500 ms (live-exclusions.ts).
      applyLiveExclusions(ctx);
      applyIntake();
      flushTimer = setInterval(() => {
        try {
          this.flushEvents();
          const patterns = ctx.excludePatterns();
          applyLiveExclusions(ctx);
          // Feeds a pattern added (or removed) live now matches are recorded now, not at their next period.
          if (ctx.excludePatterns() !== patterns) this.incremental?.exclusionsChanged(Date.now());
          applyIntake();
        } catch (err) {
          // Thrown in a timer it would end the whole process: a full disk pauses the crawl instead.
          if (isStorageFailure(err)) this.pauseForStorage(err);
          else console.error(`tidemark: crawl ${opts.crawlId}: applying exclusions or posted URLs failed: ${(err as Error).message}`);
        }
      }, 500);
      // Feeds and scheduled recrawls (worker/crawler/incremental-driver.ts); null for one-pass crawls.
      const incremental = IncrementalDriver.create(ctx, { minuteMs: opts.minuteMs, onCoherence: opts.onCoherence, halted: () => this.halt !== null }, Date.now());
      this.incremental = incremental;
      const closesVisitSet = visitSetCloses(opts.icd);
      // A revisit pass an earlier run began and did not finish (a pause, a restart) goes on first: URLs
      // queued meanwhile (a Sitemap: line read again for a revisit, posted URLs, feed articles, in a
      // crawl with feeds or recrawls) wait until it ends, as they do while it runs, so its revisits
      // stay near its reference time and those URLs are visited after it, outside its certificate.
      let resumePass = opts.icd.coherence.mode === 'visit-revisit' && ctx.coherence.revisitsBegun() && !ctx.coherence.isFinished();
      while (!this.halt) {
        if (resumePass) {
          resumePass = false;
          if (!(await this.revisitPass(ctx))) break;
        }
        const feedPolls = incremental?.tick(Date.now());
        if (feedPolls) this.track(feedPolls);
        const c = frontier.stateCounts(opts.crawlId);
        const budgetLeft = budgetLeftOf(c);
        this.fetchSlotsOnly = fetchSlotsOnly({ batchSize: bl, analysisThread: ctx.focus?.threaded === true, polite: opts.icd.politeness.enabled });
        const free = freeSlots({ concurrency, fetching: this.fetching, inFlight: this.inFlight.size, budgetLeft }, this.fetchSlotsOnly);
        const leases = free > 0 && bl === 1 ? frontier.nextMany(Date.now(), free) : [];
        for (const lease of leases) this.track(this.processLease(lease, ctx));
        const batches = free > 0 && bl > 1 ? takeHostBatches(frontier, Date.now(), free, bl, budgetLeft) : [];
        for (const batch of batches) this.track(this.processHostBatch(batch, ctx));
        this.waitingForFetchSlot = this.fetchSlotsOnly && this.fetching >= concurrency;
        if (leases.length || batches.length) continue;
        if (this.inFlight.size === 0 && (budgetLeft <= 0 || (frontier.nextWakeAt() === null && c.queued + c.retrying === 0))) {
          // URLs posted since the last intake are crawled before the crawl may finish.
          if (applyIntake()) continue;
          if (opts.icd.coherence.mode === 'visit-revisit') {
            // A capture that visits no more URLs once its revisits begin closes its visit set first,
            // unless URLs were posted since the intake above: they are visited before (close-visit-set.ts).
            if (closesVisitSet && !closeVisitSet(ctx, { mayVisit: budgetLeft > 0, updateFunction, now: Date.now() })) continue;
            // The visit pass is over, the revisits follow (worker/crawler/revisit-pass.ts).
            if (!(await this.revisitPass(ctx))) break;
          }
          if (incremental && budgetLeft > 0) {
            const round = incremental.whenIdle(Date.now(), () => this.halt !== null);
            // A round's failure must not go unhandled: that ends the worker process (and its restart,
            // resuming the round, ended it again). A full disk pauses the crawl as a page's commit does.
            if (round) this.track(round.catch((err: unknown) => this.recrawlFailed(err)));
            else await this.sleepUntilWake(incremental.wakeAt());
            continue;
          }
          // The crawl ends its visits unless URLs were posted since the intake above that the budget
          // may visit; what waits with the budget spent is recorded as excluded (close-intake.ts).
          if (!finishIntake(ctx, { mayVisit: budgetLeft > 0, updateFunction, now: Date.now() })) continue;
          // The page budget spent (budgetLeft is 0 then) is the page limit, unless time or size ended it.
          const limit = limitReached() ?? (budgetLeft <= 0 ? 'page-limit' : null);
          if (limit && (incremental || c.queued + c.retrying > 0)) this.endedBy = limit;
          return 'finished';
        }
        // No slot free (or no budget): only a page ending (track) or a pause gives the loop work, even
        // when a host is ready now; sleeping until its time (already past) spun the loop every ms.
        await this.sleepUntilWake(free > 0 ? frontier.nextWakeAt() : null);
      }
      return this.halt ?? 'paused';
    } catch (err) {
      // The frontier's own reads and writes (leases, intake, the revisit pass) on a full disk: the
      // crawl pauses with the reason, as for a page's commit, rather than failing.
      if (!isStorageFailure(err)) throw err;
      this.pauseForStorage(err);
      return 'paused';
    } finally {
      await Promise.allSettled([...this.inFlight]);
      clearInterval(flushTimer);
      if (this.haltGraceTimer) clearTimeout(this.haltGraceTimer);
      try {
        // Batch mode: the open batch's links get their batch scores before the crawl ends or pauses.
        ctx.focus?.closeBatch(frontier, opts.crawlId);
        this.flushEvents();
        // A resumed crawl starts with every host healthy: none stays in back-off, in the list or the last counters.
        this.outages?.endRun();
        this.finalStats = this.stats();
      } finally {
        // Whatever failed above: the crawl's politeness keys, shared with the worker's other crawls, are freed.
        frontier.closeCrawl(opts.crawlId);
      }
      try {
        // After a refused commit the last WARC file holds captures never acknowledged: left as a
        // crash leaves it, the next start cuts them, so each page is archived once.
        await ctx.close({ abandonWarc: this.pausedBecause !== null || ctx.sequencer.refusedAny });
      } catch (err) {
        // A full disk while closing (the index is sorted then): the next start finishes the job.
        if (!isStorageFailure(err)) throw err;
        this.pauseForStorage(err);
      }
      // Every body was released with its page; the folder would stay behind, one per crawl, for good.
      rmSync(opts.spoolDir, { recursive: true, force: true });
    }
  }

  /**
   * The revisit half of a visit–revisit capture (revisit-pass.ts); false when it did not finish. A
   * commit the database refused (a revisit's capture or classification: a constraint, a trigger)
   * pauses the crawl as a page's or a recrawl round's does, rather than failing it: the resumed
   * pass goes on with the pages not yet revisited (a refused one among them), each revisited once.
   * A full disk reaches the loop's catch, which pauses the crawl too.
   */
  private async revisitPass(ctx: CrawlContext): Promise<boolean> {
    try {
      return await runRevisitPass(ctx, this.opts.warcDir, { halted: () => this.halt !== null, onCoherence: this.opts.onCoherence });
    } catch (err) {
      if (isStorageFailure(err) || !(ctx.sequencer.refusedAny || isDatabaseRefusal(err))) throw err;
      this.pauseForRefusal(`coherence revisit: ${err instanceof Error ? err.message : String(err)}`);
      return false;
    }
  }

  private track(task: Promise<unknown>): void {
    this.inFlight.add(task);
    void task.finally(() => {
      this.inFlight.delete(task);
      // A commit refused anywhere (a page's, robots.txt's, a feed poll's): no capture behind it may
      // be acknowledged any more (CommitSequencer.mayAcknowledge), so every later page would give its
      // URL back and be fetched again, without end. The run ends; the next start cuts the WARC files.
      if (this.ctx?.sequencer.refusedAny) this.pauseForRefusal("see the worker's log");
      this.wake?.();
    });
  }

  /** Waits for a finished fetch, a pause/stop, or the frontier's next wake time. */
  private sleepUntilWake(wakeAt: number | null): Promise<void> {
    return new Promise((resolve) => {
      const delay = wakeAt === null ? 1000 : Math.max(0, Math.min(1000, wakeAt - Date.now()));
      const timer = setTimeout(() => finish(), delay);
      this.sleepingUntil = Date.now() + delay;
      const finish = () => {
        clearTimeout(timer);
        this.wake = null;
        this.sleepingUntil = Number.POSITIVE_INFINITY;
        resolve();
      };
      this.wake = finish;
    });
  }

  /** One host's batch of URLs, fetched one after another under its politeness delay (host-batch.ts). */
  private processHostBatch(leases: Lease[], ctx: CrawlContext): Promise<void> {
    return runHostBatch(leases, {
      process: (lease) => this.processLease(lease, ctx),
      readyAt: (lease) => ctx.frontier.hostReadyAt(lease.crawlId, lease.host),
      polite: this.opts.icd.politeness.enabled,
      halted: () => this.halt !== null,
      release: (lease) => ctx.frontier.release(lease),
    });
  }

  /**
   * One URL through the pipeline; a single catch records an unexpected error for this URL only.
   * Returns true when the URL was given back unfetched (its IP was busy).
   */
  private async processLease(lease: Lease, ctx: CrawlContext): Promise<boolean> {
    const item: CrawlItem = { url: lease.url, host: lease.host, depth: lease.depth, priority: lease.priority, lease, scopeHops: lease.scopeHops };
    // A host in back-off since the URL was leased (a host batch's) takes it back; one given up fails it unrequested.
    const verdict = this.outages?.verdict(lease) ?? 'fetch';
    if (verdict === 'held-back') item.released = true;
    else if (verdict === 'given-up') {
      item.failure = this.outages!.givenUpFailure(lease.host);
      item.notRequested = true;
    }
    this.fetching++;
    let fetched = false;
    const onFetched = () => {
      if (fetched) return;
      fetched = true;
      this.fetching--;
      // Only a loop held back by the fetch slots has use for one more (a wake-up per page cost a polite crawl ~3%).
      if (this.waitingForFetchSlot) this.wake?.();
    };
    try {
      if (verdict === 'fetch') await runPipeline(item, ctx, onFetched);
    } catch (err) {
      if (isStorageFailure(err)) {
        // Not the page's fault: its URL goes back to the queue, and the crawl pauses.
        item.released = true;
        this.pauseForStorage(err);
      } else if (ctx.sequencer.refusedAny) {
        // A commit was refused (robots.txt's capture, say, fetched for this page): this run ends
        // (track()), and the page, likely failed by that refusal, is fetched again by the next.
        item.released = true;
        this.pauseForRefusal(`${item.url}: ${err instanceof Error ? err.message : String(err)}`);
      } else {
        item.failure = { reason: 'internal', message: err instanceof Error ? err.message : String(err) };
        // A page that failed so (its records could not be made, say) queues no links with its
        // failure, though the schedule stage, before the warc stage, planned them. Those it queued
        // ahead (commitLinksAhead: a large sitemap's, a seed's) stay: they were found in a response
        // the host did send, which only its records failed to keep.
        item.plan = undefined;
      }
    } finally {
      onFetched();
    }
    let summary: CaptureSummary | null = null;
    try {
      summary = await commitItem(item, lease, ctx);
      // What the URL told of its host: its back-off begins, goes on or ends (nothing to do for most pages).
      await this.outages?.ended(item, lease);
      // Batch mode: the page's links are queued now, so its analysis joins the open batch.
      ctx.focus?.committed(item, ctx.frontier, this.opts.crawlId);
    } catch (err) {
      // The database refused the commit (disk full, locked too long): nothing was acknowledged,
      // so the URL goes back to the queue and is fetched again later.
      if (isStorageFailure(err)) this.pauseForStorage(err);
      else console.error(`tidemark: commit of ${item.url} failed: ${(err as Error).message}`);
      // Its records stay in the WARC file unacknowledged, and no capture behind them can be
      // acknowledged now (CommitSequencer.mayAcknowledge): this run ends, and the next start cuts them.
      if (ctx.sequencer.refusedAny) this.pauseForRefusal(`${item.url}: ${(err as Error).message}`);
      try {
        ctx.frontier.release(lease);
      } catch {
        // The database cannot take even that: the next start puts URLs left in flight back.
      }
    }
    if (item.exchange) await releaseBody(item.exchange.body).catch(() => undefined);
    if (summary) this.pendingCaptures.push(summary);
    // Only once the page's capture is committed: a commit refused or failed fetches the page again, with its objects.
    if (summary && item.objects?.length) {
      if (this.opts.objectsWriteDelayMs) await sleep(this.opts.objectsWriteDelayMs);
      this.appendObjects(item.objects.map((o) => ({ type: o.type, url: o.url ?? item.url, fields: o.fields })));
    }
    return item.released === true;
  }

  /** Web objects found (a page's, a recrawl round's), one JSON object a line in the CLI's objects.jsonl. */
  private appendObjects(objects: FoundObject[]): void {
    if (!objects.length || !this.opts.objectsJsonlPath) return;
    try {
      appendFileSync(this.opts.objectsJsonlPath, objects.map(objectLine).join('\n') + '\n');
    } catch (err) {
      // The objects are committed in the database already; the next start writes what is missing
      // (repairObjectsJsonl). Said once a run: a full disk would fail every page's append.
      if (this.objectsAppendFailed) return;
      this.objectsAppendFailed = true;
      console.error(`tidemark: cannot append to ${this.opts.objectsJsonlPath} (${(err as Error).message}): the objects are kept in the database, and the next start writes the missing lines`);
    }
  }

  /**
   * objects.jsonl is appended after each commit: a process killed in between (or during the append)
   * left committed objects out of it, or a cut line. The database is the truth: at each start the
   * file gets the crawl's committed objects it lacks, once each (objects-jsonl.ts).
   */
  private repairObjectsJsonl(): void {
    if (!this.opts.objectsJsonlPath) return;
    try {
      const { appended, cutBytes } = repairObjectsJsonl(this.opts.objectsJsonlPath, this.opts.db, this.opts.crawlId);
      if (appended || cutBytes) {
        console.error(`tidemark: ${this.opts.objectsJsonlPath}: ${cutBytes ? `cut a torn last line (${cutBytes} bytes), ` : ''}appended ${appended} stored object(s) an earlier run had not written`);
      }
    } catch (err) {
      // The crawl goes on; the objects stay in the database, and the next start tries again.
      console.error(`tidemark: cannot repair ${this.opts.objectsJsonlPath}: ${(err as Error).message}`);
    }
  }

  private flushEvents(): void {
    if (this.pendingCaptures.length && this.opts.onCaptures) this.opts.onCaptures(this.pendingCaptures.slice(-50), this.pendingCaptures.length);
    this.pendingCaptures = [];
    if (this.ctx && this.opts.onRelevance) {
      const relevance = this.ctx.relevanceSnapshot();
      if (relevance) this.opts.onRelevance(relevance);
    }
  }
}
