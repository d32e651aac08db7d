import { retryDelayMs, type BackoffConfig, type FetchOutcome } from '../fetch';
import { waitEndAsOf } from '../politeness';
import { robotsIgnorePrefixes } from './ignore-prefixes';
import { classifyRobotsResponse, readRobotsBody, ROBOTS_MAX_BYTES, ROBOTS_MAX_REDIRECTS, type ConnectionFailure, type RobotsBody, type RobotsResponse } from './robots-response';
import type { RobotsAnswer, RobotsAnswerStore } from './robots-answer';
import { parseRobotsRules, type RobotsRules } from './robots-rules';

/**
 * The answer for one URL. `retryAt` (epoch ms): robots.txt is unreachable for now, ask again then
 * (now, when a pause or stop cut its fetch off). `failure` (reason `host-unreachable`): no
 * connection could be made to the host for robots.txt, or a server accepted and never answered any
 * try (SILENT_TRIES), so none would be made for the URL, or answered: it fails with that reason
 * rather than counting as excluded by robots.txt.
 */
export interface RobotsVerdict {
  allowed: boolean;
  crawlDelayMs?: number;
  reason?: 'robots-disallowed' | 'robots-unavailable' | 'robots-retry' | 'robots-ignored' | 'robots-off' | 'host-unreachable';
  retryAt?: number;
  failure?: ConnectionFailure;
}

export interface RobotsCacheOptions {
  userAgent: string;
  /** ICD politeness.respectRobots; off: everything is allowed and nothing fetched. */
  enabled: boolean;
  /** ICD politeness.ignoreRobotsFor: URLs starting with one of these are allowed without asking. */
  ignoreFor: readonly string[];
  /**
   * Fetches one URL, no redirects followed (the crawler archives each exchange here). `origin`: whose
   * robots.txt it is (the request asking for it is one of that host's: a redirect may leave the host);
   * `hop`: how many redirects led to it (0: robots.txt itself).
   */
  fetchRobots: (url: string, origin: string, hop: number) => Promise<FetchOutcome>;
  /**
   * A request of robots.txt (`url`: the origin's, or a redirect's target) that failed with nothing
   * received to archive (refused, unresolvable, a timeout or reset before any byte; not one a pause
   * or stop cut off), with `next`: what the origin's state now makes of its URLs (unansweredNextStep).
   */
  onUnanswered?: (url: string, failure: Extract<FetchOutcome, { ok: false }>, next: string) => void;
  /** Called with each origin's Sitemap: URLs, once, when its robots.txt is parsed. */
  onSitemaps?: (origin: string, sitemaps: string[]) => void;
  /** Unreachable robots.txt: tries before the origin is treated as disallow-all (default 3). */
  maxAttempts?: number;
  /** Wait between those tries (default ROBOTS_BACKOFF: 30 s doubling, up to 10 min, jittered). */
  backoff?: BackoffConfig;
  /** RFC 9309 §2.5: at least 500 KiB must be parsed; more is ignored. */
  maxBytes?: number;
  /**
   * How long an answer is kept before robots.txt is fetched again (RFC 9309 §2.4: not over 24 hours,
   * the default): crawls with feeds or recrawls run for days and weeks.
   */
  maxAgeMs?: number;
  /**
   * Where the crawl keeps the answers decided (rules, allow-all, disallow-all, each with its
   * `until`) across its runs: an origin this run has not asked yet is answered from the one kept
   * while it is fresh, rather than by fetching (and archiving) its robots.txt again.
   */
  answers?: RobotsAnswerStore;
  now?: () => number;
  random?: () => number;
}

/** Known answers are fetched again from `until` on. */
type OriginState =
  | { kind: 'rules'; rules: RobotsRules; until: number }
  | { kind: 'allow-all'; until: number }
  /** `silence`: every try so far was met by a server that accepted and sent nothing (the last one's failure). */
  | { kind: 'retry'; retryAt: number; failures: number; silence?: ConnectionFailure }
  | { kind: 'disallow-all'; until: number }
  | { kind: 'no-connection'; failure: ConnectionFailure; until: number };

