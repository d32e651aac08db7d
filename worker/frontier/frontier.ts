import type { ExclusionReason, FailureReason } from '../capture';
import type { DelayConfig, KeyHolder, KeyTiming, KeyTurnLine } from '../politeness';

/**
 * The crawl frontier: which URLs a crawl has seen, which are waiting, and which one to fetch
 * next without being impolite. `SqliteFrontier` implements it; a PostgreSQL one can sit beside it.
 */

/** How a queued URL's priority changes when the URL is found again (ARCOMEM's update functions). */
export type UpdateFunction = 'FIRST' | 'LAST' | 'MAX' | 'AVG' | 'SUM';

/** Life of a URL in the frontier. `retrying`: failed, queued again after a not-before time. */
export type UrlState = 'queued' | 'in-flight' | 'done' | 'failed' | 'excluded' | 'retrying';

/** A discovered URL offered to the frontier. `url` must already be canonical (it is the dedupe key). */
export interface Candidate {
  url: string;
  /** The scheduling unit, e.g. `example.org` or `example.org:8080` (the caller decides). */
  host: string;
  depth: number;
  /** Relevance in [0,1]; higher is fetched first. Clamped into [0,1]. */
  priority: number;
  viaUrl?: string | null;
  /** What kind of link: 'seed', 'page', 'requisite', 'sitemap', 'feed'… (stored, not interpreted). */
  kind: string;
  /** Discovery time in ms; defaults to the frontier clock's now. */
  discoveredAt?: number;
  /** The module scores behind `priority`, JSON (focused crawling), kept for the cockpit's "why". */
  breakdown?: string | null;
  /** Consecutive out-of-scope links from the scope to it (checkScope's `hops`); absent when found on no page. */
  scopeHops?: number | null;
}

/** A URL the scope rules rejected, with why. */
export interface Rejected {
  url: string;
  host: string;
  reason: ExclusionReason;
  depth?: number;
  viaUrl?: string | null;
  kind?: string;
  /**
   * Refused as 'max-depth' only: the scope would take the URL from a page nearer the seeds, so a
   * later link within the depth limit queues it (the frontier remembers it as too deep rather
   * than as out of the scope, whose plain links it drops at no cost).
   */
  withinScopeShallower?: boolean;
}

export interface AddResult {
  /** Newly queued. */
  added: number;
  /** Already seen (in any state). */
  duplicates: number;
  /** New, but over maxPages / maxPagesPerHost / maxDepth: recorded as excluded with that reason. */
  budgetExcluded: number;
  /**
   * Fetched pages whose links the depth limit cut, found again nearer the seeds: their rows now
   * stand at the nearer depth, and the caller plans the links again from there (the scope decides
   * which it takes) and adds them. Absent when there are none, the common case.
   */
  cutLinksFoundNearer?: CutLinksFoundNearer[];
}

/** A fetched page found again nearer the seeds, and the links the depth limit cut from it. */
export interface CutLinksFoundNearer {
  url: string;
  host: string;
  /** The nearer depth it stands at now: its links are one deeper. */
  depth: number;
  /** Consecutive out-of-scope links to it along the nearer way (null: none counted). */
  scopeHops: number | null;
  /** The nearer way's kind of link and the page it was found on, from which its own links count their embed hops. */
  kind: string;
  viaUrl: string | null;
  /**
   * The links it refused as too deep as the first page to find them (their rows name it as
   * via_url); a link another page found first is not among them.
   */
  links: { url: string; kind: string }[];
}

export interface AddOptions {
  /** Applied to URLs already queued that are offered again; default FIRST (no change). */
  update?: UpdateFunction;
  /**
   * Batch mode: new URLs are queued with their score as a provisional one (it orders them, and the
   * first real score replaces it), duplicates are left alone — the batch's score comes later
   * through rescore(). A process that dies before the batch closes leaves the provisional scores.
   */
  provisional?: boolean;
}

/** Budgets and politeness of one crawl (the ICD's scope and politeness blocks fit). */
export interface CrawlFrontierConfig {
  /** URLs admitted to the queue at most (queued + in flight + done + failed). */
  maxPages: number;
  maxPagesPerHost: number;
  /** URLs deeper than this are excluded as 'max-depth' (omit to let the scope stage decide). */
  maxDepth?: number;
  politeness: DelayConfig & { enabled: boolean };
  /**
   * Queued URLs get new scores as the crawl finds them again (focused crawling with an update
   * function other than FIRST, or batch updating): each host then holds its whole queue in memory
   * while it fits, and a held URL's new score is written when the URL leaves the queue or at a
   * flush rather than at once (crawl-state.ts).
   */
  rescoring?: boolean;
}

