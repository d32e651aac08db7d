import { cutByFailedFetch, type FailureReason, type HttpExchange } from '../capture';
import { isSilentFailure, NO_CONNECTION_REASONS, type FetchOutcome } from '../fetch';
import { headerUrlText } from '../fetch/http-heads';

/** What one robots.txt fetch means (RFC 9309 §2.3.1). */
export type RobotsResponse =
  | { kind: 'parse'; exchange: HttpExchange }
  | { kind: 'redirect'; location: string }
  /** "Unavailable" (4xx, or a redirect without a target): no rules, crawl everything. */
  | { kind: 'allow-all'; why: string }
  /**
   * "Unreachable" (5xx, 429, headers or total timeouts, cut connections, a body cut short): wait and
   * ask again. `silence`: the server accepted the connection and answered nothing — not a byte
   * before the timeout, or before the connection closed or reset.
   */
  | { kind: 'unreachable'; why: string; silence?: ConnectionFailure }
  /** No connection could be made at all (refused, no route, timed out, the name did not resolve): nothing answers there. */
  | { kind: 'no-connection'; failure: ConnectionFailure };

/** Why a host could not be connected to, as the fetch that tried ended (after its own retries). */
export interface ConnectionFailure {
  reason: FailureReason;
  message: string;
  /** A server accepted the connection and never answered: the tries of robots.txt made (absent: no connection at all). */
  silentTries?: number;
}

/** Why a URL of a host in `failure`'s state was not requested, for the crawl log. */
export function robotsFailureMessage(failure: ConnectionFailure): string {
  if (failure.silentTries === undefined) return `no ${failure.reason === 'tls' ? 'TLS ' : ''}connection to the host for robots.txt (${failure.message})`;
  const tries = ['', 'once', 'twice'][failure.silentTries] ?? `${failure.silentTries} times`;
  return `no answer from the host for robots.txt, tried ${tries} (${failure.message})`;
}

/**
 * How the crawl-log message of a robots.txt request that got nothing to archive begins. The entry is
 * told apart from a page's failure by its subject ('robots'), not by this text; the migration that
 * added the subject marked the entries written before it by it.
 */
const ROBOTS_UNANSWERED_PREFIX = 'robots.txt request got no answer';

/** The crawl-log message of a robots.txt request that got nothing (`detail`: the fetch's message), and what follows. */
export function robotsUnansweredMessage(detail: string, next: string): string {
  return `${ROBOTS_UNANSWERED_PREFIX} (${detail}); ${next}`;
}

/**
 * Classifies a robots.txt fetch. A connection that could not be made is told apart from an
 * unreachable robots.txt (NO_CONNECTION_REASONS): the cache fails the host's URLs with its reason. 429 counts as unreachable rather than unavailable: the server
 * asks us to slow down, not to crawl everything. A 2xx body cut short by time or a broken
 * connection is unreachable too (a missing Disallow line must not read as permission); one cut
 * at the size cap is parsed, as RFC 9309 allows.
 */
export function classifyRobotsResponse(outcome: FetchOutcome, fromUrl: string): RobotsResponse {
  const exchange = outcome.ok ? outcome.exchange : outcome.partial;
  // A certificate the crawl does not accept fails every try the same way: waiting for another brings nothing.
  if (!outcome.ok && !exchange && (NO_CONNECTION_REASONS.has(outcome.reason) || outcome.reason === 'tls')) {
    return { kind: 'no-connection', failure: { reason: outcome.reason, message: outcome.message } };
  }
  if (!outcome.ok && isSilentFailure(outcome)) {
    return { kind: 'unreachable', why: `${outcome.reason}: ${outcome.message}`, silence: { reason: outcome.reason, message: outcome.message } };
  }
  if (!exchange) return { kind: 'unreachable', why: outcome.ok ? 'no exchange' : `${outcome.reason}: ${outcome.message}` };
  const { status } = exchange;
  if (status >= 200 && status < 300) {
    if (cutByFailedFetch(exchange.truncated)) return { kind: 'unreachable', why: `body cut short (${exchange.truncated})` };
    return { kind: 'parse', exchange };
  }
  if (status >= 300 && status < 400) {
    const location = exchange.headers['location'];
    if (!location) return { kind: 'allow-all', why: `HTTP ${status} without Location` };
    let target: URL;
    try {
      target = new URL(headerUrlText(location), fromUrl);
    } catch {
      return { kind: 'allow-all', why: `HTTP ${status} with an invalid Location` };
    }
    // A Location the crawler cannot fetch (mailto:, javascript:, ftp:) is a redirect that cannot be
    // followed: "unavailable" as one without a target (RFC 9309 §2.3.1.2), not a host that gave no answer.
    if (target.protocol !== 'http:' && target.protocol !== 'https:') return { kind: 'allow-all', why: `HTTP ${status} to a ${target.protocol} URL` };
    return { kind: 'redirect', location: target.href };
  }
  if (status === 429 || status >= 500) return { kind: 'unreachable', why: `HTTP ${status}` };
  if (status >= 400) return { kind: 'allow-all', why: `HTTP ${status}` };
  return { kind: 'unreachable', why: `HTTP ${status}` };
}
