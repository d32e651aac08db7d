import type Database from 'better-sqlite3';
import { Heap } from 'heap-js';
import type { ExclusionReason, FailureReason } from '../capture';
import { openSqlite, runInTransaction } from '../store/sqlite';
import { PolitenessRegistry, realClock, waitEndAsOf, type Clock, type KeyHolder, type KeyTiming, type KeyTurnLine } from '../politeness';
import { CrawlState, isSettled, REFUSED, REFUSED_TOO_DEEP, SETTLED, type Counted, type HostEntry } from './crawl-state';
import type {
  AddOptions, AddResult, Candidate, CompleteInfo, CrawlFrontierConfig, FailOptions, Frontier, FrontierCounters, HostCounters,
  Lease, Rejected, StateCounts, UpdateFunction, UrlRecord,
} from './frontier';
import { S, prepareStatements, scoreRow, toUrlRecord, type HeadRow, type Statements, type StoredUrl } from './frontier-sql';
import { excludeWaitingMatching, failHostWaiting, insertCandidates, insertRejected, insertWaitingIntake, rescoreQueued, resumeCrawl, rowOf, type IntakeContext } from './frontier-intake';
import { holdEndAt, HostScheduler } from './host-scheduler';
import { applyUpdate, type ScoreState } from './update-functions';
import { urlHash } from './url-hash';
import { ROBOTS_REFUSAL_REASONS } from '../robots/robots-refusal';
import { ROBOTS_BACKOFF } from '../robots/robots-cache';
import { HOST_UNREACHABLE } from '../politeness/host-outage';

/** Failures of URLs never requested: robots.txt refused them, or their host was given up. */
const NOT_REQUESTED_FAILURES: readonly string[] = [...ROBOTS_REFUSAL_REASONS, HOST_UNREACHABLE];

/**
 * How often held scores newer than the table's are written, at most: what a crash can lose of
 * them (URLs are never lost, only score changes), and how stale the cockpit's view of queued
 * scores can be.
 */
export const SCORE_FLUSH_MS = 5_000;

/**
 * How long after its due time a freed key stays a lease's turn (keyOwedToLeases): long enough for
 * an engine busy with a page to come round to it; past that a request outside the leases takes it.
 */
const LEASE_TURN_GRACE_MS = 250;

export interface SqliteFrontierOptions {
  /**
   * The worker's politeness clocks, shared by the frontiers of every crawl it runs (one frontier
   * per crawl run), so a key is held by one request of any of them at a time. Default: a registry
   * of this frontier's own (the CLI's one crawl).
   */
  registry?: PolitenessRegistry;
  clock?: Clock;
  /**
   * Called when hosts of this frontier may be scheduled earlier than the engine planned: a key they
   * waited on was freed, possibly by another crawl's request, or (`readyAt`: when it is due) a host's
   * own request ended while its page is still being processed. The engine sleeping until
   * nextWakeAt() looks again (for `readyAt`, only if it would sleep past it).
   */
  onHostsWaiting?(readyAt?: number): void;
}

interface LeaseRecord {
  lease: Lease;
  entry: HostEntry;
  row: HeadRow;
  /** Set by fetched(): the key the request held and its timing, persisted when the lease settles. */
  requestOver?: { key: string | undefined; timing: KeyTiming };
}

interface RetryItem {
  crawlId: number;
  seq: number;
  host: string;
  notBefore: number;
  /** How long it was to wait (a retry stored by an earlier run: the longest a retry asks for). */
  waitMs: number;
}

/**
 * When a retry is due, as the clock reads it at `now`: a time set before the wall clock was set back,
 * further ahead than its wait, is now (waitEndAsOf). A retry waits for robots.txt to be tried again,
 * at most the robots backoff's longest wait (ROBOTS_BACKOFF) when an earlier run stored it.
 */
function retryDueAt(r: RetryItem, now: number): number {
  return waitEndAsOf(r.notBefore, r.waitMs, now);
}

/**
 * The frontier on SQLite through better-sqlite3: URL state (seen-set and queues) lives in the
 * database, written in batched transactions with prepared statements; host scheduling lives in
 * memory (HostScheduler). "Acknowledged" means a call returned: its transaction committed, and in
 * WAL mode with synchronous=NORMAL a committed transaction survives a SIGKILL of the process (only
 * an OS crash or power loss can drop the last ones — the price of not fsyncing every page).
 */
