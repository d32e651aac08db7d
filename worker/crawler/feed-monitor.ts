import { decodeBody, DecompressionBombError, dnsFailure, parseContentCodings, type DecodedBody, type FetchTiming } from '../fetch';
import { locationOf } from '../fetch/http-heads';
import { isFeedDocument, parseDateAsUtc, parseFeed, unexpandedDtdNote, type FeedResult } from '../extract';
import { crawlPollingOptions, FeedScheduler, periodAfter, type FeedMemory, type FeedPoll } from '../feeds';
import { canonicalize, FEED_ITEM_KIND } from '../url';
import type { CrawlContext } from './crawl-context';
import { outcomeOf, politeFetch, type PoliteFetchResult } from './polite-fetch';
import type { FailureReason, HttpExchange } from '../capture';
import type { FeedMemoryStore } from './feed-state-store';
import { ROBOTS_REFUSAL } from '../robots/robots-refusal';
import { logUnanswered, robotsExclusionOf, ROBOTS_RETRY_OUTCOME } from './revisit-pass';
import type { RobotsVerdict } from '../robots';

/** Priority of article URLs found in feeds: ahead of everything the crawl has queued. */
export const FEED_ARTICLE_PRIORITY = 1;

/** Redirects a feed poll follows (the first request and this many more). */
const MAX_FEED_REDIRECTS = 5;

export interface FeedMonitorOptions {
  feeds: readonly string[];
  minPollMinutes: number;
  /** Length of a minute in ms (tests shorten it). */
  minuteMs?: number;
  /** A pause or stop: a poll still waiting for its host's turn gives up. */
  halted?(): boolean;
  /** Where each feed's state is kept across pauses and restarts (none: it lives as long as the monitor). */
  store?: FeedMemoryStore;
  /** Told of each poll once it is stored (the cockpit's live view). */
  onPoll?(url: string, poll: FeedPoll): void;
}

/**
 * Monitors the ICD's feeds (RSS, Atom, JSON Feed) during a crawl with the advaRSS scheduler: each
 * period of T = the minimum poll interval allows M = ⌈feeds / 4⌉ polls, given to the feeds with
 * the most expected new articles (hourly posting-rate model, re-estimated every period); a feed
 * not polled for 24 periods goes first (crawlPollingOptions in ../feeds/poll-plan.ts). Each poll
 * is archived; the articles not seen before are queued at high priority through the crawl's scope.
 * What the polls taught (last poll, remembered items, publication times) is stored after each
 * poll and restored by the next run: a resumed crawl keeps each feed's minimum interval.
 *
 * A feed an exclude pattern of the crawl matches (the ICD's, or one added live) is not fetched, as
 * a seed it matches is not: it is recorded once as `excluded`, with the pattern (and in the crawl
 * log, outcome `exclude-match`, as a recrawl an exclusion stops), and skipped while the pattern
 * stays (a pattern removed, it is polled again). Feeds are matched in their canonical form, as
 * seeds are. A feed that redirected to an excluded address is recorded so too, and that address
 * remembered (and stored): the feed is not requested again while a pattern matches it. The feeds
 * are checked at each period's start and whenever the crawl's patterns change (exclusionsChanged,
 * which the engine calls within 500 ms of a live exclusion); a poll under way whose feed, or the
 * address it moved to, is excluded meanwhile stops before requesting it.
 */
export class FeedMonitor {
  private readonly scheduler: FeedScheduler;
  private readonly minuteMs: number;
  private nextPeriodAt: number;
  private queued = 0;
  /** Feeds recorded as excluded, not polled until no exclude pattern matches them. */
  private readonly excluded = new Set<string>();
  /** Of the excluded feeds, those recorded for the excluded address they redirected to: that address. */
  private readonly movedTo = new Map<string, string>();
  /**
   * The feeds being polled (a period's polls run side by side, and a slow one may outlast its
   * period): each checks its exclusion itself before each request, and is not chosen again until
   * its poll ends.
   */
  private readonly polled = new Set<string>();

