import type Database from 'better-sqlite3';
import { runInTransaction, tableExists } from '../store/sqlite';
import type { HostAnswer } from '../coherence';
import type { Lease } from '../frontier';
import type { Icd } from '../icd/schema';
import { afterUrlEnded, heldBack, holdUntil, isTry, waitEndAsOf, HOST_UNREACHABLE, MAX_HOST_BACKOFF_MS, type HostOutage, type HostOutageLimits, type OutageEvent } from '../politeness';
import type { CrawlContext } from './crawl-context';
import type { CrawlItem } from './stage';

/**
 * The crawl's back-off of hosts that stop answering (politeness/host-outage.ts), wired to the
 * engine: the frontier holds a host's URLs, the crawl log says what happened in one entry a change
 * (not one a URL), and engine_host_backoff lists the hosts in back-off for the host-queues report
 * (frontier/host-queues.ts). The state lives in memory for the run: a paused, resumed or restarted
 * crawl starts with every host healthy (its rows are cleared at the start and end of a run).
 */

/** The crawl-log outcome of a host's back-off entries: about a host, not a URL's fetch (no counter nor host counts it). */
export const HOST_OUTAGE_OUTCOME = 'host-backoff';

export const HOST_OUTAGE_DDL = `
CREATE TABLE IF NOT EXISTS engine_host_backoff (
  crawl_id INTEGER NOT NULL,
  host TEXT NOT NULL,
  since INTEGER NOT NULL,
  next_try_at INTEGER NOT NULL,
  tries INTEGER NOT NULL,
  reason TEXT NOT NULL,
  PRIMARY KEY (crawl_id, host)
) WITHOUT ROWID;
`;

/** Made when the back-off first puts a URL back, not at every crawl's start (a table costs room in the database). */
const TAKEBACK_DDL = `
CREATE TABLE IF NOT EXISTS engine_failure_takeback (
  crawl_id INTEGER NOT NULL,
  reason TEXT NOT NULL,
  n INTEGER NOT NULL,
  PRIMARY KEY (crawl_id, reason)
) WITHOUT ROWID;
`;

/**
 * The failures the crawl log holds that no longer count (their URLs were queued again after their
 * host's back-off), by reason: a resumed crawl counts its failures from the crawl log
 * (CrawlContext.restoreStats) and takes these off. Empty when the back-off never put a URL back.
 */
export function failuresTakenBack(db: Database.Database, crawlId: number): { reason: string; n: number }[] {
  if (!tableExists(db, 'engine_failure_takeback')) return [];
  return db.prepare('SELECT reason, n FROM engine_failure_takeback WHERE crawl_id = ?').all(crawlId) as { reason: string; n: number }[];
}

/** The ICD's back-off settings. */
export function hostOutageLimits(icd: Pick<Icd, 'limits'>): HostOutageLimits {
  return { failuresBeforeBackoff: icd.limits.hostFailuresBeforeBackoff, backoffMs: icd.limits.hostBackoffMs, giveUpMs: icd.limits.hostGiveUpMs };
}

/**
 * What a processed URL tells of its host: any HTTP answer (an exchange, kept or failed: 5xx, 429,
 * a cut body), or a failure that needs one (TLS, broken HTTP, redirects), is an answer; no answer
 * at all is the fetch's `noAnswer` (fetch/no-answer.ts gotNoAnswer). Null when it tells nothing:
 * not requested (robots.txt, given back, a host given up, an address the crawl may not reach), a
 * name that did not resolve (its URLs fail at once, not backed off), or failed inside the crawler.
 */
export function hostAnswerOf(item: Pick<CrawlItem, 'exchange' | 'failure' | 'noAnswer' | 'notRequested' | 'released' | 'retryAt' | 'excludedReason'>): HostAnswer | null {
  if (item.released || item.notRequested || item.retryAt !== undefined || item.excludedReason) return null;
  if (item.exchange) return { answered: true };
  if (!item.failure || item.failure.reason === 'internal' || item.failure.reason === HOST_UNREACHABLE || item.failure.reason === 'dns' || item.failure.reason === 'private-address') return null;
  return item.noAnswer ? { answered: false, reason: item.failure.reason } : { answered: true };
}

/** What the engine does with a lease before its pipeline. */
export type LeaseVerdict = 'fetch' | 'held-back' | 'given-up';

/** A URL that got no answer, as the frontier leased it. */
interface Unanswered {
  url: string;
  attempts: number;
}

export class HostOutages {
  private readonly hosts = new Map<string, HostOutage>();
  /** The URLs of a failing host's streak without an answer (at most the threshold a host), queued again if it goes into back-off. */
  private readonly streaks = new Map<string, Unanswered[]>();
  /** The URLs put back once whose try got no answer again, per host in back-off: queued again if it answers. */
  private readonly triesFailed = new Map<string, string[]>();
  private readonly limits: HostOutageLimits;