/** How a load ended: the origin's state was (re)decided, or a pause or stop cut the fetch off and it was left as it was. */
type LoadEnd = 'decided' | 'cut-off';

const DAY_MS = 86_400_000;

/** The wait between tries of an unreachable robots.txt, unless the crawl sets its own. */
export const ROBOTS_BACKOFF: BackoffConfig = { baseMs: 30_000, maxMs: 600_000 };
/** A refresh that fails keeps the rules it would have replaced (RFC 9309 §2.4) and is tried again after this. */
const REFRESH_RETRY_MS = 3_600_000;

/**
 * A host no connection could be made to, or silent at SILENT_TRIES tries: its URLs asked within this
 * time fail at once with the same reason; after it robots.txt is tried again (a server restarted, a
 * name that resolves again) — once: no connection or silence again settles the host again at once,
 * rather than after another SILENT_TRIES tries and their backoff (4–5 minutes with the default 20 s
 * headers timeout, the host's URLs waiting). An answer (5xx included) starts the usual tries.
 */
const NO_CONNECTION_MS = 600_000;

/**
 * Tries of a robots.txt whose server accepts connections and never sends a byte — no head before
 * the timeout, or the connection closed or reset at once (each try the fetcher's own retries): after these the host is settled as one no connection could be made to,
 * with the timeout as its reason. Three tries and two backoffs took 8–9 minutes with the default
 * 20 s headers timeout, the host's URLs waiting all along, for a server that said nothing to any.
 */
const SILENT_TRIES = 2;


/**
 * robots.txt per origin for one crawl: fetched once a day (redirects followed up to 5 hops, each
 * hop going through `fetchRobots` so it is archived), answered from memory in between, and in the
 * crawl's later runs from the answers it kept (`answers`) while they are fresh. 4xx: allow all;
 * 5xx, headers/total timeouts, a 2xx body that cannot be read (readRobotsBody): the origin's URLs wait
 * and robots.txt is tried again with backoff, and after
 * `maxAttempts` failures the origin counts as disallow-all ('robots-unavailable'). No connection to
 * the origin at all (refused, timed out, unresolvable: its fetch's own retries spent) is no answer of a server:
 * its URLs fail with that reason ('host-unreachable') for NO_CONNECTION_MS, instead of waiting a
 * minute of backoff to be excluded; rules read before are kept, as for any failed refresh. A server
 * that accepts and sends not a byte (a timeout, or a close or reset with nothing received) at
 * SILENT_TRIES tries in a row ends so too, with the last try's reason; once such a host's time is
 * up, one try more that gets no answer settles it again (NO_CONNECTION_MS). A fetch cut off
 * by a pause or stop (`interrupted`: the request, or a redirect's wait for another host's turn)
 * says nothing about the site: the origin stays as it was and the check answers "ask again now".
 * A redirect the crawler would not wait for (a wait closing a cycle, reason `internal`) is a real
 * "cannot fetch now" and counts as a try, like any unreachable robots.txt.
 */
export class RobotsCache {
  private readonly states = new Map<string, OriginState>();
  private readonly loading = new Map<string, Promise<LoadEnd>>();
  /** Origins whose kept answer (RobotsCacheOptions.answers) was looked for: once a run each. */
  private readonly lookedUp = new Set<string>();
  private readonly now: () => number;
  /** `o.ignoreFor` as URLs start (robotsIgnorePrefixes). */
  private readonly ignoreFor: readonly string[];

  constructor(private readonly o: RobotsCacheOptions) {
    this.now = o.now ?? (() => Date.now()); // read at each call: the wall clock as it is then
    this.ignoreFor = robotsIgnorePrefixes(o.ignoreFor);
  }

