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
  /** Best queued URL (null when the queue is empty): ahead[0]. */
  readonly head: HeadRow | null;
  /**
   * The host's first queued URLs in queue order, read from the queue index several at a time so
   * that most leases need no query: a prefix of the queue (every queued URL not in it comes after
   * its last one), empty only when nothing is queued.
   */
  ahead: HeadRow[];
  /** URLs ever admitted (not excluded): the per-host budget counts these. */
  admitted: number;
  /** Leases of the current batch still out while the host holds its key. */
  outstanding: number;
  counts: Counts;
}

/** How many queued URLs of a host are read at once; a host holds at most twice as many. */
export const AHEAD_ROWS = 16;
/** Past this many rows held across the crawl's hosts, hosts hold their head alone (memory stays bounded with many hosts). */
export const MAX_AHEAD_ROWS = 20_000;

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
  /** Rows held in the hosts' `ahead` lists. */
  private aheadRows = 0;
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
        holding: false, version: 0, live: true, ahead: [], admitted: 0, outstanding: 0, counts: zero(),
        get head() {
          return this.ahead[0] ?? null;
        },
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

  /**
   * Places a newly queued (or rescored) `row` among the host's first URLs when it comes before the
   * last of them; returns true when it is the host's new head.
   */
  offerHead(e: HostEntry, row: HeadRow): boolean {
    const a = e.ahead;
    let i = a.length;
    while (i > 0 && comesBefore(row, a[i - 1]!)) i -= 1;
    if (i === a.length && a.length > 0) return false; // after the last one: the queue index has it
    // Past the crawl's cap a host keeps only the URLs before this one (the index has the rest),
    // and this one only if it leads.
    if (i > 0 && this.aheadRows >= MAX_AHEAD_ROWS) {
      this.truncateAhead(e, i);
      return false;
    }
    a.splice(i, 0, row);
    this.aheadRows += 1;
    this.truncateAhead(e, this.aheadRows > MAX_AHEAD_ROWS ? 1 : 2 * AHEAD_ROWS);
    if (i === 0) this.syncHead(e);
    return i === 0;
  }

  /** Keeps the host's first `n` held URLs (n ≥ 1, so the head stays). */
  private truncateAhead(e: HostEntry, n: number): void {
    if (e.ahead.length <= n) return;
    this.aheadRows -= e.ahead.length - n;
    e.ahead.length = n;
  }

  /** Takes a row out of the host's first URLs (leased, excluded or rescored); undefined when not among them. */
  takeAhead(e: HostEntry, seq: number): HeadRow | undefined {
    const i = e.ahead.findIndex((r) => r.seq === seq);
    if (i < 0) return undefined;
    const [row] = e.ahead.splice(i, 1);
    this.aheadRows -= 1;
    if (i === 0) this.syncHead(e);
    return row;
  }

  /** Replaces the host's first URLs with rows read from the queue index, in its order. */
  setAhead(e: HostEntry, rows: HeadRow[]): void {
    this.aheadRows += rows.length - e.ahead.length;
    e.ahead = rows;
    this.syncHead(e);
  }

  /** How many rows a host should read when it needs its first URLs again. */
  aheadWanted(): number {
    return this.aheadRows < MAX_AHEAD_ROWS ? AHEAD_ROWS : 1;
  }

  /** The scheduler orders hosts by their head's precedence and seq, kept as plain fields. */
  private syncHead(e: HostEntry): void {
    const head = e.head;
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