export class SqliteFrontier implements Frontier, IntakeContext {
  readonly st: Statements;
  private readonly registry: PolitenessRegistry;
  private readonly clock: Clock;
  private readonly scheduler: HostScheduler;
  private readonly crawls = new Map<number, CrawlState>();
  private readonly leases = new Map<number, LeaseRecord>();
  private readonly retries = new Heap<RetryItem>((a, b) => a.notBefore - b.notBefore);
  /** host → its entries in every open crawl (DNS and robots facts are per host, not per crawl). */
  private readonly byHost = new Map<string, Set<HostEntry>>();
  private nextToken = 1;
  /** host → IP key as last written to frontier_host by this process. */
  private readonly storedKeys = new Map<string, string>();
  /** Hosts whose key and Crawl-delay this frontier uses in the registry (useHost), until its last crawl closes. */
  private readonly usedHosts = new Set<string>();
  /** Hosts and politeness keys whose stored facts this frontier has read (loadHost). */
  private readonly loadedHosts = new Set<string>();
  private readonly loadedKeys = new Set<string>();
  private readonly onHostsWaiting: ((readyAt?: number) => void) | undefined;
  /** Stops listening to the registry's freed keys; set while a crawl is open. */
  private stopListening: (() => void) | null = null;

  /** Opens a frontier on an existing handle (the crawl DB, WAL mode); creates its tables if missing. */
  constructor(private readonly db: Database.Database, opts: SqliteFrontierOptions = {}, private readonly ownsDb = false) {
    this.st = prepareStatements(db);
    this.registry = opts.registry ?? new PolitenessRegistry();
    this.clock = opts.clock ?? realClock;
    this.scheduler = new HostScheduler(this.registry);
    this.onHostsWaiting = opts.onHostsWaiting;
  }

  /**
   * A key was freed, by this frontier's request or another's: hosts parked on it are placed again;
   * the registry learns when the first of them is due (the turn a request outside the leases leaves them).
   */
  private readonly keyFreed = (key: string): number | null => {
    const due = this.scheduler.keyFreed(key, this.clock.now());
    if (due !== null) this.onHostsWaiting?.();
    return due;
  };

  /**
   * A host's key or Crawl-delay changed, by this crawl or another one of the worker: its entries were
   * placed with the old ones (parked on an IP the host no longer has, or waiting for a longer delay
   * past their turn), so they are placed again, and the engine looks again.
   */
  private readonly hostChanged = (host: string): void => {
    if (this.replace(host)) this.onHostsWaiting?.();
  };

  /** Listens to the registry while a crawl is open; the function that stops listening. */
  private listen(): () => void {
    const stopFreed = this.registry.onKeyFreed(this.keyFreed);
    const stopHosts = this.registry.onHostChanged(this.hostChanged);
    return () => {
      stopFreed();
      stopHosts();
    };
  }

  /**
   * Reads what is stored of a host's politeness (its IP key, robots crawl-delay, the key's last
   * request) the first time this frontier meets it, not the whole tables at every crawl start:
   * frontier_host and frontier_key once kept every host any crawl ever visited (they are pruned as
   * crawls end since, worker/process/prune-politeness.ts), and 1,000,000 of them read whole took
   * 8.4 s of the worker's thread and 189 MB per running crawl.
   */
  private loadHost(host: string): void {
    if (this.loadedHosts.has(host)) return;
    this.loadedHosts.add(host);
    this.useHost(host);
    const row = this.st.host.get(host) as { ip_key: string | null; robots_delay_ms: number | null } | undefined;
    if (row?.ip_key) {
      this.registry.setHostKey(host, row.ip_key);
      this.storedKeys.set(host, row.ip_key);
    }
    if (row && row.robots_delay_ms !== null) this.registry.setRobotsDelay(host, row.robots_delay_ms);
    this.loadKey(this.registry.keyOf(host));
  }

  private loadKey(key: string): void {
    if (this.loadedKeys.has(key)) return;
    this.loadedKeys.add(key);
    const row = this.st.key.get(key) as { last_start_at: number; last_duration_ms: number } | undefined;
    if (row) this.registry.restoreTiming(key, { lastStartAt: row.last_start_at, lastDurationMs: row.last_duration_ms });
  }

