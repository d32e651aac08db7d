import type { FetchOutcome } from '../fetch';
import { nextAllowedAsOf, type KeyHolder, type KeyTiming } from '../politeness';
import { robotsFailureMessage, type RobotsVerdict } from '../robots';
import { hostKeyOf } from '../url';
import type { CrawlContext } from './crawl-context';
import { haltedOutcome, requestTiming, takeHostKey } from './key-turn';
import { waitUntil } from './wait-until';

export interface PoliteFetchOptions {
  conditional?: { etag?: string; lastModified?: string };
  /** A pause or stop: the wait for the host's turn ends, as an `interrupted` outcome. */
  halted(): boolean;
  /**
   * Ask robots.txt first (fetching it, holding the host's key, when this run has not): a URL it
   * disallows, or while it cannot be fetched, is not requested (`robots-refused`). For feed polls,
   * URLs of the ICD that no page of the crawl led to.
   */
  robots?: boolean;
}

/**
 * What politeFetch did. `outcome`: the fetch's outcome (`interrupted` when a pause or stop ended
 * the wait for the host's turn or the fetch). Nothing was requested when the host's name did not
 * resolve (`dns-failed`) or robots.txt said no (`robots-refused`, with its verdict: disallowed,
 * unavailable, or — `retryAt` — unreachable for now): callers that tell these apart can. No
 * connection to the host for robots.txt (refused, unresolvable) is the request's own failure: an
 * `outcome` with that reason, as the request would have ended.
 */
export type PoliteFetchResult =
  | { kind: 'outcome'; outcome: FetchOutcome }
  | { kind: 'dns-failed'; message: string }
  | { kind: 'robots-refused'; verdict: RobotsVerdict };

/** The fetch's outcome, or null when nothing was requested: for callers to whom both mean "nothing observed". */
export function outcomeOf(result: PoliteFetchResult): FetchOutcome | null {
  return result.kind === 'outcome' ? result.outcome : null;
}

/** What robots.txt's verdict makes of the request: null when it may be made. */
function refusedByRobots(verdict: RobotsVerdict): PoliteFetchResult | null {
  if (verdict.allowed) return null;
  if (!verdict.failure) return { kind: 'robots-refused', verdict };
  // Not requested: robots.txt's own crawl-log entry has the time and the retries.
  return { kind: 'outcome', outcome: { ok: false, reason: verdict.failure.reason, message: robotsFailureMessage(verdict.failure), durationMs: 0, retries: 0, notRequested: true } };
}

/**
 * A request of the crawl outside the frontier's leases — a revisit, a recrawl, a feed poll — under
 * the politeness a page gets: resolves the host, takes the host's key (its
 * IP) once no request of any crawl of the worker holds it, waits out the delay after the key's last
 * request, fetches, and frees the key with the request's timing. So these requests take turns with
 * the crawl's own pages and with every other crawl of the host (the registry is the worker's),
 * instead of keeping a clock of their own — and are not starved by a crawl that always has a page
 * of the host ready.
 */
export async function politeFetch(ctx: CrawlContext, url: string, o: PoliteFetchOptions): Promise<PoliteFetchResult> {
  const resolved = await ctx.resolveHost(url);
  if ('error' in resolved) return { kind: 'dns-failed', message: resolved.error };
  // Asked as the crawl first asked for it: the page it was found on and how (cookies' SameSite context).
  const found = ctx.frontier.lookup(ctx.crawlId, url);
  const request = { ip: resolved.ip, conditional: o.conditional, ...(found?.url === url ? { foundOn: { via: found.viaUrl, kind: found.kind } } : {}) };
  const fetched = (outcome: FetchOutcome): PoliteFetchResult => ({ kind: 'outcome', outcome });
  if (!ctx.icd.politeness.enabled) {
    const verdict = o.robots ? (await ctx.askRobots(url, hostKeyOf(url))).verdict : null;
    return (verdict && refusedByRobots(verdict)) ?? fetched(await ctx.fetcher.fetch(url, request));
  }
  const host = hostKeyOf(url);
  const { frontier, crawlId } = ctx;
  const holder: KeyHolder = { host };
  const interrupted = fetched(haltedOutcome());
  // The key first, as soon as no request holds it (this one holds none yet: it cannot deadlock).
  if ((await takeHostKey(frontier, holder, resolved.ip, { halted: o.halted })) !== 'held') return interrupted;
  let timing: KeyTiming | null = null;
  let fetching = false;
  try {
    // Then the delay after the key's last request, holding the key (the leases of every crawl wait).
    if (!(await waitUntil(() => frontier.hostReadyAt(crawlId, host), o.halted))) return interrupted;
    if (o.robots) {
      // robots.txt fetched just now was a request to the host: the key's clock and the delay count it.
      const robots = await ctx.askRobots(url, host);
      const refused = refusedByRobots(robots.verdict);
      if (refused) {
        timing = robots.fetched;
        return refused;
      }
      const before = robots.fetched;
      if (before && !(await waitUntil(() => nextAllowedAsOf(before, ctx.icd.politeness, frontier.robotsDelayMs(host), Date.now()), o.halted))) {
        timing = robots.fetched;
        return interrupted;
      }
    }
    fetching = true;
    const outcome = await ctx.fetcher.fetch(url, request);
    timing = requestTiming(outcome);
    return fetched(outcome);
  } finally {
    // Halted before the request: the clock stays; a fetch that threw counts as a request ended now.
    frontier.releaseKey(holder, timing ?? (fetching ? { lastStartAt: Date.now(), lastDurationMs: 0 } : null));
  }
}