  /** May `url` be fetched? Fetches the origin's robots.txt first if it is not known yet. */
  async check(url: string): Promise<RobotsVerdict> {
    if (!this.o.enabled) return { allowed: true, reason: 'robots-off' };
    if (this.ignoreFor.some((prefix) => url.startsWith(prefix))) return { allowed: true, reason: 'robots-ignored' };
    let origin: string;
    try {
      origin = new URL(url).origin;
    } catch {
      return { allowed: true }; // the fetch stage reports the invalid URL
    }
    let state = this.states.get(origin) ?? this.restore(origin);
    if (!state || this.now() >= this.dueAt(state)) {
      if ((await this.load(origin)) === 'cut-off') return { allowed: false, reason: 'robots-retry', retryAt: this.now() };
      state = this.states.get(origin)!;
    }
    switch (state.kind) {
      case 'allow-all':
        return { allowed: true };
      case 'disallow-all':
        return { allowed: false, reason: 'robots-unavailable' };
      case 'no-connection':
        return { allowed: false, reason: 'host-unreachable', failure: state.failure };
      case 'retry':
        return { allowed: false, reason: 'robots-retry', retryAt: this.dueAt(state) };
      case 'rules': {
        const delay = state.rules.crawlDelayMs;
        const verdict: RobotsVerdict = state.rules.isAllowed(url) ? { allowed: true } : { allowed: false, reason: 'robots-disallowed' };
        return delay === null ? verdict : { ...verdict, crawlDelayMs: delay };
      }
    }
  }

  /**
   * The longest wait for robots.txt to be tried again: a `retryAt` (RobotsVerdict) further ahead
   * than this was set before the wall clock was set back (waitEndAsOf).
   */
  get longestRetryMs(): number {
    return (this.o.backoff ?? ROBOTS_BACKOFF).maxMs;
  }

  /**
   * When the origin's state is to be decided again, as the clock reads it now: a time set before the
   * wall clock was set back, further ahead than its wait, is now (waitEndAsOf), not an hour of the
   * host's URLs waiting, or failing unrequested, for an hour's step.
   */
  private dueAt(state: OriginState): number {
    const now = this.now();
    switch (state.kind) {
      case 'retry':
        return waitEndAsOf(state.retryAt, this.longestRetryMs, now);
      case 'no-connection':
        return waitEndAsOf(state.until, NO_CONNECTION_MS, now);
      default:
        return this.answerDueAt(state.until, now);
    }
  }

  /** When a decided answer (rules, allow-all, disallow-all) good until `until` is due, as dueAt reads it. */
  private answerDueAt(until: number, now: number): number {
    return waitEndAsOf(until, Math.max(this.o.maxAgeMs ?? DAY_MS, REFRESH_RETRY_MS), now);
  }

  /** Sitemap: URLs of an origin's robots.txt (empty until it was fetched and parsed). */
  sitemapsFor(url: string): string[] {
    const origin = new URL(url).origin;
    const state = this.states.get(origin) ?? this.restore(origin);
    return state?.kind === 'rules' ? [...state.rules.sitemaps] : [];
  }

  /**
   * The answer an earlier run of the crawl kept for `origin`, as this run's state, while it is
   * fresh. A stale one is left as if none were kept, as every resumed run took them all before
   * answers were kept: robots.txt is fetched, and should that fail, tried and finally taken as
   * unavailable as a first fetch is, rather than the old rules kept in force for hours (a refresh
   * failing in the run that read them keeps them: RFC 9309 §2.4). So is one further ahead than this
   * run's max age allows (dueAt: the wall clock set back, or a crawl resumed with a shorter age).
   * Its Sitemap: lines are not handed on again (onSitemaps): they were when it was read, and the
   * crawl's frontier remembers them.
   */
  private restore(origin: string): OriginState | undefined {
    if (!this.o.answers || this.lookedUp.has(origin)) return undefined;
    this.lookedUp.add(origin);
    let answer: RobotsAnswer | null;
    try {
      answer = this.o.answers.find(origin);
    } catch {
      return undefined; // as if none was kept: robots.txt is fetched
    }
    if (!answer || this.now() >= this.answerDueAt(answer.until, this.now())) return undefined;
    const state: OriginState = answer.kind === 'rules'
      ? { kind: 'rules', rules: parseRobotsRules(robotsTxtUrlOf(origin), answer.text, this.o.userAgent), until: answer.until }
      : { kind: answer.kind, until: answer.until };
    this.states.set(origin, state);
    return state;
  }