  constructor(
    private readonly ctx: Pick<CrawlContext, 'db' | 'crawlId' | 'store' | 'frontier' | 'stats' | 'commits' | 'icd'>,
    private readonly now: () => number = () => Date.now(),
    /** The monotonic clock, which a step of the wall clock leaves: a back-off's length is read on it. */
    private readonly monotonic: () => number = () => performance.now(),
  ) {
    this.limits = hostOutageLimits(ctx.icd);
    ctx.db.exec(HOST_OUTAGE_DDL);
    this.clear();
  }

  /**
   * A lease of a host in back-off leased before it began (a host batch's later URLs) goes back to
   * the queue; one of a host given up fails without a request.
   */
  verdict(lease: Lease): LeaseVerdict {
    const o = this.hosts.get(lease.host);
    if (o === undefined) return 'fetch';
    if (o.phase === 'given-up') return 'given-up';
    return heldBack(o, lease.leasedAt) ? 'held-back' : 'fetch';
  }

  /** The failure of a URL of a host given up, not requested. */
  givenUpFailure(host: string): { reason: typeof HOST_UNREACHABLE; message: string } {
    return { reason: HOST_UNREACHABLE, message: `not requested: ${host} gave no answer through its back-off and was given up` };
  }

  /**
   * A leased URL ended (committed). Costs a map lookup for a healthy host's answer; the frontier
   * and the crawl log hear only of changes, and of the end of a try that said nothing (given back),
   * which the host's hold must let be made again. The URLs that got no answer from a host in
   * back-off (its streak's, its tries, those in flight when it began) go back to the queue, once
   * each (their failed fetch stays in the crawl log): they are fetched when it answers again, or
   * given up with the others.
   */
  ended(item: CrawlItem, lease: Lease): Promise<void> | void {
    const { host } = lease;
    const before = this.hosts.get(host);
    const answer = hostAnswerOf(item);
    if (answer === null) {
      if (isTry(before, lease.leasedAt)) this.hold(host, before);
      return;
    }
    if (before === undefined && answer.answered) return;
    const now = this.now();
    const { outage, event } = afterUrlEnded(before, answer, lease.leasedAt, now, this.limits, this.monotonic());
    if (outage) this.hosts.set(host, outage);
    else this.hosts.delete(host);
    const putBack = this.unansweredToQueue(host, answer.answered ? null : { url: item.url, attempts: lease.attempts }, outage);
    if (event) this.hold(host, outage);
    if (!event && !putBack.length) return;
    return this.ctx.commits.run(() => {
      this.requeue(putBack);
      if (event) this.record(host, item.url, event, outage, now, putBack.length);
    });
  }

  /** The frontier holds the host's URLs until its next try, with the wait that set it (a clock set back since: waitEndAsOf). */
  private hold(host: string, o: HostOutage | undefined): void {
    this.ctx.frontier.holdHost(this.ctx.crawlId, host, holdUntil(o), o?.phase === 'backoff' ? o.waitMs : undefined);
  }

  /**
   * Keeps the failing host's streak, and says which URLs without an answer go back to the queue:
   * the streak's when the host goes into back-off, then each one that ends so during it. A URL put
   * back once that gets no answer again stays failed while the host gives none (a page that never
   * answers must not be every try of a host that does), and is queued again once it answers.
   */
  private unansweredToQueue(host: string, unanswered: Unanswered | null, outage: HostOutage | undefined): string[] {
    const first = unanswered && unanswered.attempts === 0 ? [unanswered] : [];
    if (outage?.phase === 'failing') {
      this.streaks.set(host, [...(this.streaks.get(host) ?? []), ...first]);
      return [];
    }
    const streak = this.streaks.get(host) ?? [];
    this.streaks.delete(host);
    if (outage?.phase === 'backoff') {
      // The tries take the URLs put back first: each failed try kept one failed, and a long outage
      // lost as many pages as tries failed. They wait here, failed, until the host answers again.
      if (unanswered && unanswered.attempts > 0) this.triesFailed.set(host, [...(this.triesFailed.get(host) ?? []), unanswered.url]);
      return [...streak, ...first].map((u) => u.url);
    }
    const tries = this.triesFailed.get(host) ?? [];
    this.triesFailed.delete(host);
    // Answered again: the URLs its failed tries kept go back to the queue; given up, they stay failed.
    return outage === undefined ? tries : [];
  }

  /**
   * Puts failed URLs back in the queue (in the caller's transaction). Queued again, each is no
   * failure (yet): the counters take it back, now and, through engine_failure_takeback, when a
   * resumed crawl counts its failures from the crawl log, where its failed fetch stays.
   */
  private requeue(urls: readonly string[]): void {
    if (!urls.length) return;
    this.ctx.db.exec(TAKEBACK_DDL);
    const takeBack = this.ctx.db.prepare(
      'INSERT INTO engine_failure_takeback (crawl_id, reason, n) VALUES (?, ?, 1) ON CONFLICT (crawl_id, reason) DO UPDATE SET n = n + 1',
    );
    for (const url of urls) {
      const was = this.ctx.frontier.requeueFailed(this.ctx.crawlId, url);
      if (!was?.reason) continue;
      this.ctx.stats.recordFailures(was.reason, -1);
      takeBack.run(this.ctx.crawlId, was.reason);
    }
  }

