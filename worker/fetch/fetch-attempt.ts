import type { Dispatcher } from 'undici';
import type { HttpExchange } from '../capture';
import { BodySink, type BodySinkOptions } from './body-sink';
import { buildResponseHead, contentLengthFault, headersRecord, statusLineOf, type RawHeaders } from './http-heads';
import { InterruptedError, startDeadline, TimeoutError, type Deadline } from './timeout';
import { truncationOf, UnreadableResponseError } from './classify-error';
import { ResponseBytes } from './response-bytes';
import { startStopwatch } from '../politeness/clock';

/** One GET, addressed to an IP, with everything the WARC records need about the request. */
export interface AttemptRequest {
  url: string;
  /** `http://1.2.3.4:80` or `https://[::1]:443`: the pool is per IP, so the IP is exact. */
  origin: string;
  path: string;
  ip: string;
  /** Header pairs after `host` (which undici writes first). */
  headers: readonly (readonly [string, string])[];
  host: string;
  requestHead: Buffer;
  timeouts: { connectMs: number; headersMs: number; totalMs: number };
}

/**
 * How one attempt ended: a whole exchange (maybe cut at the size cap), or an error (maybe after part
 * of the body). `received` (an error before the response head was whole): the bytes of this
 * response that had come, when its request was written to a connection (ResponseBytes).
 */
export type AttemptResult =
  | { kind: 'exchange'; exchange: HttpExchange; durationMs: number }
  | { kind: 'error'; error: Error; partial?: HttpExchange; received?: number; durationMs: number };

/** Thrown into the transport to stop reading once the size cap is reached; never leaves this module. */
class CapReached extends Error {}

/**
 * What a transport tells an attempt, in order: `started` once the request goes out on a connected
 * socket (with the function that aborts it: the abort comes back as `error`), then the final
 * response's head, its body's chunks, and its end, or an error at any point.
 */
export interface AttemptEvents {
  started(abort: (err: Error) => void): void;
  /** `reasonPhrase`: its bytes as received (a string: one character a byte); `httpVersion`: as the server wrote it (`HTTP/1.0`), HTTP/1.1 when not known. */
  response(status: number, reasonPhrase: Buffer | string, rawHeaders: RawHeaders, httpVersion?: string): void;
  data(chunk: Buffer): void;
  end(): void;
  error(err: Error): void;
}

/**
 * Sends one request and reports to `events`. `received`: the bytes of this response that came on
 * its connection (for an error before the head was whole); `cancel`: ends a request not yet
 * started (a connect deadline), so its socket does not linger.
 */
export type Transport = (events: AttemptEvents) => { received?: () => number | undefined; cancel?: (err: Error) => void };

/**
 * Runs one attempt through undici's dispatch API (the only one that hands out raw headers and the
 * reason phrase). The body streams into a BodySink; the total deadline aborts the request and
 * keeps what arrived (`truncated: 'time'`), a broken connection keeps it too (`'disconnect'`), and so
 * does a response that breaks HTTP part-way (`'unspecified'`, truncationOf).
 * The connect and headers deadlines are ours too: undici's own timers tick at half-second
 * granularity and stay only as backstops.
 */
export function fetchAttempt(dispatcher: Dispatcher, req: AttemptRequest, sinkOptions: BodySinkOptions, interrupt?: AbortSignal): Promise<AttemptResult> {
  return runAttempt(req, sinkOptions, interrupt, undiciTransport(dispatcher, req));
}

function undiciTransport(dispatcher: Dispatcher, req: AttemptRequest): Transport {
  return (events) => {
    const responseBytes = new ResponseBytes();
    let headRead = false;
    const handler: Dispatcher.DispatchHandler = {
      onRequestStart(c) {
        events.started((err) => c.abort(err));
      },
      onResponseStart(c, status, _headers, statusText = '') {
        if (status < 200) return void events.response(status, statusText, (c.rawHeaders ?? []) as RawHeaders);
        // undici says neither the HTTP version nor, when not ASCII, the reason phrase's bytes
        // (it decodes them as UTF-8): both are read from the bytes received.
        const line = statusLineOf(responseBytes.receivedBytes(), status);
        const reasonPhrase = /[^\x00-\x7f]/.test(statusText) ? (line?.reasonPhrase ?? Buffer.from(statusText)) : statusText;
        headRead = true;
        responseBytes.stopKeeping();
        events.response(status, reasonPhrase, (c.rawHeaders ?? []) as RawHeaders, line?.httpVersion);
      },
      onResponseData(_c, chunk) {
        events.data(chunk);
      },
      onResponseEnd() {
        events.end();
      },
      onResponseError(_c, error) {
        const refused = headRead ? null : unreadableLength(error, responseBytes.receivedBytes());
        responseBytes.stopKeeping();
        events.error(refused ?? error);
      },
    };
    responseBytes.dispatch(() => dispatcher.dispatch({ origin: req.origin, path: req.path, method: 'GET', headers: [['host', req.host], ...req.headers].flat() }, handler));
    return { received: () => responseBytes.received() };
  };
}

/**
 * The attempt itself, whatever carries it: deadlines (connect, headers, total), the interrupt, the
 * size cap, and the exchange (or error, with what arrived) it ends with.
 */