  /** Tells the registry, once, that this frontier's crawls use the host's key and Crawl-delay (PolitenessRegistry.useHost). */
  private useHost(host: string): void {
    if (this.usedHosts.has(host)) return;
    this.usedHosts.add(host);
    this.registry.useHost(host);
  }

  /**
   * The last crawl closed: the registry may forget the hosts this frontier used, so what this
   * frontier read and wrote of them is read again should a crawl open here again.
   */
  private releaseHosts(): void {
    this.registry.releaseHosts(this.usedHosts);
    this.usedHosts.clear();
    this.loadedHosts.clear();
    this.loadedKeys.clear();
    this.storedKeys.clear();
  }

  /** A frontier on its own database file (the CLI); closing the frontier closes the file. */
  static open(path: string, opts: SqliteFrontierOptions = {}): SqliteFrontier {
    return new SqliteFrontier(openSqlite(path), opts, true);
  }

  openCrawl(crawlId: number, cfg: CrawlFrontierConfig): void {
    if (this.crawls.has(crawlId)) throw new Error(`crawl ${crawlId} is already open in the frontier`);
    const c = new CrawlState(crawlId, cfg, () => this.scheduler.register(), (row) => this.writeScore(row));
    const now = this.clock.now();
    const retrying = runInTransaction(this.db, () => resumeCrawl(this, c));
    for (const r of retrying) this.retries.push({ crawlId, seq: r.seq, host: r.host, notBefore: r.not_before, waitMs: ROBOTS_BACKOFF.maxMs });
    this.crawls.set(crawlId, c);
    this.stopListening ??= this.listen();
    for (const e of c.hosts.values()) {
      this.refillAhead(e);
      this.scheduler.touch(e, now);
    }
  }

  /**
   * Closes a crawl: its leases go back to the queue and its keys are freed. The registry may be the
   * worker's, shared with other crawls: even when the database refuses the writes (a full disk), no
   * key of this crawl stays held, or other crawls' hosts on it would wait for good.
   */
  closeCrawl(crawlId: number): void {
    const c = this.crawls.get(crawlId);
    if (!c) return;
    try {
      this.flushScores(c);
      for (const rec of [...this.leases.values()]) if (rec.lease.crawlId === crawlId) this.release(rec.lease);
    } finally {
      this.crawls.delete(crawlId);
      for (const [token, rec] of this.leases) if (rec.lease.crawlId === crawlId) this.leases.delete(token);
      const now = this.clock.now();
      for (const e of c.hosts.values()) {
        e.live = false;
        e.version += 1;
        const entries = this.byHost.get(e.host);
        entries?.delete(e);
        if (entries?.size === 0) this.byHost.delete(e.host);
        // Its lease was not given back (the database refused): its request may have run, so it counts as ended now.
        this.registry.finish(e, { lastStartAt: now, lastDurationMs: 0 });
      }
      if (this.crawls.size === 0) {
        this.stopListening?.();
        this.stopListening = null;
        this.releaseHosts();
      }
    }
  }

  add(crawlId: number, candidates: readonly Candidate[], opts: AddOptions = {}): AddResult {
    const c = this.crawl(crawlId);
    const now = this.clock.now();
    const touched = new Set<HostEntry>();
    const res = runInTransaction(this.db, () => insertCandidates(this, c, candidates, opts.update ?? 'FIRST', now, touched, opts.provisional));
    for (const e of touched) this.scheduler.touch(e, now);
    return res;
  }

  exclude(crawlId: number, rejected: readonly Rejected[]): number {
    const c = this.crawl(crawlId);
    const now = this.clock.now();
    return runInTransaction(this.db, () => insertRejected(this, c, rejected, now));
  }

  excludeWaitingIntake(crawlId: number, reason: ExclusionReason): number {
    const c = this.crawl(crawlId);
    const now = this.clock.now();
    return runInTransaction(this.db, () => insertWaitingIntake(this, c, reason, now));
  }

  excludeMatching(crawlId: number, pattern: string, reason: ExclusionReason): number {
    const c = this.crawl(crawlId);
    const touched = new Set<HostEntry>();
    const retrying = new Set<number>();
    const n = runInTransaction(this.db, () => excludeWaitingMatching(this, c, pattern, reason, touched, retrying));
    this.settledWaiting(crawlId, touched, retrying);
    return n;
  }

  stopExcludingMatching(crawlId: number, pattern: string): void {
    this.crawl(crawlId).stopLiveExclude(pattern);
  }