/** A URL handed to a fetcher. Give it back exactly once: complete, fail or release. */
export interface Lease {
  readonly token: number;
  readonly crawlId: number;
  readonly url: string;
  readonly host: string;
  readonly depth: number;
  readonly kind: string;
  readonly viaUrl: string | null;
  /** Precedence in [0,1] at the time it was leased. */
  readonly priority: number;
  /** Earlier failed attempts (retries). */
  readonly attempts: number;
  readonly leasedAt: number;
  /** Its candidate's scopeHops; null when unknown (found on no page, or stored before the frontier kept it). */
  readonly scopeHops?: number | null;
}

export interface CompleteInfo {
  /** HTTP status (or 0 when not applicable). */
  status: number;
  /** When the request started; defaults to the lease time. */
  startedAt?: number;
  /** Response time for the politeness delay; defaults to now − startedAt. */
  durationMs?: number;
}

export interface FailOptions {
  /** Queue the URL again, not before this time. Without it the failure is final. */
  retryAt?: number;
  startedAt?: number;
  durationMs?: number;
  /**
   * No request was made for the URL (robots.txt refused it, or its host could not be reached for
   * robots.txt): the key's clock keeps the host's last request, so its next URL waits no delay for this one.
   */
  notRequested?: boolean;
}

/** How many URLs are in each state. */
export interface StateCounts {
  queued: number;
  inFlight: number;
  retrying: number;
  done: number;
  failed: number;
  excluded: number;
}

export interface HostCounters extends StateCounts {
  host: string;
}

export interface FrontierCounters extends StateCounts {
  failedByReason: Record<string, number>;
  excludedByReason: Record<string, number>;
  hosts: number;
}

