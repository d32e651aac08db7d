import type { FailureReason } from '../capture';
import { TimeoutError } from './timeout';

/** The DNS resolver could not give an address for a host. */
export class DnsError extends Error {
  override readonly name = 'DnsError';
  constructor(
    readonly host: string,
    message: string,
  ) {
    super(`DNS ${host}: ${message}`);
  }
}

/** A compressed body would inflate past the cap (a gzip bomb, or just too big to parse). */
export class DecompressionBombError extends Error {
  override readonly name = 'DecompressionBombError';
  constructor(readonly limitBytes: number) {
    super(`decoded body exceeds ${limitBytes} bytes`);
  }
}

/**
 * A response undici's HTTP/1.1 client refuses though HTTP allows it: an interim `100 Continue` the
 * request did not ask for (RFC 9110 §15.2 says clients must read it; undici 7 drops the
 * connection), or a protocol switch (101) nobody asked for.
 */
export class UnreadableResponseError extends Error {
  override readonly name = 'UnreadableResponseError';
  /** undici destroys the socket with a SocketError of these words, and nothing else tells them apart. */
  static readonly UNDICI_MESSAGES: Record<string, string> = {
    'bad response': 'the server sent an interim 100 Continue unasked, which the HTTP client cannot read past',
    'bad upgrade': 'the server switched protocols (101) unasked',
  };

  /** `lenientMayRead`: Node's own HTTP client may read it (lenient-attempt.ts), where undici cannot. */
  constructor(message: string, readonly lenientMayRead = false) {
    super(message);
  }

  /** The error to record for what undici reports, when it is one of these. */
  static from(err: Error): UnreadableResponseError | null {
    const words = (err as { code?: unknown }).code === 'UND_ERR_SOCKET' ? UnreadableResponseError.UNDICI_MESSAGES[err.message] : undefined;
    return words ? new UnreadableResponseError(words, err.message === 'bad response') : null;
  }
}

/**
 * Whether undici's parser refused the response as broken HTTP/1.1 (obs-fold, a bare LF for CRLF, a
 * space before a header's colon, a control character in a value, Transfer-Encoding beside
 * Content-Length), which a lenient parser may read (lenient-attempt.ts).
 */
export function isHttpParserError(err: unknown): err is Error {
  return err instanceof Error && err.name === 'HTTPParserError';
}

/**
 * Whether a response undici refused is worth asking for again through the lenient parser: what
 * its parser refused, an unasked 100 Continue (which Node's client reads past), and a head that
 * stopped undici once it gave a Content-Length (the same length given twice, which RFC 9110 §8.6
 * lets a client read as one). Not a status below 100, which no parser makes an HTTP status.
 */
export function lenientMayRead(err: unknown): err is Error {
  return isHttpParserError(err) || (err instanceof UnreadableResponseError && err.lenientMayRead);
}

/** What a failure means for the URL: why, and whether another attempt could help. */
export interface ErrorClass {
  reason: FailureReason;
  retryable: boolean;
}

const TLS_CODES = /^(ERR_TLS_|ERR_SSL_|CERT_|UNABLE_TO_|DEPTH_ZERO_SELF_SIGNED_CERT|SELF_SIGNED_CERT_IN_CHAIN|EPROTO$|HOSTNAME_MISMATCH)/;

/** Node and undici error codes → class. Timeouts of connect/headers may pass, so they retry. */
const BY_CODE: Record<string, ErrorClass> = {
  ECONNREFUSED: { reason: 'connect-refused', retryable: true },
  EHOSTUNREACH: { reason: 'connect-refused', retryable: true },
  ENETUNREACH: { reason: 'connect-refused', retryable: true },
  ECONNRESET: { reason: 'connection-reset', retryable: true },
  EPIPE: { reason: 'connection-reset', retryable: true },
  UND_ERR_SOCKET: { reason: 'connection-reset', retryable: true },
  UND_ERR_CLOSED: { reason: 'connection-reset', retryable: true },
  UND_ERR_RES_CONTENT_LENGTH_MISMATCH: { reason: 'connection-reset', retryable: true },
  ETIMEDOUT: { reason: 'connect-timeout', retryable: true },
  UND_ERR_CONNECT_TIMEOUT: { reason: 'connect-timeout', retryable: true },
  UND_ERR_HEADERS_TIMEOUT: { reason: 'headers-timeout', retryable: true },
  // The body idle timer is set to the total budget: hitting it means the total time is spent.
  UND_ERR_BODY_TIMEOUT: { reason: 'total-timeout', retryable: false },
  ENOTFOUND: { reason: 'dns', retryable: false },
  EAI_AGAIN: { reason: 'dns', retryable: false },
  // Out of file descriptors (a crawl's sockets and files): a moment later some are free again.
  EMFILE: { reason: 'internal', retryable: true },
  ENFILE: { reason: 'internal', retryable: true },
  // More header bytes than the fetcher takes (see fetcher.ts maxHeaderSize): the server's doing.
  UND_ERR_HEADERS_OVERFLOW: { reason: 'bad-http', retryable: false },
  ERR_INVALID_URL: { reason: 'invalid-url', retryable: false },
  UND_ERR_INVALID_ARG: { reason: 'invalid-url', retryable: false },
};

