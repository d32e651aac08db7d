import type { FailureReason } from '../capture';
import type { FetchOutcome } from './fetcher';

/**
 * Failures that mean no server could be reached at the address: no request was sent, so robots.txt
 * is neither unavailable nor unreachable in RFC 9309's sense of a server's answer — and the host's
 * pages fail the same way (Heritrix and Browsertrix fail such a seed at once, as a fetch failure).
 * A connect timeout is one: no handshake completed in any of the fetch's attempts (a firewall
 * dropping packets, a host that is down), so no server was there to answer. Headers and total
 * timeouts and cut connections are not among them: a server accepted (isSilentFailure).
 */
export const NO_CONNECTION_REASONS: ReadonlySet<FailureReason> = new Set<FailureReason>(['connect-refused', 'connect-timeout', 'dns']);

/**
 * Failures that, with nothing of the response received, mean a server accepted the connection and
 * sent nothing at all (a hung application, a tarpit): robots.txt gives such a host fewer tries than
 * one answering 5xx (robots-cache.ts SILENT_TRIES). A connection closed or reset so is one too — a
 * server that accepts and hangs up at once says no more than one that never answers.
 */
const SILENT_WHEN_NOTHING_READ: ReadonlySet<FailureReason> = new Set<FailureReason>(['headers-timeout', 'total-timeout', 'connection-reset']);

/**
 * A failure that is no answer of a server although a connection was made: a timeout, or a
 * connection closed or reset, with nothing received. The bytes counted are those of this request's
 * response (fetcher.ts `bytesRead`), not earlier answers on a kept-alive connection; none counted
 * (the request never reached a connection) is nothing received. Bytes of it that arrived (half a
 * status line, then a cut or a stall until the timeout) are a broken answer.
 */
export function isSilentFailure(outcome: Extract<FetchOutcome, { ok: false }>): boolean {
  if (outcome.partial) return false;
  return SILENT_WHEN_NOTHING_READ.has(outcome.reason) && !((outcome.bytesRead ?? 0) > 0);
}

/** Whether a fetch got nothing at all from the host: no connection, or one and not a byte (robots.txt's settling, recrawl rounds' host back-off). */
export function gotNoAnswer(outcome: FetchOutcome): outcome is Extract<FetchOutcome, { ok: false }> {
  return !outcome.ok && !outcome.partial && (NO_CONNECTION_REASONS.has(outcome.reason) || isSilentFailure(outcome));
}