export interface Frontier {
  /** Loads a crawl for scheduling; URLs left in flight by a previous run go back to the queue. */
  openCrawl(crawlId: number, cfg: CrawlFrontierConfig): void;
  /** Stops scheduling a crawl (pause); its outstanding leases go back to the queue. */
  closeCrawl(crawlId: number): void;
  add(crawlId: number, candidates: readonly Candidate[], opts?: AddOptions): AddResult;
  /** Records rejected URLs as seen and excluded with their reason; returns how many were new. */
  exclude(crawlId: number, rejected: readonly Rejected[]): number;
  /**
   * Records every URL posted to the crawl and waiting in frontier_intake that the crawl has not
   * seen as excluded with `reason` (a blacklisted one as `blacklisted`; a URL posted more than once
   * as its first post says), over the whole set at once; leaves the waiting rows. Returns how many.
   */
  excludeWaitingIntake(crawlId: number, reason: ExclusionReason): number;
  /**
   * A live exclusion: excludes with `reason` every queued or retrying URL of the crawl matching
   * the regular expression `pattern` (one pass over the set), and every URL offered from now on that
   * matches it; URLs in flight finish. Returns how many were excluded.
   */
  excludeMatching(crawlId: number, pattern: string, reason: ExclusionReason): number;
  /** Undoes excludeMatching for the URLs offered from now on (a live exclusion removed); those it excluded stay excluded. */
  stopExcludingMatching(crawlId: number, pattern: string): void;
  /** Sets a queued URL's priority in place; false if the URL is not queued. */
  updatePriority(crawlId: number, url: string, priority: number): boolean;
  /** Applies an update function with a new score (and its breakdown, JSON) to a queued URL; false if not queued. */
  rescore(crawlId: number, url: string, score: number, fn: UpdateFunction, breakdown?: string | null): boolean;
  /** Excludes a queued URL with a reason (an external blacklist); false if not queued. */
  excludeQueued(crawlId: number, url: string, reason: string): boolean;
  /** The best URL that may be fetched now, or null. */
  next(now?: number): Lease | null;
  /** Up to n leases, each from a different politeness key (fewer when politeness is off per host). */
  nextMany(now: number, n: number): Lease[];
  /** Batch prioritisation: the best host's top `bl` URLs at once; its key stays held until all are back. */
  nextBatch(now: number, bl: number): Lease[];
  /** The top `bl` URLs of one host, if its key is free and its delay passed; else []. */
  takeBatch(crawlId: number, host: string, bl: number, now?: number): Lease[];
  /**
   * Acknowledges a fetch: once this returns the URL is durably done. Returns false for a lease
   * the frontier no longer holds (settled already, or its crawl was closed and it was re-queued).
   */
  complete(lease: Lease, info: CompleteInfo): boolean;
  /**
   * The lease's request is over (response read, or given up after its retries): the host's
   * politeness clock starts from this request and its key is free, so the host's next URL may be
   * fetched while this one is still parsed and written. The URL itself stays in flight until
   * complete() or fail(). Without this call the key is freed when the lease settles.
   */
  fetched(lease: Lease, info: { startedAt?: number; durationMs?: number }): void;
  /** Records a failure: final, or queued again after `retryAt`. */
  fail(lease: Lease, reason: FailureReason, opts?: FailOptions): boolean;
  /** Gives a lease back unfetched (no attempt counted, politeness clock untouched). */
  release(lease: Lease): boolean;
  /** When next() may return something: ≤ now means now; null means only a complete/add can help. */
  nextWakeAt(): number | null;
  /** Earliest time the host's politeness key allows a request (for the gaps inside a batch). */
  hostReadyAt(crawlId: number, host: string): number;
  /** How many of the host's URLs wait in the crawl's queue (retries not counted), as this process knows. */
  hostQueued(crawlId: number, host: string): number;
  /**
   * Takes the politeness key of `holder.host` for a request of the crawl outside the frontier's
   * leases (a revisit, a recrawl, a feed poll) if no request holds it; its delay may still run
   * (hostReadyAt), and the caller waits it out holding the key, so leases of any crawl cannot
   * take every turn from it. False while the key is held.
   */
  holdKey(holder: KeyHolder): boolean;
  /**
   * That request is over: the key is freed with the request's timing, as fetched() does for a
   * lease (null: it never started, the clock stays).
   */
  releaseKey(holder: KeyHolder, timing: KeyTiming | null): void;
  /**
   * Waits in line for the host's key, held now (holdKey failed), with the other requests outside
   * the leases of every crawl sharing the registry: the key is handed to the first in line when it
   * is freed (PolitenessRegistry.waitTurn).
   */
  waitKeyTurn(holder: KeyHolder): KeyTurnLine;
  /** True while `holder` holds a key (holdKey, or handed to it by waitKeyTurn). */
  holdsKey(holder: KeyHolder): boolean;
  /**
   * True while the host's key, free, is the turn of leases (of any crawl) that waited while it was
   * held: a request outside the leases then waits in line behind them rather than take the key
   * again and again (a revisit pass) while their hosts wait.
   */
  keyOwedToLeases(host: string): boolean;
  /** True while a request (of any crawl sharing the politeness registry) holds the host's key. */
  hostBusy(host: string): boolean;
  /** The politeness key the host's requests hold: its IP once known, else its name. */
  hostKey(host: string): string;
  /**
   * A request holding `holdingHost`'s key is to wait for the key `key` as well (a robots.txt
   * redirect to another IP): the function that ends the wait, or null when that wait, with the
   * others of the worker, would be a deadlock (the caller gives up instead of waiting).
   */
  waitForKey(holdingHost: string, key: string): (() => void) | null;
  /** The host's resolved IP; false if the host holds a lease and that IP is busy (release the lease). */
  setHostKey(host: string, key: string): boolean;
  setRobotsDelay(host: string, ms: number | null): void;
  counters(crawlId: number): FrontierCounters;
  /** The crawl's URLs per state, as counters() gives them but without copying: the engine reads them on every turn of its loop. */
  stateCounts(crawlId: number): Readonly<StateCounts>;
  /**
   * The crawl's URLs failed without a request, so no fetch attempts: robots.txt refused them
   * (stored failed, reported excluded), or their host was given up (`host-unreachable`).
   */
  notRequestedFailures(crawlId: number): number;
  /**
   * Host back-off (politeness/host-outage.ts): none of the host's URLs is leased before `until`;
   * then one is, its try, after which the host is held until this is called again. null: its URLs
   * are leased as usual again. Held per host name, not per politeness key (IP): another name on
   * its address may be answered by another server (a virtual host), so it keeps its turns.
   * `waitMs`: how long the hold was to last (default: until `until` from now); an `until` further
   * ahead than it, a wall clock set back since, is read as now (waitEndAsOf).
   */
  holdHost(crawlId: number, host: string, until: number | null, waitMs?: number): void;
  /**
   * Puts a failed URL back in the queue, one more attempt counted (a URL that got no answer from a
   * host that went into back-off, to be fetched once it answers): the reason it had failed for, or
   * null when it is not failed.
   */
  requeueFailed(crawlId: number, url: string): { reason: string | null } | null;
  /** Fails every queued or retrying URL of the host with `reason` (a host given up), in one statement per state; how many. */
  failHostWaiting(crawlId: number, host: string, reason: FailureReason): number;
  hostCounters(crawlId: number): HostCounters[];
  /** The stored state of one URL (for tests and the cockpit's URL inspector). */
  lookup(crawlId: number, url: string): UrlRecord | null;
  close(): void;
}

/** One URL as stored. */
export interface UrlRecord {
  url: string;
  host: string;
  depth: number;
  kind: string;
  viaUrl: string | null;
  state: UrlState;
  reason: string | null;
  precedence: number;
  rawScore: number;
  scoreCount: number;
  status: number | null;
  attempts: number;
  /** Module scores behind the priority (JSON), when focused crawling scored the URL. */
  breakdown: string | null;
  /** Consecutive out-of-scope links from the scope to it (scope.extraHops); null when unknown. */
  scopeHops: number | null;
}
