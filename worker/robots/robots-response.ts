import type { FailureReason, HttpExchange } from '../capture';
import type { FetchOutcome } from '../fetch';
import { headerUrlText } from '../fetch/http-heads';

/** What one robots.txt fetch means (RFC 9309 §2.3.1). */
export type RobotsResponse =
  | { kind: 'parse'; exchange: HttpExchange }
  | { kind: 'redirect'; location: string }
  /** "Unavailable" (4xx, or a redirect without a target): no rules, crawl everything. */
  | { kind: 'allow-all'; why: string }
  /** "Unreachable" (5xx, 429, headers or total timeouts, cut connections, a body cut short): wait and ask again. */
  | { kind: 'unreachable'; why: string }
  /** No connection could be made at all (refused, no route, timed out, the name did not resolve): nothing answers there. */
  | { kind: 'no-connection'; failure: ConnectionFailure };

/** Why a host could not be connected to, as the fetch that tried ended (its retries included). */
export interface ConnectionFailure {
  reason: FailureReason;
  message: string;
  retries: number;
}

/**
 * Failures that mean no server could be reached at the address: no request was sent, so robots.txt
 * is neither unavailable nor unreachable in RFC 9309's sense of a server's answer — and the host's
 * pages fail the same way (Heritrix and Browsertrix fail such a seed at once, as a fetch failure).
 * A connect timeout is one: no handshake completed in any of the fetch's attempts (a firewall
 * dropping packets, a host that is down), so no server was there to answer. Headers and total
 * timeouts and cut connections are not among them: a server accepted, slow or overloaded.
 */
const NO_CONNECTION: ReadonlySet<FailureReason> = new Set<FailureReason>(['connect-refused', 'connect-timeout', 'dns']);

/**
 * Classifies a robots.txt fetch. A connection that could not be made is told apart from an
 * unreachable robots.txt (see NO_CONNECTION): the cache fails the host's URLs with its reason. 429 counts as unreachable rather than unavailable: the server
 * asks us to slow down, not to crawl everything. A 2xx body cut short by time or a broken
 * connection is unreachable too (a missing Disallow line must not read as permission); one cut
 * at the size cap is parsed, as RFC 9309 allows.
 */
export function classifyRobotsResponse(outcome: FetchOutcome, fromUrl: string): RobotsResponse {
  const exchange = outcome.ok ? outcome.exchange : outcome.partial;
  if (!outcome.ok && !exchange && NO_CONNECTION.has(outcome.reason)) {
    return { kind: 'no-connection', failure: { reason: outcome.reason, message: outcome.message, retries: outcome.retries } };
  }
  if (!exchange) return { kind: 'unreachable', why: outcome.ok ? 'no exchange' : `${outcome.reason}: ${outcome.message}` };
  const { status } = exchange;
  if (status >= 200 && status < 300) {
    if (exchange.truncated === 'time' || exchange.truncated === 'disconnect') return { kind: 'unreachable', why: `body cut short (${exchange.truncated})` };
    return { kind: 'parse', exchange };
  }
  if (status >= 300 && status < 400) {
    const location = exchange.headers['location'];
    if (!location) return { kind: 'allow-all', why: `HTTP ${status} without Location` };
    try {
      return { kind: 'redirect', location: new URL(headerUrlText(location), fromUrl).href };
    } catch {
      return { kind: 'allow-all', why: `HTTP ${status} with an invalid Location` };
    }
  }
  if (status === 429 || status >= 500) return { kind: 'unreachable', why: `HTTP ${status}` };
  if (status >= 400) return { kind: 'allow-all', why: `HTTP ${status}` };
  return { kind: 'unreachable', why: `HTTP ${status}` };
}