  /**
   * Keeps the origin's answer for the crawl's later runs (RobotsCacheOptions.answers). One that
   * cannot be kept (the database refusing) costs those runs a fetch of robots.txt, nothing more:
   * this run's verdicts do not wait for it.
   */
  private keep(origin: string, answer: RobotsAnswer | { kind: 'extend'; until: number }): void {
    try {
      if (answer.kind === 'extend') this.o.answers?.extend(origin, answer.until);
      else this.o.answers?.keep(origin, answer);
    } catch {
      // Not kept: see above.
    }
  }

  /** One load per origin at a time: concurrent checks wait for the same fetch. */
  private load(origin: string): Promise<LoadEnd> {
    let pending = this.loading.get(origin);
    if (!pending) {
      pending = this.fetchAndDecide(origin).finally(() => this.loading.delete(origin));
      this.loading.set(origin, pending);
    }
    return pending;
  }

  private async fetchAndDecide(origin: string): Promise<LoadEnd> {
    const robotsUrl = robotsTxtUrlOf(origin);
    let target = robotsUrl;
    for (let hop = 0; hop <= ROBOTS_MAX_REDIRECTS; hop++) {
      const outcome = await this.o.fetchRobots(target, origin, hop);
      if (!outcome.ok && outcome.reason === 'interrupted') return 'cut-off';
      const response = classifyRobotsResponse(outcome, target);
      if (response.kind === 'redirect') {
        target = response.location;
        continue;
      }
      const end = await this.decide(origin, robotsUrl, hop, response);
      // Nothing came back, so no capture tells of this request in the crawl log: the crawler logs it.
      if (!outcome.ok && !outcome.partial) {
        const next = unansweredNextStep(this.states.get(origin)!, this.now());
        // A redirect's target is logged, but what follows is the origin's: the entry says whose.
        this.o.onUnanswered?.(target, outcome, hop === 0 ? next : `asked for ${robotsUrl}, which redirected here: ${next}`);
      }
      return end;
    }
    return this.decided(origin, { kind: 'allow-all', until: this.fresh() }); // too many redirects: "unavailable"
  }

  /** Decides the origin's state from the answer (or none) at `hop` of its robots.txt's redirects. */
  private async decide(origin: string, robotsUrl: string, hop: number, response: Exclude<RobotsResponse, { kind: 'redirect' }>): Promise<LoadEnd> {
    if (response.kind === 'allow-all') return this.decided(origin, { kind: 'allow-all', until: this.fresh() });
    // A redirect's target refusing says nothing of the origin, which answered: robots.txt is unreachable.
    if (response.kind === 'no-connection' && hop === 0) return this.noConnection(origin, response.failure);
    if (response.kind === 'unreachable' && hop === 0 && response.silence) return this.failed(origin, response.silence);
    if (response.kind === 'unreachable' || response.kind === 'no-connection') return this.failed(origin);
    let body: RobotsBody;
    try {
      body = await readRobotsBody(response.exchange, this.o.maxBytes ?? ROBOTS_MAX_BYTES);
    } catch {
      return this.failed(origin); // the spooled body could not be read: as if unreachable
    }
    if ('unreadable' in body) return this.failed(origin);
    const rules = parseRobotsRules(robotsUrl, body.text, this.o.userAgent);
    const until = this.fresh();
    this.states.set(origin, { kind: 'rules', rules, until });
    if (rules.sitemaps.length) this.o.onSitemaps?.(origin, rules.sitemaps);
    // Kept once its Sitemap: lines were handed on: a crash between the two fetches robots.txt again
    // in the next run rather than leaving them unqueued.
    this.keep(origin, { kind: 'rules', text: body.text, until });
    return 'decided';
  }