/**
 * The one place that decides a failure's reason and whether it is worth retrying, from the
 * error's class (our own errors) or its code (Node and undici errors). The total timeout is not
 * retried: the whole budget is spent, and a slow server would spend it again. TLS, DNS and
 * malformed responses are not retried either: they fail the same way next time.
 */
export function classifyError(err: unknown): ErrorClass {
  if (err instanceof TimeoutError) {
    if (err.kind === 'dns') return { reason: 'dns', retryable: false };
    return { reason: `${err.kind}-timeout`, retryable: err.kind !== 'total' };
  }
  if (err instanceof DnsError) return { reason: 'dns', retryable: false };
  if (err instanceof DecompressionBombError) return { reason: 'decompression-bomb', retryable: false };
  if (err instanceof UnreadableResponseError) return { reason: 'bad-http', retryable: false };
  // undici's parser errors carry an HPE_ code only sometimes (none for a bad chunk size).
  if (isHttpParserError(err)) return { reason: 'bad-http', retryable: false };
  for (let e: unknown = err, depth = 0; e && typeof e === 'object' && depth < 4; e = (e as { cause?: unknown }).cause, depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code !== 'string') continue;
    const known = BY_CODE[code];
    if (known) return known;
    if (TLS_CODES.test(code)) return { reason: 'tls', retryable: false };
    // llhttp parse errors (HPE_*): the server speaks broken HTTP; another try gets the same bytes.
    if (code.startsWith('HPE_')) return { reason: 'bad-http', retryable: false };
  }
  return { reason: 'internal', retryable: false };
}

/**
 * The WARC-Truncated value of a body a failed fetch cut off, from the failure: WARC 1.1's tokens are
 * "time ; exceeds configured max time", "disconnect ; network disconnect" and "unspecified ;
 * other/unknown reason". A response that broke HTTP part-way (a chunk size that is no number) did
 * not lose its network: it is `unspecified`, not `disconnect`, which it was labelled before.
 */
export function truncationOf(err: unknown): 'time' | 'disconnect' | 'unspecified' {
  if (err instanceof TimeoutError) return 'time';
  return classifyError(err).reason === 'bad-http' ? 'unspecified' : 'disconnect';
}

/** What had come of a response's body when its attempt failed: bytes received, and the Content-Length announced (null: none, or none to trust). */
export interface BodyReceived {
  received: number;
  announced: number | null;
}

const codeOf = (err: Error): unknown => (err as { code?: unknown }).code;

/**
 * The crawl-log message of a failed attempt: the error's own words, except where they are the HTTP
 * client's rather than what the server did — undici's "Headers Overflow Error" for a response head
 * over the `maxHeaderBytes` the fetcher reads, and "other side closed" (or a reset) for a body that
 * ended before the length its Content-Length announced. The failure's reason is the error's still
 * (classifyError). Pure.
 */
export function failureMessage(err: Error, body: BodyReceived | undefined, maxHeaderBytes: number): string {
  if (codeOf(err) === 'UND_ERR_HEADERS_OVERFLOW') return `response head larger than ${Math.round(maxHeaderBytes / 1024)} KB, the most the crawler reads of one`;
  if (body && body.announced !== null && body.received < body.announced && classifyError(err).reason === 'connection-reset') {
    return `connection closed after ${body.received.toLocaleString('en')} of ${body.announced.toLocaleString('en')} bytes announced by Content-Length`;
  }
  return err.message;
}
