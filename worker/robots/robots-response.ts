import type { FailureReason, HttpExchange } from '../capture';
import type { FetchOutcome } from '../fetch';
import { headerUrlText } from '../fetch/http-heads';

/** What one robots.txt fetch means (RFC 9309 §2.3.1). */
export type RobotsResponse =
  | { kind: 'parse'; exchange: HttpExchange }
  | { kind: 'redirect'; location: string }
  /** "Unavailable" (4xx, or a redirect without a target): no rules, crawl everything. */
  | { kind: 'allow-all'; why: string }
  /**
   * "Unreachable" (5xx, 429, headers or total timeouts, cut connections, a body cut short): wait and
   * ask again. `silence`: the server accepted the connection and answered nothing — no response
   * head before the timeout, or the connection closed or reset before a byte arrived.
   */
  | { kind: 'unreachable'; why: string; silence?: ConnectionFailure }
  /** No connection could be made at all (refused, no route, timed out, the name did not resolve): nothing answers there. */
  | { kind: 'no-connection'; failure: ConnectionFailure };

/** Why a host could not be connected to, as the fetch that tried ended (its retries included). */
export interface ConnectionFailure {
  reason: FailureReason;
  message: string;
  retries: number;
  /** A server accepted the connection and never answered: the tries of robots.txt made (absent: no connection at all). */
  silentTries?: number;
}

/** Why a URL of a host in `failure`'s state was not requested, for the crawl log. */
export function robotsFailureMessage(failure: ConnectionFailure): string {
  if (failure.silentTries === undefined) return `no connection to the host for robots.txt (${failure.message})`;
  const tries = ['', 'once', 'twice'][failure.silentTries] ?? `${failure.silentTries} times`;
  return `no answer from the host for robots.txt, tried ${tries} (${failure.message})`;
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
 * Timeouts that, with no response head received, mean a server accepted the connection and sent
 * nothing at all (a hung application, a tarpit): unreachable, but the cache gives such a host fewer
 * tries than one answering 5xx (robots-cache.ts SILENT_TRIES).
 */
const SILENT: ReadonlySet<FailureReason> = new Set<FailureReason>(['headers-timeout', 'total-timeout']);

/**
 * A failure that is no answer of a server: a silent timeout (SILENT), or a connection closed or
 * reset with nothing received — a server that accepts and hangs up at once says no more than one
 * that never answers. A reset whose error does not tell the bytes read counts as nothing received
 * (no response head came); one after bytes arrived (half a status line) is a broken answer.
 */
function isSilence(outcome: Extract<FetchOutcome, { ok: false }>): boolean {
  if (outcome.partial) return false;
  if (SILENT.has(outcome.reason)) return true;
  return outcome.reason === 'connection-reset' && !((outcome.bytesRead ?? 0) > 0);
}

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
  if (!outcome.ok && isSilence(outcome)) {
    return { kind: 'unreachable', why: `${outcome.reason}: ${outcome.message}`, silence: { reason: outcome.reason, message: outcome.message, retries: outcome.retries } };
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