  constructor(private readonly ctx: CrawlContext, private readonly o: FeedMonitorOptions, now: number) {
    this.minuteMs = o.minuteMs ?? 60_000;
    // The scheduler counts in real minutes; a shortened minute is mapped onto its time scale.
    this.scheduler = new FeedScheduler(crawlPollingOptions(o.feeds.length, o.minPollMinutes), this.clock(now));
    for (const url of o.feeds) this.scheduler.addFeed(url, 0, this.clock(now));
    // Recorded excluded by an earlier run: not recorded (nor logged) again while the pattern stays.
    for (const [url, movedTo] of o.store?.excludedFeeds?.() ?? []) {
      this.excluded.add(url);
      if (movedTo !== null) this.movedTo.set(url, movedTo);
    }
    const saved = o.store?.load();
    if (saved?.size) this.scheduler.restore(new Map([...saved].map(([url, m]) => [url, this.scaled(m, (t) => this.clock(t))])), this.clock(now));
    this.nextPeriodAt = now;
  }

  /** Articles this monitor has queued as new (for tests and reports). */
  get articlesQueued(): number {
    return this.queued;
  }

  private clock(now: number): number {
    return (now / this.minuteMs) * 60_000;
  }

  private unclock(t: number): number {
    return (t / 60_000) * this.minuteMs;
  }

  /** A memory with its times mapped (stored in wall-clock ms, the scheduler's on its time scale). */
  private scaled(m: FeedMemory, f: (t: number) => number): FeedMemory {
    return { lastPollAt: f(m.lastPollAt), firstPollAt: f(m.firstPollAt), seen: m.seen, published: m.published.map(f) };
  }

  /** When the next period starts (the engine sleeps until then when nothing else is queued). */
  get wakeAt(): number {
    return this.nextPeriodAt;
  }

  /**
   * Starts the period's polls when one is due, side by side: each waits for its host's turn
   * (politeFetch: one request at a time per host key, as the crawl's pages), so feeds of different
   * hosts are requested at once and a slow or endless feed holds back only its own host. A feed
   * whose poll is still under way is not chosen again; the others' periods go on meanwhile (one
   * poll waited for the one before, and a feed trickling its body until the total timeout stopped
   * every other feed from being polled). Resolves when the period's polls have ended.
   */
  tick(now: number): Promise<void> | null {
    // A clock set back: the period it planned ahead is counted from now (the scheduler does the same).
    this.nextPeriodAt = Math.min(this.nextPeriodAt, now + this.o.minPollMinutes * this.minuteMs);
    if (now < this.nextPeriodAt) return null;
    this.noteExclusions(now);
    const skipped = (url: string) => this.excluded.has(url) || this.polled.has(url);
    const chosen = this.scheduler.choose(this.clock(now), skipped);
    // Feeds under way are left out: their polls' ends make them eligible a period later.
    const eligibleAt = chosen.length ? null : this.scheduler.nextEligibleAt((url) => this.polled.has(url));
    this.nextPeriodAt = periodAfter(now, chosen.length > 0, eligibleAt === null ? null : Math.ceil(this.unclock(eligibleAt)), this.o.minPollMinutes * this.minuteMs);
    if (!chosen.length) return null;
    return Promise.all(chosen.map((url) => this.poll(url).catch((err) => console.error(`tidemark: feed ${url}: ${(err as Error).message}`)))).then(() => undefined);
  }

  /**
   * The crawl's exclude patterns changed (a live exclusion applied or removed): feeds they now
   * exclude are recorded at once rather than at the next period's start, which may be far off.
   */
  exclusionsChanged(now: number): void {
    this.noteExclusions(now);
  }

  /** Records each feed an exclude pattern now matches (once), and forgets those no pattern matches any more. */
  private noteExclusions(now: number): void {
    for (const url of this.o.feeds) if (!this.polled.has(url)) this.noteExclusion(url, now);
  }

