import type { HostAnswer } from '../coherence/host-backoff';
import { waitEndAsOf } from './politeness-delay';

/**
 * A crawl's back-off for a host that stops answering (Heritrix snoozes such a host's queue): after
 * `failuresBeforeBackoff` URLs of the host in a row end with no answer at all (fetch/no-answer.ts),
 * none of its URLs is requested for `backoffMs`; then one is tried, and its answer, any answer,
 * ends the back-off, while no answer doubles the wait (up to MAX_HOST_BACKOFF_MS). After `giveUpMs`
 * without an answer, counted from the first back-off, the host is given up: its waiting URLs fail
 * as `host-unreachable`. Pure: the crawl engine keeps one state a host (crawler/host-outages.ts) and
 * does what the events say. Recrawl rounds have a back-off of their own, counted in rounds
 * (coherence/host-backoff.ts), whose HostAnswer this one reads.
 */

/** The ICD's settings of the back-off (limits.hostFailuresBeforeBackoff, hostBackoffMs, hostGiveUpMs). */
export interface HostOutageLimits {
  /** URLs in a row without an answer that put a host into back-off; 0: never. */
  failuresBeforeBackoff: number;
  /** The first back-off's length. */
  backoffMs: number;
  /** How long a host may stay without an answer from its first back-off before it is given up; 0: never. */
  giveUpMs: number;
}

/** The longest wait between two tries of a host in back-off. */
export const MAX_HOST_BACKOFF_MS = 30 * 60_000;

/** Why a host's waiting URLs failed when it was given up (the frontier's reason, the crawl's failures by reason). */
export const HOST_UNREACHABLE = 'host-unreachable';

/**
 * A host that gave no answer lately (a host absent from the engine's map is healthy). `failing`:
 * fewer URLs in a row than the threshold; `backoff`: none of its URLs is requested before `nextTryAt`,
 * when one is tried; `given-up`: its URLs fail without a request. `since`: when its back-off began,
 * on the wall clock; `sinceMonotonic`: the same moment on the monotonic clock, when the caller
 * reads one (afterUrlEnded's `monotonic`), so a step of the wall clock moves `since` with it.
 */
export type HostOutage =
  | { phase: 'failing'; failures: number; reason: string }
  | { phase: 'backoff'; failures: number; tries: number; since: number; sinceMonotonic?: number; waitMs: number; nextTryAt: number; reason: string }
  | { phase: 'given-up'; failures: number; tries: number; since: number; sinceMonotonic?: number; reason: string };

/** What changed, for the crawl log (one entry each) and the frontier; null: nothing to tell. */
export type OutageEvent =
  | { kind: 'backoff'; failures: number; reason: string; nextTryAt: number }
  | { kind: 'try-failed'; tries: number; reason: string; waitMs: number; nextTryAt: number }
  | { kind: 'answered'; tries: number; downMs: number }
  | { kind: 'given-up'; tries: number; downMs: number; reason: string };

/**
 * Whether a URL of a host in back-off, leased at `leasedAt`, is the host's try: leased once the
 * back-off's wait was over (the frontier leases one URL then), or with its next try further ahead
 * than its wait, set before the wall clock was set back (waitEndAsOf, as the frontier's hold reads
 * it). The others in flight were leased before the back-off began.
 */
export function isTry(o: HostOutage | undefined, leasedAt: number): boolean {
  return o?.phase === 'backoff' && leasedAt >= waitEndAsOf(o.nextTryAt, o.waitMs, leasedAt);
}

/** Whether a URL leased at `leasedAt` is held back: its host went into back-off since, and it is not the try (a host batch's later URLs). */
export function heldBack(o: HostOutage | undefined, leasedAt: number): boolean {
  return o?.phase === 'backoff' && !isTry(o, leasedAt);
}

/** Until when the frontier holds the host's URLs (then leases one, the try); null: not held. */
export function holdUntil(o: HostOutage | undefined): number | null {
  return o?.phase === 'backoff' ? o.nextTryAt : null;
}

/**
 * The host's outage after one of its URLs, leased at `leasedAt`, ended at `now` with `answer` (after
 * its own retries; a URL that said nothing of the host, not requested or given back, is not
 * counted). Any answer ends it. No answer counts one more in a row, puts the host into back-off at
 * the threshold, and, for its try, doubles the wait or gives it up. The last try is made when the
 * give-up time comes, not up to a whole wait after it.
 */
export function afterUrlEnded(
  o: HostOutage | undefined, answer: HostAnswer, leasedAt: number, now: number, limits: HostOutageLimits, monotonic?: number,
): { outage: HostOutage | undefined; event: OutageEvent | null } {
  if ((o?.phase === 'backoff' || o?.phase === 'given-up') && monotonic !== undefined && o.sinceMonotonic !== undefined) {
    // The time down is the monotonic clock's: a wall clock set forward an hour (NTP after a VM's
    // resume, `date -s`) gave a host up an hour early, and one set back kept it an hour longer.
    o = { ...o, since: now - (monotonic - o.sinceMonotonic) };
  }
  // A back-off said to have begun after now began before the wall clock was set back: it counts from now.
  if ((o?.phase === 'backoff' || o?.phase === 'given-up') && o.since > now) o = { ...o, since: now };
  if (answer.answered) {
    if (o?.phase === 'backoff' || o?.phase === 'given-up') return { outage: undefined, event: { kind: 'answered', tries: o.tries, downMs: now - o.since } };
    return { outage: undefined, event: null };
  }
  const { reason } = answer;
  if (limits.failuresBeforeBackoff === 0) return { outage: undefined, event: null };
  if (o === undefined || o.phase === 'failing') {
    const failures = (o?.failures ?? 0) + 1;
    if (failures < limits.failuresBeforeBackoff) return { outage: { phase: 'failing', failures, reason }, event: null };
    const nextTryAt = nextTry(now, limits.backoffMs, now, limits);
    const began = { since: now, ...(monotonic === undefined ? {} : { sinceMonotonic: monotonic }) };
    return { outage: { phase: 'backoff', failures, tries: 0, ...began, waitMs: limits.backoffMs, nextTryAt, reason }, event: { kind: 'backoff', failures, reason, nextTryAt } };
  }
  const failures = o.failures + 1;
  // A URL in flight when the back-off began, or one of a host given up: the host's state stands.
  if (o.phase === 'given-up' || !isTry(o, leasedAt)) return { outage: { ...o, failures, reason }, event: null };
  const tries = o.tries + 1;
  if (limits.giveUpMs > 0 && now - o.since >= limits.giveUpMs) {
    const { since, sinceMonotonic } = o;
    return { outage: { phase: 'given-up', failures, tries, since, ...(sinceMonotonic === undefined ? {} : { sinceMonotonic }), reason }, event: { kind: 'given-up', tries, downMs: now - o.since, reason } };
  }
  const waitMs = Math.min(2 * o.waitMs, MAX_HOST_BACKOFF_MS);
  const nextTryAt = nextTry(now, waitMs, o.since, limits);
  return { outage: { ...o, failures, tries, waitMs, nextTryAt, reason }, event: { kind: 'try-failed', tries, reason, waitMs, nextTryAt } };
}

/** The next try: a wait after now, or the give-up time if that comes first. */
function nextTry(now: number, waitMs: number, since: number, limits: HostOutageLimits): number {
  const at = now + waitMs;
  return limits.giveUpMs > 0 ? Math.max(now, Math.min(at, since + limits.giveUpMs)) : at;
}