  updatePriority(crawlId: number, url: string, priority: number): boolean {
    return this.rescoreOne(crawlId, url, (s) => ({ ...s, raw: priority }));
  }

  rescore(crawlId: number, url: string, score: number, fn: UpdateFunction, breakdown?: string | null): boolean {
    return this.rescoreOne(crawlId, url, (s) => applyUpdate(s, score, fn), breakdown);
  }

  /** Excludes a queued URL with a reason (an external blacklist); false when it is not queued. */
  excludeQueued(crawlId: number, url: string, reason: string): boolean {
    const c = this.crawl(crawlId);
    const row = scoreRow(this.st.scoreOf.get(crawlId, urlHash(url)) as unknown[] | undefined);
    if (!row || row.state !== S.queued || this.st.exclude.run(reason, row.seq).changes === 0) return false;
    const e = this.entry(c, row.host);
    c.move(e, 'queued', 'excluded', reason);
    const head = e.head;
    const held = c.takeAhead(e, row.seq);
    if (held?.unwritten) this.writeScore(held);
    this.refillAhead(e);
    if (e.head !== head) this.scheduler.touch(e, this.clock.now());
    return true;
  }

  private rescoreOne(crawlId: number, url: string, update: (s: ScoreState) => ScoreState, breakdown?: string | null): boolean {
    const c = this.crawl(crawlId);
    const touched = new Set<HostEntry>();
    const ok = runInTransaction(this.db, () => rescoreQueued(this, c, rowOf(c, url), update, touched, breakdown));
    const now = this.clock.now();
    for (const e of touched) this.scheduler.touch(e, now);
    return ok;
  }

  next(now = this.clock.now()): Lease | null {
    return this.nextMany(now, 1)[0] ?? null;
  }

  nextMany(now: number, n: number): Lease[] {
    // The engine asks after every finished page; most of the time no host is due (no transaction then).
    if (!this.mayLease(now)) return [];
    return runInTransaction(this.db, () => {
      this.promoteRetries(now);
      const out: Lease[] = [];
      while (out.length < n) {
        const e = this.scheduler.pick(now);
        if (!e) break;
        out.push(...this.leaseFrom(e as HostEntry, 1, now));
      }
      return out;
    });
  }

  /** False when neither a retry nor a host is due at `now` (true does not promise a lease). */
  private mayLease(now: number): boolean {
    const retry = this.retries.peek();
    if (retry && retryDueAt(retry, now) <= now) return true;
    const wake = this.scheduler.wakeAt(now);
    return wake !== null && wake <= now;
  }

  nextBatch(now: number, bl: number): Lease[] {
    return runInTransaction(this.db, () => {
      this.promoteRetries(now);
      const e = this.scheduler.pick(now);
      return e ? this.leaseFrom(e as HostEntry, bl, now) : [];
    });
  }

  takeBatch(crawlId: number, host: string, bl: number, now = this.clock.now()): Lease[] {
    const e = this.crawl(crawlId).hosts.get(host);
    if (!e || e.queued === 0 || holdEndAt(e, now) > now) return [];
    if (e.politeness.enabled && (e.holding || !this.registry.tryAcquire(e, now, e.politeness))) return [];
    return runInTransaction(this.db, () => this.leaseFrom(e, bl, now));
  }