  private noteExclusion(url: string, now: number): void {
    const own = this.excludingPattern(url);
    const movedTo = own === null ? (this.movedTo.get(url) ?? null) : null;
    const pattern = own ?? (movedTo === null ? null : this.excludingPattern(movedTo));
    if (pattern === null) {
      this.excluded.delete(url);
      this.movedTo.delete(url);
    } else if (!this.excluded.has(url)) this.recordExcluded(url, pattern, now, movedTo);
  }

  /** The exclude pattern that matches `url` in its canonical form (as seeds are matched), or null. */
  private excludingPattern(url: string): string | null {
    return this.ctx.excludingPattern(canonicalize(url, undefined, { queryHandling: this.ctx.icd.scope.queryHandling }) ?? url);
  }

  /**
   * A feed found excluded by `pattern` (matching `movedTo`, the address it redirected to, when not
   * null): recorded as a poll without items, which the scheduler then skips, and logged once as an
   * exclusion.
   */
  private recordExcluded(url: string, pattern: string, at: number, movedTo: string | null = null): void {
    this.excluded.add(url);
    if (movedTo !== null) this.movedTo.set(url, movedTo);
    const ended = excludedEnd(pattern, movedTo);
    this.ctx.store.addLog({ url, status: null, outcome: 'exclude-match', message: `feed not polled: ${ended.detail}`, size: 0, durationMs: 0, retries: 0, at: new Date(at) });
    this.ctx.stats.recordExclusion('exclude-match');
    this.scheduler.recordPoll(url, this.clock(at), []);
    this.store(url, { at, ...ended, listed: 0, fresh: 0, ...(movedTo === null ? {} : { movedTo }) });
  }

  private store(url: string, poll: FeedPoll): void {
    const memory = this.scheduler.memoryOf(url);
    if (memory) this.o.store?.save(url, this.scaled(memory, (t) => this.unclock(t)), poll);
    this.o.onPoll?.(url, poll);
  }

  private async poll(url: string): Promise<void> {
    // Found excluded since the period's polls were chosen (exclusionsChanged): already recorded.
    if (this.excluded.has(url)) return;
    this.polled.add(url);
    try {
      await this.pollOnce(url);
    } finally {
      this.polled.delete(url);
    }
    // Excluded while its request was under way: recorded now rather than at the next period's start.
    if (!this.excluded.has(url)) this.noteExclusion(url, Date.now());
  }

