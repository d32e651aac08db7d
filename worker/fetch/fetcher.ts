import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, type Dispatcher } from 'undici';
import { storedBodySize, type FailureReason, type HttpExchange } from '../capture';
import { releaseBody } from './body-sink';
import { classifyError, failureMessage, lenientMayRead, UnreadableResponseError } from './classify-error';
import { isStorageFailure } from '../store/storage-failure';
import { sharedDnsCache, type DnsCache } from './dns-cache';
import type { AddressGuard } from './address-guard';
import { announcedLength, fetchAttempt, type AttemptResult } from './fetch-attempt';
import { lenientAttempt } from './lenient-attempt';
import { sameSiteContext, type SameSiteContext } from './same-site';
import { setCookieValues, type CrawlCookieJar } from './cookie-jar';
import { buildRequestHead } from './http-heads';
import { DEFAULT_BACKOFF, retryDelayMs, type BackoffConfig } from './retry-backoff';
import { InterruptedError } from './timeout';

/** The ICD's fetch limits this stage uses (fetchLimitsSchema). */
export interface FetchLimits {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  totalTimeoutMs: number;
  maxBodyBytes: number;
  maxRetries: number;
}

export interface FetcherOptions {
  /** Sent as is: the ICD's user agent (with its contact URL). */
  userAgent: string;
  limits: FetchLimits;
  /** Where bodies larger than `memoryBodyLimit` are spooled (the caller deletes them via releaseBody). */
  spoolDir: string;
  /** Default 1 MiB. */
  memoryBodyLimit?: number;
  /** Verify TLS certificates (default true). */
  rejectUnauthorized?: boolean;
  /** Use this dispatcher instead of the fetcher's own keep-alive Agent (not closed by close()). */
  dispatcher?: Dispatcher;
  /** Resolver for URLs fetched without an `ip` (default: the worker's shared DNS cache). */
  dns?: DnsCache;
  backoff?: BackoffConfig;
  random?: () => number;
  /**
   * The least wait before retrying a request to `host` (host[:port]) whose last attempt took
   * `attemptMs`: the host's politeness delay. A retry is a request like any other, and a server
   * answering 503 is the last one to hit sooner. Default: the backoff alone.
   */
  retryGapMs?(host: string, attemptMs: number): number;
  /**
   * Aborted when the crawl pauses or stops and will not wait for fetches any longer: every fetch
   * then ends at once as `interrupted`, with nothing kept, and its URL goes back to the queue.
   */
  interrupt?: AbortSignal;
  /**
   * The crawl's cookies: sent with each attempt (retries too, so the archived request head shows
   * them), and learnt from every response, partial ones included. None: no cookies (as before).
   */
  cookieJar?: CrawlCookieJar;
  /**
   * Asked with the address about to be connected to, however it was found (the DNS stage, this
   * fetcher's own lookup): a refusal ends the fetch as `private-address`, nothing requested.
   */
  addressGuard?: AddressGuard;
}

export interface FetchRequestOptions {
  /** Connect to this address (from resolveHost): politeness and WARC-IP-Address agree with it. */
  ip?: string;
  conditional?: { etag?: string; lastModified?: string };
  /** Extra request headers, sent after the standard ones. */
  headers?: Record<string, string>;
  /**
   * Where the URL was found (its lease's page and link kind), for the SameSite context of its
   * cookies (same-site.ts); none: found on no page, every cookie goes.
   */
  foundOn?: { via: string | null; kind: string };
}

/**
 * How a fetch ended. A failed fetch may still carry a partial exchange worth archiving. `bytesRead`
 * (no partial exchange): the bytes of the last attempt's response that had come when it failed, when
 * its request was written to a connection (ResponseBytes; earlier answers on a kept-alive connection
 * do not count): 0 means the server sent nothing of it before closing or resetting the connection, or before a timeout.
 */
export type FetchOutcome =
  | {
      ok: true; exchange: HttpExchange; durationMs: number; retries: number;
      /** For the crawl log: how the response was read when not plainly (a lenient parser). */
      note?: string;
    }
  | {
      ok: false; reason: FailureReason; message: string; durationMs: number; retries: number; partial?: HttpExchange; bytesRead?: number;
      /** Never requested: its host's robots.txt got no answer (RFC 9309), whose own entry has the time and retries. */
      notRequested?: true;
    };

/** How long a fetch took and how many times it was tried again (a FetchOutcome is one): for its crawl-log entry. */
export type FetchTiming = { durationMs: number; retries: number };

export interface Fetcher {
  fetch(url: string, opts?: FetchRequestOptions): Promise<FetchOutcome>;
  close(): Promise<void>;
}

const ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8';
const ACCEPT_ENCODING = 'gzip, deflate, br';

/** The outcome of a request never made because its host name did not resolve. */
export function dnsFailure(message: string): FetchOutcome {
  return { ok: false, reason: 'dns', message, durationMs: 0, retries: 0 };
}

/** The response head's bytes the fetcher reads, either parser (lenient-attempt.ts takes the same). */
export const MAX_HEADER_BYTES = 256 * 1024;

