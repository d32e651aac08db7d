import { dnsFailure, type FetchOutcome } from '../fetch';
import { nextAllowedAsOf, type KeyHolder, type KeyTiming } from '../politeness';
import { hostKeyOf } from '../url';
import type { CrawlContext } from './crawl-context';
import { haltedOutcome, requestTiming, takeHostKey } from './key-turn';
import { waitUntil } from './wait-until';

/** One request of a robots.txt fetch; `ownKey`: made under the key of the host that asked. */
export interface RobotsRequest {
  outcome: FetchOutcome;
  ownKey: boolean;
}

/**
 * One request of the robots.txt fetch (redirects included) asked for by a request of `askingHost`,
 * which holds that host's politeness key: the robots stage's lease, or politeFetch. Under that key
 * (`ownKey`) — robots.txt itself, a redirect on the host or to another name on its IP, or a crawl
 * without politeness — it is fetched in the key's turn: at once for robots.txt itself, a redirect
 * hop after the delay of the hop before it (ownKeyFetch), and the asking request waits its delay after it.
 * A redirect to another IP is a request to that IP: it takes its turn on that key like any other
 * request (inTurnOfOtherKey). DNS goes through the context's resolver; a failure is unreachable.
 */
export async function robotsRequest(ctx: CrawlContext, url: string, askingHost: string): Promise<RobotsRequest> {
  const host = hostKeyOf(url);
  if (!ctx.icd.politeness.enabled) return { outcome: await ctx.fetcher.fetch(url), ownKey: true };
  if (host === askingHost) return { outcome: await ownKeyFetch(ctx, url, askingHost), ownKey: true };
  const resolved = await ctx.resolveHost(url);
  if ('error' in resolved) return { outcome: dnsFailure(resolved.error), ownKey: false };
  if (resolved.ip === ctx.frontier.hostKey(askingHost)) return { outcome: await ownKeyFetch(ctx, url, askingHost), ownKey: true };
  return { outcome: await inTurnOfOtherKey(ctx, url, { host }, resolved.ip, askingHost), ownKey: false };
}

/**
 * A request under the asking host's own key. When a robots.txt request was made under it already
 * in this turn (the hop before a redirect on the host, or to another name on its IP), this one is
 * the key's next request and waits the key's delay after it: a robots.txt redirecting to itself
 * got its five hops within a few milliseconds.
 */
async function ownKeyFetch(ctx: CrawlContext, url: string, askingHost: string): Promise<FetchOutcome> {
  const before = ctx.pendingRobotsFetch(askingHost);
  if (before) {
    const readyAt = () => nextAllowedAsOf(before, ctx.icd.politeness, ctx.frontier.robotsDelayMs(askingHost), Date.now());
    if (!(await waitUntil(readyAt, ctx.halted))) return haltedOutcome();
  }
  return ctx.fetcher.fetch(url);
}

/**
 * Waits until no request of any crawl of the worker holds the key `ip`, holds it, waits out its
 * delay, fetches, and frees it with the request's timing, as politeFetch does — all while the
 * asking request holds its own key. Two requests can each hold the key the other waits for (two
 * hosts whose robots.txt redirect to each other, fetched at once): the registry keeps the worker's
 * waits of this kind, and one that would close such a cycle is not begun — that robots.txt is
 * unreachable for now and tried again later (the cache's retry: it counts as one of its tries,
 * since robots.txt could not be had, unlike a wait a pause ended), while the others go on. A time
 * bound would end the deadlock too, but late, and would also give up on a key held long for good
 * reasons (a host batch under a long Crawl-delay), counting towards disallow-all.
 */
async function inTurnOfOtherKey(ctx: CrawlContext, url: string, holder: KeyHolder, ip: string, askingHost: string): Promise<FetchOutcome> {
  const { frontier, crawlId, halted } = ctx;
  const turn = await takeHostKey(frontier, holder, ip, { halted, holding: askingHost });
  if (turn === 'halted') return haltedOutcome();
  if (turn === 'deadlock') {
    return { ok: false, reason: 'internal', message: `robots.txt redirects to ${holder.host}, whose key is held by a request waiting for ${askingHost}'s`, durationMs: 0, retries: 0 };
  }
  let timing: KeyTiming | null = null;
  let fetching = false;
  try {
    if (!(await waitUntil(() => frontier.hostReadyAt(crawlId, holder.host), halted))) return haltedOutcome();
    fetching = true;
    const outcome = await ctx.fetcher.fetch(url, { ip });
    timing = requestTiming(outcome);
    return outcome;
  } finally {
    // Halted before the request: the clock stays; a fetch that threw counts as a request ended now.
    frontier.releaseKey(holder, timing ?? (fetching ? { lastStartAt: Date.now(), lastDurationMs: 0 } : null));
  }
}