export function runAttempt(req: AttemptRequest, sinkOptions: BodySinkOptions, interrupt: AbortSignal | undefined, transport: Transport): Promise<AttemptResult> {
  // The stopwatch first: the request's end is taken as this date plus its reading, which must not
  // fall before the wall clock's end, should the thread be held between the two reads.
  const elapsed = startStopwatch();
  const date = new Date();
  return new Promise<AttemptResult>((resolve) => {
    let abort: ((err: Error) => void) | null = null;
    let settled = false;
    let sink: BodySink | null = null;
    let head: Pick<HttpExchange, 'status' | 'responseHead' | 'headers'> | null = null;
    let sent: ReturnType<Transport> = {};

    const exchangeOf = async (s: BodySink, truncated: HttpExchange['truncated']): Promise<HttpExchange> => {
      const { body, payloadDigest } = await s.finish();
      return { url: req.url, date, ip: req.ip, requestHead: req.requestHead, ...head!, body, payloadDigest, truncated };
    };
    const settle = (make: () => Promise<AttemptResult>) => {
      if (settled) return;
      settled = true;
      for (const d of [total, connecting, waitingForHeaders]) d?.clear();
      interrupt?.removeEventListener('abort', onInterrupt);
      make().then(resolve, (error: Error) => resolve({ kind: 'error', error, durationMs: elapsed() }));
    };
    const fail = (error: Error) =>
      settle(async () => {
        const durationMs = elapsed();
        if (!sink) {
          const received = sent.received?.();
          return { kind: 'error', error, durationMs, ...(received === undefined ? {} : { received }) };
        }
        return { kind: 'error', error, partial: await exchangeOf(sink, truncationOf(error)), durationMs };
      });
    const complete = (truncated: HttpExchange['truncated']) =>
      settle(async () => ({ kind: 'exchange', exchange: await exchangeOf(sink!, truncated), durationMs: elapsed() }));

    // Before the socket is connected there is nothing to abort yet: settle now, abort when it comes.
    const expire = (err: Error) => {
      if (abort) return abort(err);
      sent.cancel?.(err);
      fail(err);
    };
    const total = startDeadline(req.timeouts.totalMs, 'total', expire);
    const connecting = startDeadline(req.timeouts.connectMs, 'connect', expire);
    let waitingForHeaders: Deadline | null = null;
    const onInterrupt = () => expire(new InterruptedError());
    interrupt?.addEventListener('abort', onInterrupt, { once: true });

    const events: AttemptEvents = {
      started(abortRequest) {
        abort = abortRequest;
        connecting.clear();
        if (settled) return void abortRequest(new Error('attempt already settled'));
        waitingForHeaders?.clear(); // undici may restart a request on a fresh socket
        waitingForHeaders = startDeadline(req.timeouts.headersMs, 'headers', expire);
      },
      response(status, reasonPhrase, raw, httpVersion) {
        // "HTTP/1.1 099": three digits to the parser, no status to HTTP (RFC 9110 §15: 100–599 defined,
        // three digits allowed); undici would take it for an interim answer and fail an assertion at its end.
        if (status < 100) return void abort?.(new UnreadableResponseError(`the server answered status ${String(status).padStart(3, '0')}, which is no HTTP status (they start at 100)`));
        if (status < 200) return; // 1xx interim responses: the final one follows
        waitingForHeaders?.clear();
        head = { status, responseHead: buildResponseHead(status, reasonPhrase, raw, httpVersion), headers: headersRecord(raw) };
        sink = new BodySink(sinkOptions, announcedLength(head.headers['content-length']));
      },
      data(chunk) {
        if (!sink || settled) return;
        try {
          const signal = sink.write(chunk);
          if (signal === 'full') {
            complete('length');
            abort?.(new CapReached('size cap reached'));
          }
        } catch (err) {
          abort?.(err as Error);
        }
      },
      end() {
        if (sink) complete(sink.full ? 'length' : null);
        else fail(new Error('response ended without a final status'));
      },
      error(error) {
        if (endsWithItsHead(head?.status, sink, error)) return complete(null);
        // undici's own words for what it cannot read (other transports never use them).
        fail(UnreadableResponseError.from(error) ?? error);
      },
    };

    if (interrupt?.aborted) return void fail(new InterruptedError());
    try {
      sent = transport(events);
    } catch (err) {
      fail(err as Error);
    }
  });
}

/**
 * A 204 or 304 has no content whatever its Content-Length says (RFC 9112 §6.3), and a 304 may well
 * announce the length of the representation it stands for (RFC 9110 §8.6). undici 7 still compares
 * that length with the zero bytes it read and fails the response as a mismatch: the answer is whole.
 */
function endsWithItsHead(status: number | undefined, sink: BodySink | null, error: Error): boolean {
  return (status === 204 || status === 304) && sink?.size === 0 && (error as { code?: unknown }).code === 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH';
}

/**
 * Once llhttp has read a Content-Length, undici reports whatever it refuses in the rest of the head
 * (Transfer-Encoding beside it, a second length, a value too large, a malformed line) as a length
 * mismatch before any head reached us: a cut connection to the fetcher, retried for nothing. What
 * it was is read from the bytes `received`, and the lenient parser may read it. A mismatch after
 * the head (not called then) is a body cut short, and stays one.
 */
function unreadableLength(error: Error, received: Buffer): UnreadableResponseError | null {
  if ((error as { code?: unknown }).code !== 'UND_ERR_RES_CONTENT_LENGTH_MISMATCH') return null;
  return new UnreadableResponseError(`the HTTP client refused the response head for ${contentLengthFault(received)}`, true);
}

/** A Content-Length worth sizing a buffer by: one plain non-negative integer (repeated values are joined by ", "). */
export function announcedLength(value: string | undefined): number | null {
  return value !== undefined && /^\d{1,15}$/.test(value.trim()) ? Number(value.trim()) : null;
}
