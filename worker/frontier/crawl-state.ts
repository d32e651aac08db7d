import type { CrawlFrontierConfig, FrontierCounters, HostCounters, StateCounts } from './frontier';
import type { HeadRow } from './frontier-sql';
import type { SchedHost } from './host-scheduler';
import { REQUISITE_KINDS } from '../url';
import { SeenUrlMap } from './url-hash';

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
/** A rescoring crawl's host holds its whole queue while it has at most this many URLs. */
export const MAX_WHOLE_QUEUE_ROWS = 10_000;
/** Past this many rows held across the crawl's hosts, hosts hold their head alone (memory stays bounded with many hosts). */
export const MAX_AHEAD_ROWS = 20_000;

/**
 * The kinds of link that do not make a URL a page: a page requisite (a frame, an iframe, an image)
 * and a redirect, which is what its chain began at. A URL any other kind of link found (a
 * navigation link, a seed, a sitemap's URL) is a page, whatever found it first: its row takes that
 * kind (linkedAsPage), so a WACZ lists it among the pages (export-job.ts reachedAsRequisite).
 */
export const EMBED_KINDS: ReadonlySet<string> = new Set([...REQUISITE_KINDS, 'redirect']);

/** knownUrls values besides a row's seq (seqs start at 1). */
export const SETTLED = 0;
export const WAITING_ROW_UNKNOWN = -1;
/**
 * Excluded for a reason a later discovery may overturn (url/scope.ts RETAKABLE_REFUSALS): settled
 * for the links that found it so far, taken again by one the scope accepts (insertCandidates).
 */
export const REFUSED = -2;
/**
 * Excluded as past the depth limit while otherwise in the scope (Rejected.withinScopeShallower):
 * as REFUSED, and a plain link from a page near enough to the seeds takes it too.
 */
export const REFUSED_TOO_DEEP = -3;
/**
 * knownUrls values at and below this one: a page fetched (leased) at depth LINKS_CUT_AT_DEPTH_0 -
 * value, some of whose links were refused as too deep (Rejected.withinScopeShallower). Settled like
 * SETTLED, but a link to it from nearer the seeds than that depth is told apart by a map lookup
 * (linksCutDeeper), so only such a link costs a query (insertCandidates), not every link to a
 * fetched page; the depth rides in the value, so the marker costs no memory of its own.
 */
export const LINKS_CUT_AT_DEPTH_0 = -10;

/** The knownUrls value of a page fetched at `depth` whose links the depth limit cut. */
export function linksCutAt(depth: number): number {
  return LINKS_CUT_AT_DEPTH_0 - depth;
}

/** The depth a page whose links the depth limit cut stands at, from its knownUrls value; undefined for any other value. */
export function cutDepthOf(known: number | undefined): number | undefined {
  return known !== undefined && known <= LINKS_CUT_AT_DEPTH_0 ? LINKS_CUT_AT_DEPTH_0 - known : undefined;
}