/**
 * Creates the crawl's fetcher: HTTP/1.1 with keep-alive through one undici Agent (a pool per IP
 * origin), no redirect following (a 3xx is an exchange like any other), no decompression (the
 * body is stored as received, minus chunking), retries with backoff on 5xx and connection errors.
 */
export function createFetcher(o: FetcherOptions): Fetcher {
  const { limits } = o;
  const ownAgent = o.dispatcher
    ? null
    : new Agent({
        // Our own deadlines (fetch-attempt) enforce the limits; undici's timers are backstops.
        connect: { timeout: limits.connectTimeoutMs, rejectUnauthorized: o.rejectUnauthorized ?? true },
        headersTimeout: limits.headersTimeoutMs,
        bodyTimeout: limits.totalTimeoutMs,
        keepAliveTimeout: 4_000,
        // Browsers take far more header bytes than undici's 16 KB default (Chromium 256 KB): pages
        // with many or long cookies are real pages.
        maxHeaderSize: MAX_HEADER_BYTES,
      });
  const dispatcher: Dispatcher = o.dispatcher ?? ownAgent!;
  const dns = o.dns ?? sharedDnsCache;
  const backoff = o.backoff ?? DEFAULT_BACKOFF;
  const random = o.random ?? Math.random;
  const sinkOptions = { maxBytes: limits.maxBodyBytes, memoryLimit: o.memoryBodyLimit ?? 1024 * 1024, spoolDir: o.spoolDir };

  async function fetch(rawUrl: string, opts: FetchRequestOptions = {}): Promise<FetchOutcome> {
    let url: URL;
    try {
      url = new URL(rawUrl);
      if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`unsupported scheme ${url.protocol}`);
    } catch (err) {
      return { ok: false, reason: 'invalid-url', message: (err as Error).message, durationMs: 0, retries: 0 };
    }
    let ip = opts.ip;
    if (!ip) {
      const resolved = await dns.resolveHost(url.hostname);
      if ('error' in resolved) return dnsFailure(resolved.error);
      ip = resolved.ip;
    }
    // On the address connected to, not the name: a public name may resolve to 127.0.0.1.
    const refusal = await o.addressGuard?.(ip);
    if (refusal) return { ok: false, reason: 'private-address', message: refusal, durationMs: 0, retries: 0 };
    const headers: [string, string][] = [
      ['User-Agent', o.userAgent],
      ['Accept', ACCEPT],
      ['Accept-Encoding', ACCEPT_ENCODING],
    ];
    if (opts.conditional?.etag) headers.push(['If-None-Match', opts.conditional.etag]);
    if (opts.conditional?.lastModified) headers.push(['If-Modified-Since', opts.conditional.lastModified]);
    for (const [name, value] of Object.entries(opts.headers ?? {})) headers.push([name, value]);
    const path = url.pathname + url.search;
    const port = url.port || (url.protocol === 'https:' ? '443' : '80');
    const baseRequest = {
      url: url.href,
      origin: `${url.protocol}//${ip.includes(':') ? `[${ip}]` : ip}:${port}`,
      path,
      ip,
      host: url.host,
      timeouts: { connectMs: limits.connectTimeoutMs, headersMs: limits.headersTimeoutMs, totalMs: limits.totalTimeoutMs },
    };
    // Worked out only when a cookie is at stake (most sites set none).
    let context: SameSiteContext | undefined;
    const sameSite = () => (context ??= sameSiteContext(url.href, opts.foundOn?.via, opts.foundOn?.kind));
    // Per attempt: a retried 5xx may have set a cookie the next attempt should send.
    const requestForAttempt = () => {
      const cookie = o.cookieJar && o.cookieJar.size() > 0 ? o.cookieJar.cookieHeaderFor(url.href, sameSite()) : null;
      const sent: [string, string][] = cookie ? [...headers, ['Cookie', cookie]] : headers;
      return { ...baseRequest, headers: sent, requestHead: buildRequestHead(path, url.host, sent) };
    };
    const learnCookies = (exchange: HttpExchange | undefined) => {
      const values = exchange && o.cookieJar ? setCookieValues(exchange.headers) : [];
      if (values.length) o.cookieJar!.remember(exchange!.url, values, sameSite());
    };

    let durationMs = 0;
    const retryGap = (attemptMs: number) => o.retryGapMs?.(url.host, attemptMs) ?? 0;
    const interrupted = (retries: number): FetchOutcome => ({ ok: false, reason: 'interrupted', message: new InterruptedError().message, durationMs, retries });
    // undici's parser is strict: a response it refuses as broken HTTP/1.1 is asked for once more
    // and read by a lenient one (lenient-attempt.ts), whose note the crawl log keeps.
    const attempt = async (): Promise<{ result: AttemptResult; note?: string }> => {
      const strict = await fetchAttempt(dispatcher, requestForAttempt(), sinkOptions, o.interrupt);
      if (strict.kind !== 'error' || !lenientMayRead(strict.error)) return { result: strict };
      // A second request to the host, as a retry is: after its delay (an interrupt cuts the wait,
      // and the attempt then ends at once as interrupted).
      await pause(retryGap(strict.durationMs));
      const { result: lenient, note: lenientNote } = await lenientAttempt(requestForAttempt(), sinkOptions, { rejectUnauthorized: o.rejectUnauthorized ?? true, maxHeaderSize: MAX_HEADER_BYTES }, o.interrupt);
      const both = strict.durationMs + lenient.durationMs;
      const note = `${strict.error.message}: read by a lenient parser${lenientNote ? `, ${lenientNote}` : ''}`;
      if (lenient.kind === 'exchange' || lenient.error instanceof InterruptedError) {
        if (strict.partial) await releaseBody(strict.partial.body);
        return lenient.kind === 'exchange' ? { result: { ...lenient, durationMs: both }, note } : { result: { ...lenient, durationMs: both } };
      }
      // Once the lenient parser read the head, the response is as readable as one undici takes, and
      // a body cut off or late fails as it would there: kept (truncated), its own reason, retried so.
      const unreadable = classifyError(lenient.error).reason === 'bad-http';
      if (lenient.partial && !unreadable) {
        if (strict.partial) await releaseBody(strict.partial.body);
        return { result: { ...lenient, durationMs: both }, note };
      }
      // The same kind of error as the strict one (classifyError reads it), saying what both parsers
      // found, with what the lenient one read before it failed (a body broken part-way) when it got so far.
      const message = `${strict.error.message}; a lenient parser could not read it either (${lenient.error.message})`;
      const error = strict.error instanceof UnreadableResponseError ? new UnreadableResponseError(message) : Object.assign(new Error(message), { name: strict.error.name });
      if (!lenient.partial) return { result: { ...strict, error, durationMs: both } };
      if (strict.partial) await releaseBody(strict.partial.body);
      return { result: { ...strict, error, partial: lenient.partial, durationMs: both } };
    };

    for (let retries = 0; ; retries++) {
      // An interrupt before or during the attempt (or the wait before it) ends it as InterruptedError.
      const { result, note } = await attempt();
      durationMs += result.durationMs;
      learnCookies(result.kind === 'exchange' ? result.exchange : result.partial);
      if (result.kind === 'error' && result.error instanceof InterruptedError) {
        if (result.partial) await releaseBody(result.partial.body);
        return interrupted(retries);
      }
      const left = retries < limits.maxRetries;
      if (result.kind === 'exchange') {
        const { exchange } = result;
        // 5xx is the server failing and 429 the server asking for time (its Retry-After is honoured,
        // up to the backoff's cap, while the host waits); a status past 599 (LinkedIn's 999) is an answer, kept as one.
        const serverError = exchange.status >= 500 && exchange.status <= 599;
        const tooMany = exchange.status === 429;
        const answered = (): FetchOutcome => ({ ok: true, exchange, durationMs, retries, ...(note ? { note } : {}) });
        if (!serverError && !tooMany) return answered();
        // A 429 still there after the retries is the server's answer, archived as any page's.
        if (!left) return tooMany ? answered() : { ok: false, reason: 'http-5xx', message: `HTTP ${exchange.status}`, durationMs, retries, partial: exchange };
        await releaseBody(exchange.body);
        await pause(Math.max(retryDelayMs(retries + 1, backoff, random, exchange.headers['retry-after']), retryGap(result.durationMs)));
        continue;
      }
      if (isStorageFailure(result.error)) {
        // The spool's disk, not the server: the engine pauses the crawl and queues the URL again.
        if (result.partial) await releaseBody(result.partial.body);
        throw result.error;
      }
      const { reason, retryable } = classifyError(result.error);
      if (!retryable || !left) {
        const read = result.partial ? undefined : result.received;
        // What to do about it is the crawl's setting, not the server's: said where the failure is read.
        const { partial } = result;
        const body = partial ? { received: storedBodySize(partial.body), announced: announcedLength(partial.headers['content-length']) } : undefined;
        const words = failureMessage(result.error, body, MAX_HEADER_BYTES);
        const said = reason === 'tls' && o.rejectUnauthorized !== false ? `${words} (the ICD's limits.verifyCertificates: false archives the site anyway)` : words;
        // A failure past a head only the lenient parser could read says so too.
        const message = note ? `${said}; ${note}` : said;
        return { ok: false, reason, message, durationMs, retries, ...(result.partial ? { partial: result.partial } : {}), ...(read === undefined ? {} : { bytesRead: read }) };
      }
      if (result.partial) await releaseBody(result.partial.body);
      await pause(Math.max(retryDelayMs(retries + 1, backoff, random), retryGap(result.durationMs)));
    }
  }

  /** The wait before a retry, cut short by an interrupt (the loop then returns `interrupted`). */
  function pause(ms: number): Promise<void> {
    return sleep(ms, undefined, o.interrupt ? { signal: o.interrupt } : undefined).catch(() => undefined);
  }

  return {
    fetch,
    async close() {
      await ownAgent?.close();
    },
  };
}