  /** Marks the host's top n queued URLs in flight (its key is already acquired when polite). */
  private leaseFrom(e: HostEntry, n: number, now: number): Lease[] {
    const c = this.crawl(e.crawlId);
    // A host in back-off whose wait is over gives one URL, its try (holdHost).
    const trying = e.holdUntil > 0;
    if (trying) n = 1;
    this.flushScoresIfDue(c, now);
    // The held URLs are the queue's first ones: a query only when a batch wants more, once the
    // index has the held URLs' newer scores.
    if (e.ahead.length < n) for (const row of e.ahead) if (row.unwritten) this.writeScore(row);
    const rows = e.ahead.length >= n ? e.ahead.slice(0, n) : (this.st.head.all(e.crawlId, e.host, n) as HeadRow[]);
    const out: Lease[] = [];
    for (const row of rows) {
      c.takeAhead(e, row.seq);
      const u = row.unwritten;
      if (u) row.unwritten = null;
      const leased = u
        ? this.st.leaseScored.run(row.precedence, row.score_raw, row.score_count, row.score_sum, u.breakdown, row.seq)
        : this.st.setState.run(S.inFlight, row.seq, S.queued);
      if (leased.changes === 0) continue;
      c.move(e, 'queued', 'inFlight');
      c.markQueued(row.url, SETTLED);
      const lease: Lease = {
        token: this.nextToken++, crawlId: e.crawlId, url: row.url, host: e.host, depth: row.depth, kind: row.kind,
        viaUrl: row.via_url, priority: row.precedence, attempts: row.attempts, leasedAt: now, scopeHops: row.scope_hops,
      };
      this.leases.set(lease.token, { lease, entry: e, row });
      out.push(lease);
    }
    if (e.queued === 0) c.setAhead(e, []);
    else this.refillAhead(e);
    if (trying && out.length > 0) e.holdUntil = e.holdWaitMs = Number.POSITIVE_INFINITY;
    if (e.politeness.enabled) {
      if (out.length > 0) {
        e.holding = true;
        e.outstanding += out.length;
      } else if (!e.holding) this.freeKey(e, null);
    }
    this.scheduler.touch(e, now);
    return out;
  }

  complete(lease: Lease, info: CompleteInfo): boolean {
    const now = this.clock.now();
    return this.settle(lease, 'done', null, timingOf(lease, info, now), now, (seq) => {
      this.st.finish.run(S.done, info.status, null, now, seq);
    });
  }

  fetched(lease: Lease, info: { startedAt?: number; durationMs?: number }): void {
    const rec = this.leases.get(lease.token);
    if (!rec || rec.requestOver || !rec.entry.politeness.enabled) return;
    const e = rec.entry;
    const now = this.clock.now();
    const timing = timingOf(lease, info, now);
    rec.requestOver = { key: this.registry.heldKey(e), timing };
    this.endRequest(e, timing);
    this.scheduler.touch(e, now);
    // The host's next URL is due after the delay, perhaps before its page is processed and committed
    // (a large body, a slow commit): the engine, if it sleeps past that time, looks again.
    if (e.queued > 0 && !e.holding) this.onHostsWaiting?.(this.registry.readyAt(e.host, e.politeness, now));
  }

  fail(lease: Lease, reason: FailureReason, opts: FailOptions = {}): boolean {
    const now = this.clock.now();
    const retryAt = opts.retryAt;
    const timing = opts.notRequested ? null : timingOf(lease, opts, now);
    return this.settle(lease, retryAt === undefined ? 'failed' : 'retrying', reason, timing, now, (seq) => {
      if (retryAt === undefined) this.st.finish.run(S.failed, null, reason, now, seq);
      else {
        this.st.retry.run(reason, retryAt, seq);
        this.retries.push({ crawlId: lease.crawlId, seq, host: lease.host, notBefore: retryAt, waitMs: Math.max(0, retryAt - now) });
      }
    });
  }

  release(lease: Lease): boolean {
    const now = this.clock.now();
    return this.settle(lease, 'queued', null, null, now, (seq) => {
      this.st.setState.run(S.queued, seq, S.inFlight);
    });
  }

  /** Ends a lease: one transaction for the URL state and the key's clock, then memory. */
  private settle(lease: Lease, to: Counted, reason: string | null, timing: KeyTiming | null, now: number, write: (seq: number) => void): boolean {
    const rec = this.leases.get(lease.token);
    if (!rec) return false;
    const e = rec.entry;
    const c = this.crawl(e.crawlId);
    // A request already over (fetched()) keeps the timing it ended with; its key may be held by the host's next request now.
    const over = rec.requestOver;
    const key = over ? over.key : e.politeness.enabled && timing ? this.registry.heldKey(e) : undefined;
    const keyTiming = over ? over.timing : timing;
    runInTransaction(this.db, () => {
      write(rec.row.seq);
      if (key !== undefined && keyTiming) this.st.setKey.run(key, keyTiming.lastStartAt, Math.max(0, keyTiming.lastDurationMs));
    });
    this.leases.delete(lease.token);
    c.move(e, 'inFlight', to, reason);
    if (to === 'queued' || to === 'retrying') c.markQueued(rec.row.url, rec.row.seq, rec.row.depth);
    if (to === 'queued' && c.offerHead(e, rec.row)) this.scheduler.touch(e, now);
    if (e.politeness.enabled && !over) this.endRequest(e, timing);
    this.scheduler.touch(e, now);
    return true;
  }