  private async pollOnce(url: string): Promise<void> {
    let items: { id: string; publishedAt: number | null }[] = [];
    let ended: PollEnd | null = null;
    // A feed that moved answers with a redirect: its new address is polled in the same poll, each
    // hop archived (the fetcher follows none); a loop is given up after MAX_FEED_REDIRECTS.
    for (let hop = 0, target = url; hop <= MAX_FEED_REDIRECTS; hop++) {
      // Excluded since the period began (a live exclusion), or moved to an excluded address: not
      // requested. The feed is recorded excluded, the address it moved to remembered, and it is not
      // requested again while a pattern matches it (noteExclusion).
      const pattern = this.excludingPattern(target);
      if (pattern !== null) return this.recordExcluded(url, pattern, Date.now(), hop === 0 ? null : target);
      // The feed's host is often the crawl's own: the poll takes its turn on the host's politeness clock.
      // A feed is a URL of the ICD's, like a seed: robots.txt may forbid it (or its new address).
      const result = await politeFetch(this.ctx, target, { halted: () => this.o.halted?.() ?? false, robots: true });
      if (result.kind === 'robots-refused') {
        // A pause cut robots.txt's fetch off (asked again at once): that says nothing of the feed.
        if (result.verdict.retryAt !== undefined && this.o.halted?.()) return;
        // Logged once for this poll (the next is a period away): a refusal as a page's is, an exclusion;
        // robots.txt not fetched for now as a recrawl refetch's is, a failure (the poll got nothing).
        const refusal = feedRobotsRefusal(result.verdict);
        this.ctx.store.addLog({ url: target, status: null, outcome: refusal.outcome, message: refusal.message, size: 0, durationMs: 0, retries: 0, at: new Date() });
        if (refusal.failed) this.ctx.stats.recordFailure(refusal.outcome);
        else this.ctx.stats.recordExclusion(refusal.outcome);
      }
      // A name that does not resolve: nothing requested, a fetch that failed all the same (outcome `dns`).
      const outcome = result.kind === 'dns-failed' ? dnsFailure(result.message) : outcomeOf(result);
      if (outcome && !outcome.ok && outcome.reason === 'interrupted') return; // a pause or stop: nothing observed
      // What a failed fetch received (a 5xx after the retries, a body cut off) is archived, logged with the
      // failure as its outcome; one with nothing to archive (refused, a timeout before a byte) is logged so too.
      if (outcome && !outcome.ok) {
        if (outcome.partial) await this.ctx.archiveAuxiliary(outcome.partial, { message: `feed poll failed: ${outcome.message}`, failure: outcome.reason, timing: outcome });
        else logUnanswered(this.ctx, target, outcome, 'feed poll failed');
      }
      ended = pollEnd(result);
      if (!outcome?.ok) break;
      const ex = outcome.exchange;
      const location = ex.status >= 300 && ex.status < 400 ? locationOf(ex.headers) : null;
      const next = location?.kind === 'one' ? canonicalize(location.text, target) : null;
      const read = await this.itemsOf(target, ex, outcome);
      items = read.items;
      // A body cut short or whose coding is damaged lists only part of the feed: read, it made the
      // items past the cut vanish (forgotten, new again when they came back) and skewed the
      // posting-rate model. The poll failed; the feed's remembered items and model stay as they were.
      if (read.unread !== null) {
        ended = { outcome: 'failed', status: ex.status, detail: read.unread };
        break;
      }
      // A 2xx that holds no feed (an HTML page: a moved feed's site, a login or error page) listed
      // nothing because there is nothing to list: the poll failed, saying what came instead.
      if (read.noFeed !== null) {
        ended = { outcome: 'failed', status: ex.status, detail: read.noFeed };
        break;
      }
      if (!next || next === target) break;
      target = next;
    }
    const at = Date.now();
    // A poll that gave nothing (robots.txt forbids the feed, DNS or the server failed, no feed in
    // the answer) counts as a poll without articles: left out, the feed stayed the scheduler's
    // first choice every period, and with fewer polls a period than feeds the others were never polled.
    const fresh = this.scheduler.recordPoll(url, this.clock(at), items);
    if (fresh.length) {
      // Found in the feed, not on a seed: the feed the ICD names is their way in (one that moved
      // included: the archivist subscribed to it), an entry point at depth 0 as a seed is; the
      // depth limit does not refuse them (FEED_ITEM_KIND).
      const feed = canonicalize(url, undefined, { queryHandling: this.ctx.icd.scope.queryHandling }) ?? url;
      this.ctx.queueDiscovered(fresh.map((u) => ({ url: u, kind: FEED_ITEM_KIND, anchorText: '', context: '', source: 'feed@item', priority: FEED_ARTICLE_PRIORITY })), { url: feed, depth: 0, scopeHops: 0 });
      this.queued += fresh.length;
    }
    // Stored after its articles are queued: a worker that dies in between polls the feed again
    // sooner, and finds them queued (the frontier ignores them), rather than never queueing them.
    this.store(url, { at, ...(ended ?? pollEnd(null)), listed: items.length, fresh: fresh.length });
  }