  private decided(origin: string, state: OriginState): LoadEnd {
    this.states.set(origin, state);
    // Rules decided here are those read before, kept after a failed refresh: their text is kept already.
    if (state.kind === 'rules') this.keep(origin, { kind: 'extend', until: state.until });
    else if (state.kind === 'allow-all' || state.kind === 'disallow-all') this.keep(origin, state);
    return 'decided';
  }

  /** When an answer fetched now is to be fetched again. */
  private fresh(): number {
    return this.now() + (this.o.maxAgeMs ?? DAY_MS);
  }

  /** `silence`: this try was met by a server that accepted the connection and sent nothing (SILENT_TRIES). */
  private failed(origin: string, silence?: ConnectionFailure): LoadEnd {
    const prior = this.states.get(origin);
    // A refresh of rules that could be read before: they stay, and robots.txt is tried again later.
    if (prior?.kind === 'rules' || prior?.kind === 'allow-all') return this.decided(origin, { ...prior, until: this.now() + REFRESH_RETRY_MS });
    const retrying = prior?.kind === 'retry' ? prior : null;
    const failures = (retrying?.failures ?? 0) + 1;
    // Silent at every try (a 5xx or a cut connection before breaks the run): the host's URLs fail with the timeout.
    const allSilent = silence && (!retrying || retrying.silence) ? silence : undefined;
    const maxAttempts = this.o.maxAttempts ?? 3;
    // A host settled for giving no answer, silent again at its one try once the settle ran out: settled again at once.
    const resettled = allSilent && prior?.kind === 'no-connection';
    if (allSilent && (resettled || failures >= Math.min(SILENT_TRIES, maxAttempts))) {
      // The silent tries in a row, those of earlier settles included (a refused connection is none).
      const silentTries = resettled ? (prior.failure.silentTries ?? 0) + 1 : failures;
      return this.decided(origin, { kind: 'no-connection', failure: { ...allSilent, silentTries }, until: this.now() + NO_CONNECTION_MS });
    }
    if (failures >= maxAttempts) return this.decided(origin, { kind: 'disallow-all', until: this.fresh() });
    const wait = retryDelayMs(failures, this.o.backoff ?? ROBOTS_BACKOFF, this.o.random ?? Math.random);
    return this.decided(origin, { kind: 'retry', retryAt: this.now() + wait, failures, ...(allSilent ? { silence: allSilent } : {}) });
  }

  private noConnection(origin: string, failure: ConnectionFailure): LoadEnd {
    const prior = this.states.get(origin);
    if (prior?.kind === 'rules' || prior?.kind === 'allow-all') return this.failed(origin);
    return this.decided(origin, { kind: 'no-connection', failure, until: this.now() + NO_CONNECTION_MS });
  }
}

/** `ms` from now in words: "150 ms", "3 s", "10 min", "1 h". */
function inWords(ms: number): string {
  if (ms < 1000) return `${Math.max(0, Math.round(ms))} ms`;
  const s = Math.round(ms / 1000);
  if (s < 120) return `${s} s`;
  if (s < 7200) return `${Math.round(s / 60)} min`;
  return `${Math.round(s / 3600)} h`;
}

/**
 * What follows a robots.txt request that got nothing, from the origin's state it left (at `now`):
 * for the crawl-log entry of that request. Pure.
 */
function unansweredNextStep(state: OriginState, now: number): string {
  switch (state.kind) {
    case 'retry':
      return `robots.txt is tried again in ${inWords(state.retryAt - now)}; the host's URLs wait`;
    case 'disallow-all':
      return "its tries are spent: the host is treated as disallowing every URL (robots-unavailable)";
    case 'no-connection':
      return `the host's URLs fail with this reason, unrequested, for ${inWords(state.until - now)}; then robots.txt is tried again`;
    case 'rules':
    case 'allow-all':
      return `the rules read before stay in force; robots.txt is tried again in ${inWords(state.until - now)}`;
  }
}

/** The robots.txt of `origin` (scheme, host and port, as URL.origin writes them): the URL asked for its rules. */
export function robotsTxtUrlOf(origin: string): string {
  return `${origin}/robots.txt`;
}
