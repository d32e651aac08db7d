/**
 * The shapes that cross stage boundaries in the crawl pipeline: what the fetcher produces and
 * the WARC writer, extractors and analysers consume. Kept in one small file so stages agree.
 */

/** Why a URL was not captured, or why its capture failed. Stable strings: stored in the crawl log. */
export type FailureReason =
  | 'dns'
  | 'connect-refused'
  | 'connect-timeout'
  | 'headers-timeout'
  | 'total-timeout'
  | 'connection-reset'
  | 'tls'
  | 'too-many-redirects'
  | 'http-5xx'
  | 'decompression-bomb'
  /**
   * A body that cannot be read whole: cut short, its content coding damaged or stopping before its
   * end, undecodable. A feed poll fails on it (feedBodyFault); a page is read as far as it goes.
   */
  | 'unreadable-body'
  | 'robots-disallowed'
  | 'robots-unavailable'
  | 'invalid-url'
  /** Its host is, or resolves to, an address of the crawler's own network (fetch/address-class.ts): not requested. */
  | 'private-address'
  /** The server's answer is not valid HTTP (a broken chunk size, header lines past the limit). */
  | 'bad-http'
  /**
   * Not requested: its host gave no answer through its whole back-off (limits.hostGiveUpMs), and
   * its waiting URLs were given up at once (politeness/host-outage.ts).
   */
  | 'host-unreachable'
  /** The crawl paused or stopped during the fetch: never recorded, the URL goes back to the queue. */
  | 'interrupted'
  | 'internal';

/** Why a URL was excluded before fetching. Stable strings: stored with the URL. */
export type ExclusionReason =
  | 'out-of-scope-host'
  | 'out-of-surt-scope'
  | 'include-mismatch'
  | 'exclude-match'
  | 'max-depth'
  | 'max-pages'
  | 'max-pages-per-host'
  | 'url-too-long'
  | 'unsupported-scheme'
  | 'invalid-url'
  | 'trap-repeating-path'
  | 'trap-growing-query'
  | 'trap-calendar'
  | 'trap-query-variants'
  | 'robots'
  | 'spam'
  | 'blacklisted'
  | 'aah'
  /** Posted to the crawl (POST /api/crawls/:id/urls) and still waiting when it was stopped or failed. */
  | 'crawl-ended';

/** The body of a response as stored: small bodies in memory, large ones spooled to a temp file. */
export type StoredBody =
  | { kind: 'memory'; bytes: Buffer }
  | { kind: 'file'; path: string; size: number };

/** The bytes a stored body holds, in memory or spooled. */
export function storedBodySize(body: StoredBody): number {
  return body.kind === 'memory' ? body.bytes.length : body.size;
}

/** One HTTP exchange, as the WARC writer needs it. */
export interface HttpExchange {
  url: string;
  /** When the request was sent: the WARC-Date of both request and response records. */
  date: Date;
  /** Remote IP address, for WARC-IP-Address. */
  ip: string | null;
  /** The request as sent: request line + headers + CRLF (no body: GET only). */
  requestHead: Buffer;
  /**
   * The response status line and headers as received, ending with CRLF CRLF. If the body was
   * de-chunked, the Transfer-Encoding header has been removed (WARC.md).
   */
  responseHead: Buffer;
  status: number;
  /** Lower-cased header names; repeated headers joined by ', ' (set-cookie by '\n'). */
  headers: Record<string, string>;
  /** Entity body with transfer coding removed and content coding (gzip) kept. */
  body: StoredBody;
  /** `sha1:<BASE32>` of `body`, computed while it streamed in. */
  payloadDigest: string;
  /** Set when the body was cut short: WARC-Truncated value. */
  truncated: 'length' | 'time' | 'disconnect' | 'unspecified' | null;
}

/**
 * Whether a body was cut off by a failed fetch (a timeout or a connection closed mid-body, from
 * `truncated`, its WARC-Truncated value): only part of what the server meant to send, so not the
 * page's content. A body cut at the size cap (`length`) is not: every fetch of the page cuts it there.
 */
export function cutByFailedFetch(truncated: string | null): boolean {
  return truncated !== null && truncated !== 'length';
}