  /** One of the host's requests is over: its clock advances; the last one of a batch frees the key. */
  private endRequest(e: HostEntry, timing: KeyTiming | null): void {
    e.outstanding -= 1;
    if (e.outstanding === 0) {
      e.holding = false;
      this.freeKey(e, timing);
    } else if (timing) this.registry.record(e, timing);
  }

  /** The registry tells every frontier listening, this one included, that the key is free (keyFreed). */
  private freeKey(e: HostEntry, timing: KeyTiming | null): void {
    if (timing) this.registry.finish(e, timing);
    else this.registry.abandon(e);
  }

  private promoteRetries(now: number): void {
    for (let top = this.retries.peek(); top && retryDueAt(top, now) <= now; top = this.retries.peek()) {
      this.retries.pop();
      const c = this.crawls.get(top.crawlId);
      const row = c && (this.st.unretry.get(top.seq) as HeadRow | undefined);
      if (!c || !row) continue;
      const e = this.entry(c, top.host);
      c.move(e, 'retrying', 'queued');
      if (c.offerHead(e, row)) this.scheduler.touch(e, now);
    }
  }

  nextWakeAt(): number | null {
    const now = this.clock.now();
    const a = this.scheduler.wakeAt(now);
    const retry = this.retries.peek();
    const b = retry ? retryDueAt(retry, now) : null;
    if (a === null) return b;
    return b === null ? a : Math.min(a, b);
  }

  hostReadyAt(crawlId: number, host: string): number {
    return this.registry.readyAt(host, this.crawl(crawlId).cfg.politeness, this.clock.now());
  }

  hostQueued(crawlId: number, host: string): number {
    return this.crawl(crawlId).hosts.get(host)?.queued ?? 0;
  }

  /** The host's robots.txt crawl-delay in ms as the worker knows it (null: none). */
  robotsDelayMs(host: string): number | null {
    return this.registry.robotsDelayMs(host);
  }

  holdKey(holder: KeyHolder): boolean {
    return this.registry.hold(holder);
  }

  releaseKey(holder: KeyHolder, timing: KeyTiming | null): void {
    if (!timing) {
      this.registry.abandon(holder);
      return;
    }
    const key = this.registry.finish(holder, timing);
    // Stored as a lease's clock is, so a restarted worker waits the delay after it too.
    if (key !== undefined) this.st.setKey.run(key, timing.lastStartAt, Math.max(0, timing.lastDurationMs));
  }

  waitKeyTurn(holder: KeyHolder): KeyTurnLine {
    return this.registry.waitTurn(holder);
  }

  holdsKey(holder: KeyHolder): boolean {
    return this.registry.heldKey(holder) !== undefined;
  }

  keyOwedToLeases(host: string): boolean {
    const due = this.registry.leaseDueAt(this.registry.keyOf(host));
    return due !== undefined && this.clock.now() < due + LEASE_TURN_GRACE_MS;
  }

  hostBusy(host: string): boolean {
    return this.registry.isBusy(this.registry.keyOf(host));
  }

  hostKey(host: string): string {
    return this.registry.keyOf(host);
  }

  waitForKey(holdingHost: string, key: string): (() => void) | null {
    return this.registry.waitForKey(holdingHost, key);
  }

  setHostKey(host: string, key: string): boolean {
    // The DNS stage calls this for every URL: when nothing changed there is nothing to write.
    if (this.storedKeys.get(host) === key) return this.registry.setHostKey(host, key);
    // Another host on this IP may have been fetched in an earlier run: its clock counts.
    this.loadKey(key);
    this.useHost(host);
    // A held lease moving onto the IP's clock must also wait for that clock's delay.
    const cfg = this.byHost.get(host)?.values().next().value?.politeness;
    const ok = this.registry.setHostKey(host, key, cfg ? { now: this.clock.now(), cfg } : undefined);
    this.st.setHostKey.run(host, key);
    this.storedKeys.set(host, key);
    return ok;
  }

  /** The registry tells every frontier listening, this one included, that the delay changed (hostChanged). */
  setRobotsDelay(host: string, ms: number | null): void {
    this.useHost(host);
    this.st.setRobots.run(host, ms);
    this.registry.setRobotsDelay(host, ms);
  }