  /** Hosts in back-off and the earliest next try, for the crawl's counters (the CLI's progress, the cockpit). */
  waiting(): { hosts: number; nextTryAt: number | null } {
    let hosts = 0;
    let nextTryAt: number | null = null;
    const now = this.now();
    for (const o of this.hosts.values()) {
      if (o.phase !== 'backoff') continue;
      hosts++;
      const at = waitEndAsOf(o.nextTryAt, o.waitMs, now);
      nextTryAt = nextTryAt === null ? at : Math.min(nextTryAt, at);
    }
    return { hosts, nextTryAt };
  }

  /** The run ends: no host stays listed in back-off. */
  clear(): void {
    this.ctx.db.prepare('DELETE FROM engine_host_backoff WHERE crawl_id = ?').run(this.ctx.crawlId);
  }

  /**
   * The run ends (paused, stopped, finished): the next one starts with every host healthy, so the
   * URLs its hosts' failed tries kept failed go back to the queue now (in memory only, they were
   * lost to a pause), and no host stays in back-off, listed or in the crawl's last counters.
   */
  endRun(): void {
    const tries = [...this.triesFailed.values()].flat();
    if (tries.length) {
      runInTransaction(this.ctx.db, () => this.requeue(tries));
    }
    this.triesFailed.clear();
    this.streaks.clear();
    this.hosts.clear();
    this.clear();
  }

  /** The change's crawl-log entry and listing; a host given up has its waiting URLs failed. In one transaction (a group commit's job). */
  private record(host: string, url: string, event: OutageEvent, outage: HostOutage | undefined, now: number, putBack: number): void {
    const { db, crawlId, store, frontier, stats } = this.ctx;
    let message: string;
    if (event.kind === 'given-up') {
      const n = frontier.failHostWaiting(crawlId, host, HOST_UNREACHABLE);
      stats.recordFailures(HOST_UNREACHABLE, n);
      message = givenUpMessage(host, event, n);
    } else message = outageMessage(host, event, this.limits, putBack);
    store.addLog({ url, status: null, outcome: HOST_OUTAGE_OUTCOME, message, size: 0, durationMs: 0, retries: 0, at: new Date(now) });
    listBackoff(db, crawlId, host, outage?.phase === 'backoff' ? outage : null);
  }
}

function listBackoff(db: Database.Database, crawlId: number, host: string, o: Extract<HostOutage, { phase: 'backoff' }> | null): void {
  if (o === null) db.prepare('DELETE FROM engine_host_backoff WHERE crawl_id = ? AND host = ?').run(crawlId, host);
  else {
    db.prepare(
      `INSERT INTO engine_host_backoff (crawl_id, host, since, next_try_at, tries, reason) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (crawl_id, host) DO UPDATE SET since = excluded.since, next_try_at = excluded.next_try_at, tries = excluded.tries, reason = excluded.reason`,
    ).run(crawlId, host, o.since, o.nextTryAt, o.tries, o.reason);
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

/** A duration in words: "850 ms", "42 s", "5 min", "2 h 5 min". */
export function durationWords(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  if (ms < 60_000) return `${Math.round(ms / 1000)} s`;
  const minutes = Math.round(ms / 60_000);
  return minutes < 60 ? `${minutes} min` : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

/** The crawl-log message of a host going into back-off, failing a try, or answering again. */
function outageMessage(host: string, e: Exclude<OutageEvent, { kind: 'given-up' }>, limits: HostOutageLimits, putBack: number): string {
  const giveUp = limits.giveUpMs > 0 ? `; its waiting URLs are given up after ${durationWords(limits.giveUpMs)} without an answer` : '';
  const queued = putBack === 0 ? '' : putBack === 1 ? ' (the URL is queued again)' : ` (the ${putBack} URLs are queued again)`;
  switch (e.kind) {
    case 'backoff':
      return `no answer from ${host} to ${e.failures} URLs in a row (${e.reason})${queued}: none of its URLs is requested until ${iso(e.nextTryAt)}, when one is tried `
        + `(the wait doubles at each try without an answer, up to ${durationWords(MAX_HOST_BACKOFF_MS)}, and ends at its first answer${giveUp})`;
    case 'try-failed':
      return `still no answer from ${host} (${e.reason}) at try ${e.tries}${queued}: next try at ${iso(e.nextTryAt)}`;
    case 'answered':
      return `${host} answered again after ${durationWords(e.downMs)} without an answer${e.tries ? ` (${e.tries} ${e.tries === 1 ? 'try' : 'tries'} failed)` : ''}; its URLs are crawled as usual again${queued}`;
  }
}

function givenUpMessage(host: string, e: Extract<OutageEvent, { kind: 'given-up' }>, n: number): string {
  return `no answer from ${host} for ${durationWords(e.downMs)} (${e.reason}, ${e.tries} ${e.tries === 1 ? 'try' : 'tries'}): given up, its ${n} waiting URL${n === 1 ? '' : 's'} failed as ${HOST_UNREACHABLE}; `
    + `they stay in the crawl's frontier with that reason (counted in its failures by reason), and its URLs found from now on fail so without a request`;
}
