import { cutByFailedFetch, type FailureReason, type HttpExchange } from '../capture';
import { contentCodingFault, decodeBody, decodeContentEncoding, isSilentFailure, NO_CONNECTION_REASONS, type FetchOutcome } from '../fetch';
import { locationOf } from '../fetch/http-heads';

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
  // An address the crawl may not reach (fetch/address-guard.ts), where a robots.txt redirects or its
  // host resolves: a robots.txt the crawler may not read, refused at once and for good, as a redirect
  // it cannot follow is: "unavailable". Retried as unreachable, it made the site disallowed after
  // ~70 s; the host's own pages are refused for their address when they are asked for.
  if (!outcome.ok && outcome.reason === 'private-address') return { kind: 'allow-all', why: `${outcome.reason}: ${outcome.message}` };
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
    const location = locationOf(exchange.headers);
    if (location.kind === 'none') return { kind: 'allow-all', why: `HTTP ${status} without Location` };
    if (location.kind === 'several') return { kind: 'allow-all', why: `HTTP ${status} with ${location.values.length} different Location headers` };
    let target: URL;
    try {
      target = new URL(location.text, fromUrl);
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

/** RFC 9309 §2.5: at least 500 KiB of robots.txt must be parsed; more is ignored. */
export const ROBOTS_MAX_BYTES = 512 * 1024;

/** RFC 9309 §2.3.1.2: follow at least five consecutive redirects; past that, robots.txt is unavailable. */
export const ROBOTS_MAX_REDIRECTS = 5;

/**
 * What a robots.txt body parsed (RobotsResponse 'parse') gives: its text, or why it has none to
 * trust. `cut`: the body (decoded) is longer than the bytes read, and its text ends there.
 */
export type RobotsBody = { text: string; codingNote?: string; cut?: true } | { unreadable: string };

/**
 * The text a robots.txt answer's rules are read from: its first `maxBytes` bytes, decoded. A body
 * whose content coding cannot be undone to its end (a coding the crawl does not undo, corrupt data,
 * a wrong checksum, coded data ending early though every byte arrived) has no decoded text to
 * trust: a Disallow line lost must not read as permission, as with a body cut short. Its rules
 * are read from the bytes as they came when those are plain text (a plain file labelled
 * `Content-Encoding: gzip`, or `utf-8`), as for a page's links; otherwise it is unreadable, and
 * robots.txt counts as unreachable. A body cut at the size cap is read as far as it decodes.
 */
export async function readRobotsBody(exchange: Pick<HttpExchange, 'body' | 'headers' | 'truncated'>, maxBytes: number): Promise<RobotsBody> {
  const contentEncoding = exchange.headers['content-encoding'];
  // One byte more than is read tells a body longer than that from one of just that length.
  const decoded = await decodeBody(exchange.body, contentEncoding, maxBytes + 1, 'truncate');
  const fault = contentCodingFault(contentEncoding, decoded, exchange.truncated !== null);
  if (fault === null) return firstBytesOf(decoded.bytes, maxBytes);
  const asItCame = await decodeContentEncoding(exchange.body, undefined, maxBytes + 1, 'truncate');
  const { text, cut } = firstBytesOf(asItCame, maxBytes);
  if (isPlainText(asItCame.subarray(0, maxBytes))) return { text, codingNote: `${fault}; its rules were read from the body as it came, which is plain text`, ...(cut ? { cut } : {}) };
  return { unreadable: `${fault}, and the body as it came is no plain text: robots.txt is unreadable, taken as unreachable as a 5xx answer is` };
}

/** The text of a body's first `maxBytes` bytes, and whether it had more. */
function firstBytesOf(bytes: Buffer, maxBytes: number): { text: string; cut?: true } {
  return bytes.length > maxBytes ? { text: bytes.subarray(0, maxBytes).toString('utf8'), cut: true } : { text: bytes.toString('utf8') };
}

/** A line robots.txt's grammar reads (RFC 9309 §2.2, and the Crawl-delay and Sitemap lines crawlers read too). */
const RULE_LINE = /^[ \t]*(user-agent|allow|disallow|crawl-delay|sitemap)[ \t]*:/im;

/**
 * UTF-8 text with no control characters but tab, line ends and form feed. No compressed data is:
 * gzip begins with 0x1F, and deflate's and brotli's bytes are not UTF-8 for long.
 */
function isPlainText(bytes: Buffer): boolean {
  let text: string;
  try {
    // Streaming: a cut at the size cap may fall inside a character.
    text = new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
  } catch {
    return false;
  }
  return !/[\0-\x08\x0b\x0e-\x1f\x7f]/.test(text);
}

/**
 * The crawl-log message of a robots.txt capture, `hop` redirects after the robots.txt asked for:
 * what the crawl made of an answer that is not plainly a set of rules. A redirect past the ones
 * followed (robots.txt unavailable: nothing disallowed); for a body rules are read from, a content
 * coding that could not be undone (readRobotsBody), a body longer than the bytes read (their rules
 * alone apply), and one with no rule line at all (binary garbage, an HTML page: nothing
 * disallowed). A spooled body that cannot be read gets none: the cache, failing to read it too,
 * takes robots.txt as unreachable.
 */
export async function robotsCaptureMessage(exchange: Pick<HttpExchange, 'body' | 'headers' | 'truncated' | 'status'>, hop = 0): Promise<string> {
  const said = (...notes: (string | false | undefined)[]) => ['robots.txt', ...notes.filter(Boolean)].join('; ');
  if (exchange.status >= 300 && exchange.status < 400 && hop >= ROBOTS_MAX_REDIRECTS) {
    return said(`a redirect past the ${ROBOTS_MAX_REDIRECTS} in a row followed for robots.txt: taken as unavailable (RFC 9309 §2.3.1.2), so no rule disallows any URL of the host`);
  }
  if (exchange.status < 200 || exchange.status >= 300 || cutByFailedFetch(exchange.truncated)) return said();
  const body = await readRobotsBody(exchange, ROBOTS_MAX_BYTES).catch(() => null);
  if (!body) return said();
  if ('unreadable' in body) return said(body.unreadable);
  return said(
    body.codingNote,
    body.cut && `longer than the ${ROBOTS_MAX_BYTES / 1024} KiB of it read for rules (RFC 9309 §2.5): rules past them do not apply`,
    body.text.trim() !== '' && !RULE_LINE.test(body.text) && 'no line of it is a rule (User-agent, Allow, Disallow, Crawl-delay, Sitemap): no rule disallows any URL of the host',
  );
}