  /**
   * Re-places a host's entries after its key or delay changed (a hold moved off its old key frees it
   * through the registry); false when this frontier has none.
   */
  private replace(host: string): boolean {
    const entries = this.byHost.get(host);
    if (!entries?.size) return false;
    const now = this.clock.now();
    for (const e of entries) this.scheduler.touch(e, now);
    return true;
  }

  counters(crawlId: number): FrontierCounters {
    return this.crawl(crawlId).counters();
  }

  stateCounts(crawlId: number): Readonly<StateCounts> {
    return this.crawl(crawlId).totals;
  }

  notRequestedFailures(crawlId: number): number {
    const { failedByReason } = this.crawl(crawlId);
    return NOT_REQUESTED_FAILURES.reduce((sum, reason) => sum + (failedByReason.get(reason) ?? 0), 0);
  }

  holdHost(crawlId: number, host: string, until: number | null, waitMs?: number): void {
    const e = this.crawl(crawlId).hosts.get(host);
    if (!e) return;
    const now = this.clock.now();
    e.holdUntil = until ?? 0;
    e.holdWaitMs = until === null ? 0 : waitMs ?? Math.max(0, until - now);
    this.scheduler.touch(e, now);
  }

  requeueFailed(crawlId: number, url: string): { reason: string | null } | null {
    const c = this.crawl(crawlId);
    const hash = urlHash(url);
    const row = runInTransaction(this.db, () => {
      const reason = this.st.failedReason.get(crawlId, hash) as string | null | undefined;
      const head = reason === undefined ? undefined : (this.st.requeueFailed.get(crawlId, hash) as (HeadRow & { host: string }) | undefined);
      return head && { reason: reason ?? null, head };
    });
    if (!row) return null;
    const { host, ...head } = row.head;
    const e = this.entry(c, host);
    c.count(e, 'failed', -1, row.reason);
    c.count(e, 'queued', 1);
    c.markQueued(url, head.seq, head.depth);
    c.offerHead(e, head);
    this.scheduler.touch(e, this.clock.now());
    return { reason: row.reason };
  }

  failHostWaiting(crawlId: number, host: string, reason: FailureReason): number {
    const c = this.crawl(crawlId);
    const now = this.clock.now();
    const touched = new Set<HostEntry>();
    const retrying = new Set<number>();
    const n = runInTransaction(this.db, () => failHostWaiting(this, c, host, reason, now, touched, retrying));
    this.settledWaiting(crawlId, touched, retrying);
    return n;
  }

  /** After waiting URLs were settled at once: their hosts are placed again, and their retries dropped. */
  private settledWaiting(crawlId: number, touched: ReadonlySet<HostEntry>, retrying: ReadonlySet<number>): void {
    // Their retries would still wake the engine, and keep a crawl with nothing else to do waiting for them.
    if (retrying.size) this.retries.init(this.retries.toArray().filter((r) => r.crawlId !== crawlId || !retrying.has(r.seq)));
    const now = this.clock.now();
    for (const e of touched) this.scheduler.touch(e, now);
  }

  hostCounters(crawlId: number): HostCounters[] {
    return this.crawl(crawlId).hostCounters();
  }

  /**
   * True when this process already added or excluded `url` in the crawl (an in-memory set, capped:
   * false means "maybe new", never "certainly new").
   */
  knows(crawlId: number, url: string): boolean {
    return this.crawl(crawlId).knownUrls.has(url);
  }

  /**
   * True when this process excluded `url` for a refusal a later discovery may overturn
   * (url/scope.ts RETAKABLE_REFUSALS): a link the scope takes now queues it (add).
   */
  refused(crawlId: number, url: string): boolean {
    const known = this.crawl(crawlId).knownUrls.get(url);
    return known === REFUSED || known === REFUSED_TOO_DEEP;
  }

  /**
   * True when this process excluded `url` as past the depth limit while the scope would take it
   * from a page nearer the seeds (Rejected.withinScopeShallower): a link within the limit queues it.
   */
  refusedTooDeep(crawlId: number, url: string): boolean {
    return this.crawl(crawlId).knownUrls.get(url) === REFUSED_TOO_DEEP;
  }

  /**
   * True when `url` waits in the queue at a depth greater than `depth` (a link from a page nearer
   * the seeds than the one that queued it), as far as this process knows: an in-memory lookup,
   * kept only when the crawl has a depth limit. Such a link shortens its way (add).
   */
  queuedDeeper(crawlId: number, url: string, depth: number): boolean {
    return this.crawl(crawlId).queuedDeeper(url, depth);
  }