/** Whether a knownUrls value says the URL has left the queue for good (leased, fetched or excluded for good). */
export function isSettled(known: number | undefined): boolean {
  return known === SETTLED || cutDepthOf(known) !== undefined;
}

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
  /** When held scores newer than the table's were last all written (null: not yet timed). */
  scoresWrittenAt: number | null = null;
  /** Rescoring crawls only: every held row by seq, so a rescore finds it without a query. */
  private readonly held = new Map<number, { e: HostEntry; row: HeadRow }>();
  /**
   * URLs this process already put in the table (or found there), so the common case — a link
   * found again — costs a map lookup instead of an INSERT OR IGNORE. The value says where the URL
   * stands: its row (seq) while it waits in the queue, so a new score goes straight to that row;
   * SETTLED once leased or excluded, so finding it again costs no query at all; REFUSED when
   * excluded by a refusal another discovery may overturn (REFUSED_TOO_DEEP when a shallower link
   * may); a LINKS_CUT_AT_DEPTH_0 marker when fetched with links the depth limit cut;
   * WAITING_ROW_UNKNOWN when it may wait but its row was not read (found already in the table). Bounded: past the cap
   * the table alone answers, which is slower but still right. Keyed as the seen-set is (seenKey):
   * a URL that differs from a known one by its session ids only is known.
   */
  readonly knownUrls = new SeenUrlMap<number>();

  /**
   * Under a depth limit (cfg.maxDepth): the depth each known URL waiting in the queue waits at, when
   * this process knows it, so a link found again from a page nearer the seeds is told apart from the
   * common rediscovery, as deep or deeper, by a map lookup (queuedDeeper) rather than a query.
   */
  private readonly queuedDepths = new SeenUrlMap<number>();

  /**
   * Patterns excluded while the crawl runs (excludeWaitingMatching): a URL offered after the pass
   * that matches one is recorded as excluded rather than queued. Links are planned against the
   * crawl's scope before their page commits, so a page under way at the pass could still offer one.
   */
  readonly liveExcludes: { pattern: string; re: RegExp; reason: string }[] = [];

  /** A live exclusion removed: URLs offered from now on that match `pattern` are queued again. */
  stopLiveExclude(pattern: string): void {
    const at = this.liveExcludes.findIndex((x) => x.pattern === pattern);
    if (at >= 0) this.liveExcludes.splice(at, 1);
  }

  /** The reason of the first live exclusion `url` matches, or null (no regex runs while there are none). */
  liveExclusionOf(url: string): string | null {
    for (const x of this.liveExcludes) if (x.re.test(url)) return x.reason;
    return null;
  }

  /**
   * Notes where a known URL stands (unknown URLs stay unknown): its row while queued, with the depth
   * it waits at when the caller read it (else the one noted stays), or SETTLED.
   */
  markQueued(url: string, seqOrSettled: number, depth?: number): void {
    if (!this.knownUrls.has(url)) return;
    this.knownUrls.set(url, seqOrSettled);
    if (seqOrSettled === SETTLED || depth !== undefined) this.noteQueuedDepth(url, seqOrSettled === SETTLED ? undefined : depth);
  }

  /** Notes the depth a known URL waits at in the queue (undefined: not waiting, or not known); nothing without a depth limit. */
  noteQueuedDepth(url: string, depth: number | undefined): void {
    if (this.cfg.maxDepth === undefined) return;
    if (depth === undefined) this.queuedDepths.delete(url);
    else if (this.knownUrls.has(url)) this.queuedDepths.set(url, depth);
  }

  /**
   * True when `url` is a page fetched at a depth greater than `depth` whose links the depth limit
   * cut (LINKS_CUT_AT_DEPTH_0), as far as this process knows (no query): found again at `depth`,
   * its cut links may be within the limit from there.
   */
  linksCutDeeper(url: string, depth: number): boolean {
    const cutAt = cutDepthOf(this.knownUrls.get(url));
    return cutAt !== undefined && cutAt > depth;
  }

  /**
   * Notes that the depth limit cut links of the page `url`, fetched at `depth`, when this process
   * knows it has left the queue (its marker then keeps the nearest depth noted).
   */
  noteLinksCut(url: string, depth: number): void {
    const known = this.knownUrls.get(url);
    if (!isSettled(known)) return;
    const cutAt = cutDepthOf(known);
    if (cutAt === undefined || depth < cutAt) this.knownUrls.set(url, linksCutAt(depth));
  }

  /**
   * Known URLs whose row names an embed kind (EMBED_KINDS: a frame, an image, a redirect), as far
   * as this process wrote them: a link of another kind to one makes it a page (linkedAsPage), found
   * by a set lookup rather than a query on every link to a known URL.
   */
  private readonly embedded = new SeenUrlMap<true>();

  /** Notes the kind a known URL's row names now (added, retaken, or found on a shorter way). */
  noteStoredKind(url: string, kind: string): void {
    if (!EMBED_KINDS.has(kind)) this.embedded.delete(url);
    else if (this.knownUrls.has(url)) this.embedded.set(url, true);
  }

  /** True when this process stored `url` with an embed kind (EMBED_KINDS) that no page link has replaced yet. */
  storedAsEmbed(url: string): boolean {
    return this.embedded.has(url);
  }

  /** True when `url` waits in the queue at a depth greater than `depth`, as far as this process knows (no query). */
  queuedDeeper(url: string, depth: number): boolean {
    const waitsAt = this.queuedDepths.get(url);
    return waitsAt !== undefined && waitsAt > depth;
  }

  /**
   * `writeScore`: writes a held row's unwritten score to the table (and clears it); called when
   * such a row stops being held without being leased, since the queue index orders it from then on.
   */
  constructor(
    readonly crawlId: number,
    readonly cfg: CrawlFrontierConfig,
    private readonly onNewHost: () => void,
    private readonly writeScore: (row: HeadRow) => void = () => {
      throw new Error('a held score would be lost');
    },
  ) {}

  /** The host's entry, created on first use. */
  host(host: string): HostEntry {
    let e = this.hosts.get(host);
    if (!e) {
      e = {
        crawlId: this.crawlId, host, politeness: this.cfg.politeness, queued: 0, headPrecedence: 0, headSeq: 0,
        holding: false, holdUntil: 0, holdWaitMs: 0, version: 0, live: true, ahead: [], admitted: 0, outstanding: 0, counts: zero(),
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
      const left = (map.get(reason) ?? 0) + n;
      // A refused URL taken later (frontier-intake.ts retakeRefused) leaves its reason's count.
      if (left === 0) map.delete(reason);
      else map.set(reason, left);
    }
  }

  /** Moves one URL from a state to another. */
  move(e: HostEntry, from: Counted, to: Counted, reason?: string | null): void {
    this.count(e, from, -1);
    this.count(e, to, 1, reason);
  }

  /**
   * Places a newly queued (or rescored) `row` among the host's first URLs when it comes before the
   * last of them, or after it when the host holds its whole queue and may hold one more (a
   * rescoring crawl); returns true when it is the host's new head. Call it once the row is
   * counted as queued.
   */
  offerHead(e: HostEntry, row: HeadRow): boolean {
    const a = e.ahead;
    const i = insertionIndex(a, row);
    const wholeBefore = this.cfg.rescoring === true && a.length === e.queued - 1;
    const mayGrow = wholeBefore && a.length < MAX_WHOLE_QUEUE_ROWS && this.aheadRows < MAX_AHEAD_ROWS;
    if (i === a.length && a.length > 0 && !mayGrow) return false; // after the last one: the queue index has it
    // Past the crawl's cap a host keeps only the URLs before this one (the index has the rest),
    // and this one only if it leads.
    if (i > 0 && this.aheadRows >= MAX_AHEAD_ROWS) {
      this.truncateAhead(e, i);
      return false;
    }
    a.splice(i, 0, row);
    this.aheadRows += 1;
    if (this.cfg.rescoring) this.held.set(row.seq, { e, row });
    const whole = this.cfg.rescoring === true && a.length === e.queued;
    this.truncateAhead(e, this.aheadRows > MAX_AHEAD_ROWS ? 1 : whole ? MAX_WHOLE_QUEUE_ROWS : 2 * AHEAD_ROWS);
    if (i === 0) this.syncHead(e);
    return i === 0;
  }

  /** Keeps the host's first `n` held URLs (n ≥ 1, so the head stays); the others' newer scores are written. */
  private truncateAhead(e: HostEntry, n: number): void {
    if (e.ahead.length <= n) return;
    for (let k = n; k < e.ahead.length; k++) this.release(e.ahead[k]!);
    this.aheadRows -= e.ahead.length - n;
    e.ahead.length = n;
  }

  /** A row stops being held: its newer score goes to the table, which orders it from now on. */
  private release(row: HeadRow): void {
    this.held.delete(row.seq);
    if (row.unwritten) this.writeScore(row);
  }

  /**
   * Takes a row out of the host's first URLs (leased, excluded or rescored); undefined when not
   * among them. The row keeps an unwritten score: the caller writes it or holds the row again.
   */
  takeAhead(e: HostEntry, seq: number): HeadRow | undefined {
    const known = this.held.get(seq)?.row;
    if (this.cfg.rescoring && !known) return undefined; // every held row is in the map
    const i = known ? insertionIndex(e.ahead, known) - 1 : e.ahead.findIndex((r) => r.seq === seq);
    if (i < 0 || e.ahead[i]!.seq !== seq) return undefined;
    return this.takeAt(e, i);
  }

  private takeAt(e: HostEntry, i: number): HeadRow {
    const [row] = e.ahead.splice(i, 1);
    this.aheadRows -= 1;
    this.held.delete(row!.seq);
    if (i === 0) this.syncHead(e);
    return row!;
  }

  /** Replaces the host's first URLs with rows read from the queue index, in its order. */
  setAhead(e: HostEntry, rows: HeadRow[]): void {
    for (const row of e.ahead) this.release(row);
    this.aheadRows += rows.length - e.ahead.length;
    e.ahead = rows;
    if (this.cfg.rescoring) for (const row of rows) this.held.set(row.seq, { e, row });
    this.syncHead(e);
  }

  /** How many rows a host should read when it needs its first URLs again: its whole queue when a rescoring crawl can hold it. */
  aheadWanted(e: HostEntry): number {
    if (this.cfg.rescoring && e.queued <= MAX_WHOLE_QUEUE_ROWS && this.aheadRows + e.queued <= MAX_AHEAD_ROWS) return e.queued;
    return this.aheadRows < MAX_AHEAD_ROWS ? AHEAD_ROWS : 1;
  }

  /**
   * Gives a held row its new score and moves it among the host's held URLs, shifting only those it
   * passes. It leaves them instead when it may now come after a URL the host does not hold (the
   * host does not hold its whole queue, and the row falls behind the last held one, or was the last
   * and fell): returns false then, and the caller writes its score, since the index orders it.
   */
  rescoreHeld(e: HostEntry, row: HeadRow, score: { precedence: number; raw: number; count: number; sum: number }): boolean {
    const a = e.ahead;
    const i = insertionIndex(a, row) - 1; // found by its old score
    const old = { precedence: row.precedence, seq: row.seq };
    row.precedence = score.precedence;
    row.score_raw = score.raw;
    row.score_count = score.count;
    row.score_sum = score.sum;
    const last = a.length - 1;
    const whole = a.length === e.queued;
    if (!whole && (i === last ? !comesBefore(row, old) : comesBefore(a[last]!, row))) {
      this.takeAt(e, i);
      return false;
    }
    let j = i;
    if (i > 0 && comesBefore(row, a[i - 1]!)) {
      j = insertionIndex(a, row, 0, i);
      for (let k = i; k > j; k--) a[k] = a[k - 1]!;
    } else if (i < last && comesBefore(a[i + 1]!, row)) {
      j = insertionIndex(a, row, i + 1, a.length) - 1;
      for (let k = i; k < j; k++) a[k] = a[k + 1]!;
    }
    a[j] = row;
    if (i === 0 || j === 0) this.syncHead(e);
    return true;
  }

  /** The row `seq` among the first URLs `host` holds, if it holds it. */
  aheadRow(host: string, seq: number): HeadRow | undefined {
    return this.held.get(seq)?.row ?? this.hosts.get(host)?.ahead.find((r) => r.seq === seq);
  }

  /** A held row and its host (rescoring crawls), for a rescore without a query. */
  heldRow(seq: number): { e: HostEntry; row: HeadRow } | undefined {
    return this.held.get(seq);
  }

  /** Held rows whose score is newer than the table's. */
  *unwrittenRows(): Iterable<HeadRow> {
    for (const { row } of this.held.values()) if (row.unwritten) yield row;
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

/** Where `row` goes in `rows[lo, hi)` (queue order): after every row there that comes before it. */
function insertionIndex(rows: readonly HeadRow[], row: HeadRow, lo = 0, hi = rows.length): number {
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (comesBefore(row, rows[mid]!)) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Queue order: higher precedence first, then earlier discovery. */
export function comesBefore(a: { precedence: number; seq: number }, b: { precedence: number; seq: number }): boolean {
  return a.precedence > b.precedence || (a.precedence === b.precedence && a.seq < b.seq);
}