  /**
   * The feed's items as the scheduler counts them, or none and why its body was not read (`unread`:
   * cut short, its content coding damaged or stopping early, a decompression bomb); archives the
   * answer (which releases its body), its crawl-log entry saying why a body was not read, with the
   * fault's reason as outcome (FeedBodyFault), or, read, what of its DOCTYPE was not expanded (unexpandedDtdNote).
   */
  private async itemsOf(url: string, ex: HttpExchange, timing: FetchTiming): Promise<{ items: { id: string; publishedAt: number | null }[]; unread: string | null; noFeed: string | null }> {
    let body: Buffer | null = null;
    let unread: FeedBodyFault | null = null;
    if (ex.status >= 200 && ex.status < 300) {
      const max = this.ctx.icd.limits.maxDecodedBytes;
      const decoded = await decodeBody(ex.body, ex.headers['content-encoding'], max).catch((err: unknown) => err as Error);
      unread = feedBodyFault(ex.truncated, decoded, ex.headers['content-encoding'], max);
      if (unread === null && !(decoded instanceof Error)) body = decoded.bytes;
    }
    const noFeed = body && !isFeedDocument(body, ex.headers['content-type']) ? noFeedDetail(ex.headers['content-type']) : null;
    // Read before it is archived, so its entry can say what of its DOCTYPE was left undone.
    const feed: FeedResult | null = body && noFeed === null ? parseFeed(body, ex.headers['content-type'], url) : null;
    const message = unread !== null ? `feed poll failed: ${unread.detail}` : noFeed !== null ? `feed poll failed: ${noFeed}` : feedPollMessage(feed);
    await this.ctx.archiveAuxiliary(ex, { message, failure: unread?.reason, timing });
    if (!feed) return { items: [], unread: unread?.detail ?? null, noFeed };
    const items = feed.items.map((i) => {
      const published = i.published ? parseDateAsUtc(i.published) : NaN;
      return { id: i.url, publishedAt: Number.isFinite(published) ? this.clock(published) : null };
    });
    return { items, unread: null, noFeed: null };
  }
}

/** The crawl-log message of a feed poll whose answer was read (or was no 2xx): a note on its unexpanded DOCTYPE, if any. Pure. */
export function feedPollMessage(feed: Pick<FeedResult, 'unexpandedDtd'> | null): string {
  return feed?.unexpandedDtd ? `feed poll; ${unexpandedDtdNote('feed', feed.unexpandedDtd)}` : 'feed poll';
}

/** Why a 2xx answer to a feed poll listed nothing when it holds no feed: what type it was instead. Pure. */
export function noFeedDetail(contentType: string | undefined): string {
  const type = contentType?.split(';')[0]?.trim().toLowerCase() || 'no Content-Type';
  return `no feed found in the answer (${type}): not RSS, Atom nor JSON Feed`;
}

/** Why a feed's body is not read: the crawl-log outcome of its poll, and the reason in words. */
export interface FeedBodyFault {
  reason: Extract<FailureReason, 'decompression-bomb' | 'unreadable-body'>;
  detail: string;
}

/**
 * Why a feed's 2xx body cannot be read as the whole feed, or null when it can: the transport cut
 * it (`truncated`, WARC-Truncated), its content coding broke off at corrupt data or stops before its
 * end, it could not be decoded at all (`decoded` an error), or with no coding to undo it is longer
 * than `maxDecodedBytes`: `unreadable-body`; it decodes to more than `maxDecodedBytes`:
 * `decompression-bomb`. Pure.
 */