  /**
   * True when `url` is a page fetched at a depth greater than `depth` some of whose links were
   * refused as too deep, as far as this process knows (an in-memory lookup): a link at `depth`
   * finds it nearer the seeds, and its cut links may be taken from there (add, cutLinksFoundNearer).
   */
  linksCutDeeper(crawlId: number, url: string, depth: number): boolean {
    return this.crawl(crawlId).linksCutDeeper(url, depth);
  }

  /**
   * True when this process stored `url` as a page requisite or a redirect (crawl-state.ts
   * EMBED_KINDS) and no link of another kind found it since (an in-memory lookup): a navigation
   * link to it makes it a page (add), wherever it stands.
   */
  storedAsEmbed(crawlId: number, url: string): boolean {
    return this.crawl(crawlId).storedAsEmbed(url);
  }

  /**
   * True when this process knows `url` has left the queue (in flight, fetched, failed or
   * excluded): a new score for it would change nothing. False for URLs still waiting, or unknown.
   */
  settled(crawlId: number, url: string): boolean {
    return isSettled(this.crawl(crawlId).knownUrls.get(url));
  }

  lookup(crawlId: number, url: string): UrlRecord | null {
    const r = this.st.lookup.get(crawlId, urlHash(url)) as StoredUrl | undefined;
    if (!r) return null;
    const rec = toUrlRecord(r);
    // A held row's newer score, not written yet.
    const c = this.crawls.get(crawlId);
    const seq = c?.knownUrls.get(url);
    const held = c && seq !== undefined && seq > 0 ? c.heldRow(seq)?.row : undefined;
    if (held?.unwritten) {
      Object.assign(rec, { precedence: held.precedence, rawScore: held.score_raw, scoreCount: held.score_count });
      if (held.unwritten.breakdown !== null) rec.breakdown = held.unwritten.breakdown;
    }
    return rec;
  }

  close(): void {
    for (const id of [...this.crawls.keys()]) this.closeCrawl(id);
    if (this.ownsDb) this.db.close();
  }

  private crawl(crawlId: number): CrawlState {
    const c = this.crawls.get(crawlId);
    if (!c) throw new Error(`crawl ${crawlId} is not open in the frontier`);
    return c;
  }

  /** The host's entry in a crawl, indexed by host name too. */
  entry(c: CrawlState, host: string): HostEntry {
    const known = c.hosts.has(host);
    if (!known) this.loadHost(host);
    const e = c.host(host);
    if (!known) {
      let set = this.byHost.get(host);
      if (!set) this.byHost.set(host, (set = new Set()));
      set.add(e);
    }
    return e;
  }

  /**
   * Reads the host's first queued URLs from the queue index when it holds none while some are
   * queued (a query per several leases, not per lease).
   */
  refillAhead(e: HostEntry): void {
    if (e.ahead.length > 0 || e.queued === 0) return;
    const c = this.crawl(e.crawlId);
    c.setAhead(e, this.st.head.all(e.crawlId, e.host, c.aheadWanted(e)) as HeadRow[]);
  }

  writeScore(row: HeadRow): void {
    this.st.setScore.run(row.precedence, row.score_raw, row.score_count, row.score_sum, row.unwritten?.breakdown ?? null, row.seq);
    row.unwritten = null;
  }

  /** Writes every held score newer than the table's (pause, stop, and every SCORE_FLUSH_MS). */
  private flushScores(c: CrawlState): void {
    runInTransaction(this.db, () => {
      for (const row of c.unwrittenRows()) this.writeScore(row);
    });
    c.scoresWrittenAt = this.clock.now();
  }

  private flushScoresIfDue(c: CrawlState, now: number): void {
    if (c.scoresWrittenAt === null) c.scoresWrittenAt = now;
    else if (now - c.scoresWrittenAt >= SCORE_FLUSH_MS) this.flushScores(c);
  }
}

function timingOf(lease: Lease, info: { startedAt?: number; durationMs?: number }, now: number): KeyTiming {
  const start = info.startedAt ?? lease.leasedAt;
  return { lastStartAt: start, lastDurationMs: info.durationMs ?? Math.max(0, now - start) };
}
