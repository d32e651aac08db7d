import type { CrawlFrontierConfig, FrontierCounters, HostCounters, StateCounts } from './frontier';
import type { HeadRow } from './frontier-sql';
import type { SchedHost } from './host-scheduler';

/** Counted states (exclusions and failures are also counted by reason). */
export type Counted = keyof StateCounts;

type Counts = StateCounts;
const zero = (): Counts => ({ queued: 0, inFlight: 0, retrying: 0, done: 0, failed: 0, excluded: 0 });

/** One host of one crawl, in memory: its scheduling view, its queue head and its counters. */
export interface HostEntry extends SchedHost {
  readonly crawlId: number;
  /** Best queued URL (null when the queue is empty). */
  head: HeadRow | null;
  /** URLs ever admitted (not excluded): the per-host budget counts these. */
  admitted: number;
  /** Leases of the current batch still out while the host holds its key. */
  outstanding: number;
  counts: Counts;
}

/** knownUrls values besides a row's seq (seqs start at 1). */
export const SETTLED = 0;
export const WAITING_ROW_UNKNOWN = -1;

/**
 * The in-memory side of one open crawl: budgets and counters. Loaded from
 * SQLite on open and kept in step with every write, so the cockpit's counters cost nothing.
 */
export class CrawlState {
  readonly hosts = new Map<string, HostEntry>();
  readonly totals = zero();
  readonly failedByReason = new Map<string, number>();
  readonly excludedByReason = new Map<string, number>();
  admitted = 0;
  /**
   * URLs this process already put in the table (or found there), so the common case — a link
   * found again — costs a map lookup instead of an INSERT OR IGNORE. The value says where the URL
   * stands: its row (seq) while it waits in the queue, so a new score goes straight to that row;
   * SETTLED once leased or excluded, so finding it again costs no query at all; WAITING_ROW_UNKNOWN
   * when it may wait but its row was not read (found already in the table). Bounded: past the cap
   * the table alone answers, which is slower but still right.
   */
  readonly knownUrls = new Map<string, number>();

  /** Notes where a known URL stands (unknown URLs stay unknown): its row while queued, or SETTLED. */
  markQueued(url: string, seqOrSettled: number): void {
    if (this.knownUrls.has(url)) this.knownUrls.set(url, seqOrSettled);
  }

  constructor(
    readonly crawlId: number,
    readonly cfg: CrawlFrontierConfig,
    private readonly onNewHost: () => void,
  ) {}

  /** The host's entry, created on first use. */
  host(host: string): HostEntry {
    let e = this.hosts.get(host);
    if (!e) {
      e = {
        crawlId: this.crawlId, host, politeness: this.cfg.politeness, queued: 0, headPrecedence: 0, headSeq: 0,
        holding: false, version: 0, live: true, head: null, admitted: 0, outstanding: 0, counts: zero(),
      };
      this.hosts.set(host, e);
      this.onNewHost();
    }
    return e;
  }

  /** Counts `n` URLs of a host into a state (negative n: out of it). */
  count(e: HostEntry, state: Counted, n: number, reason?: string | null): void {
    e.counts[state] += n;
    this.totals[state] += n;
    if (state === 'queued') e.queued = e.counts.queued;
    if (reason && (state === 'failed' || state === 'excluded')) {
      const map = state === 'failed' ? this.failedByReason : this.excludedByReason;
      map.set(reason, (map.get(reason) ?? 0) + n);
    }
  }

  /** Moves one URL from a state to another. */
  move(e: HostEntry, from: Counted, to: Counted, reason?: string | null): void {
    this.count(e, from, -1);
    this.count(e, to, 1, reason);
  }

  /** Makes a newly queued `row` the host's head if it comes before the current head. */
  offerHead(e: HostEntry, row: HeadRow): boolean {
    if (e.head && !comesBefore(row, e.head)) return false;
    this.setHead(e, row);
    return true;
  }

  setHead(e: HostEntry, head: HeadRow | null): void {
    e.head = head;
    e.headPrecedence = head?.precedence ?? 0;
    e.headSeq = head?.seq ?? 0;
  }

  counters(): FrontierCounters {
    return {
      ...this.totals,
      failedByReason: Object.fromEntries(this.failedByReason),
      excludedByReason: Object.fromEntries(this.excludedByReason),
      hosts: this.hosts.size,
    };
  }

  hostCounters(): HostCounters[] {
    return [...this.hosts.values()].map((e) => ({ host: e.host, ...e.counts }));
  }
}

/** Queue order: higher precedence first, then earlier discovery. */
export function comesBefore(a: { precedence: number; seq: number }, b: { precedence: number; seq: number }): boolean {
  return a.precedence > b.precedence || (a.precedence === b.precedence && a.seq < b.seq);
}