export function feedBodyFault(truncated: HttpExchange['truncated'], decoded: Pick<DecodedBody, 'damaged' | 'cutOff'> | Error, contentEncoding: string | undefined, maxDecodedBytes: number): FeedBodyFault | null {
  const coding = `its content coding (${(contentEncoding ?? '').trim() || 'none'})`;
  const kept = "its items not read, the feed's remembered items kept";
  const unreadable = (why: string): FeedBodyFault => ({ reason: 'unreadable-body', detail: `${why}; ${kept}` });
  if (truncated === 'length') return unreadable('the body was cut at the size cap (limits.maxBodyBytes)');
  if (truncated) return unreadable(`the body was cut short (${truncated})`);
  if (decoded instanceof DecompressionBombError) {
    // A body with no coding to undo is no bomb: too long to read whole, as one cut at the size cap.
    if (!parseContentCodings(contentEncoding)?.length) return unreadable(`the body is longer than limits.maxDecodedBytes (${maxDecodedBytes} bytes)`);
    return { reason: 'decompression-bomb', detail: `the body decodes to more than ${maxDecodedBytes} bytes (limits.maxDecodedBytes); ${kept}` };
  }
  if (decoded instanceof Error) return unreadable(`the body could not be decoded: ${decoded.message}`);
  if (decoded.damaged) return unreadable(`${coding} is damaged midway`);
  if (decoded.cutOff) return unreadable(`${coding} stops before its end: the body was cut short`);
  return null;
}

/**
 * The crawl-log outcome and message of a feed poll robots.txt refused, and whether it counts among
 * the failures. A refusal is logged as a page's is, an exclusion: `robots` (disallowed) or
 * `robots-unavailable` (robots.txt unreachable for good). robots.txt not fetched for now (`retryAt`;
 * the feed's next poll asks again) is logged as a recrawl refetch's is, `robots-retry`, a failure. Pure.
 */
export function feedRobotsRefusal(verdict: RobotsVerdict): { outcome: string; message: string; failed: boolean } {
  if (verdict.retryAt !== undefined) return { outcome: ROBOTS_RETRY_OUTCOME, message: 'feed not polled: robots.txt could not be fetched for now; asked again at its next poll', failed: true };
  const { outcome, why } = ROBOTS_REFUSAL[robotsExclusionOf(verdict)];
  return { outcome, message: `feed not polled: ${why}`, failed: false };
}

type PollEnd = Pick<FeedPoll, 'outcome' | 'status' | 'detail'>;

/** A poll not made: an exclude pattern matches the feed, or `movedTo`, the address it redirected to. */
export function excludedEnd(pattern: string, movedTo: string | null): PollEnd {
  const what = movedTo === null ? 'it' : `the address it moved to, ${movedTo}`;
  return { outcome: 'excluded', status: null, detail: `the crawl's exclude pattern ${pattern} matches ${what}` };
}

/** Why robots.txt refused a poll, as Feeds and recrawls shows it: for now (the next poll asks again) or for good. */
function robotsRefusalDetail(verdict: RobotsVerdict): string {
  if (verdict.retryAt !== undefined) return 'robots.txt could not be fetched for now; asked again at the next poll';
  if (verdict.reason === 'robots-disallowed') return 'robots.txt disallows it';
  return 'robots.txt could not be read: unreachable through its tries, it counts as disallowing the site';
}

/**
 * How a poll's last request ended, as the cockpit reports it: a 2xx answer is `ok`; a 3xx still
 * there once the poll stopped following (no Location, a loop, more than MAX_FEED_REDIRECTS hops)
 * led to no feed. Null: no request was made.
 */
export function pollEnd(result: PoliteFetchResult | null): PollEnd {
  if (!result) return { outcome: 'failed', status: null, detail: 'not requested' };
  if (result.kind === 'robots-refused') {
    return { outcome: 'robots', status: null, detail: robotsRefusalDetail(result.verdict) };
  }
  if (result.kind === 'dns-failed') return { outcome: 'failed', status: null, detail: `the host name did not resolve: ${result.message}` };
  const o = result.outcome;
  if (!o.ok) return { outcome: 'failed', status: o.partial?.status ?? null, detail: `${o.reason}: ${o.message}` };
  const status = o.exchange.status;
  if (status >= 200 && status < 300) return { outcome: 'ok', status, detail: null };
  if (status >= 300 && status < 400) return { outcome: 'failed', status, detail: 'its redirects led to no feed' };
  return { outcome: 'http-error', status, detail: `answered ${status}` };
}
