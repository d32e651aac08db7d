/**
 * Pure builders for the HTTP heads that go into WARC request and response records. undici does
 * not hand out the bytes it wrote or read, so they are rebuilt here, exactly as undici writes a
 * request (checked byte for byte against a raw server in the integration tests) and from the
 * raw header list of the response (names and values as received, in order).
 */

/** Header name/value pairs in the order they are sent. */
export type HeaderPairs = readonly (readonly [string, string])[];

const CRLF = '\r\n';

/**
 * The request head undici writes for a body-less GET: request line, `host`, `connection`, then
 * the given headers in order, then an empty line.
 */
export function buildRequestHead(path: string, host: string, headers: HeaderPairs, method = 'GET'): Buffer {
  let head = `${method} ${path} HTTP/1.1${CRLF}host: ${host}${CRLF}connection: keep-alive${CRLF}`;
  for (const [name, value] of headers) head += `${name}: ${value}${CRLF}`;
  return Buffer.from(head + CRLF, 'latin1');
}

/** Raw headers as undici gives them: name, value, name, value… (Buffers as received). */
export type RawHeaders = readonly (Buffer | string)[];

const asBuffer = (b: Buffer | string) => (typeof b === 'string' ? Buffer.from(b, 'latin1') : b);
const asText = (b: Buffer | string) => (typeof b === 'string' ? b : b.toString('latin1'));

/**
 * `Transfer-Encoding` without `chunked`: undici removes the chunking from the body, so the stored
 * head must not announce it (replay tools would try to de-chunk again). Other codings stay.
 * Returns null when nothing is left of the header.
 */
export function withoutChunked(value: string): string | null {
  const rest = value
    .split(',')
    .map((t) => t.trim())
    .filter((t) => t !== '' && t.toLowerCase() !== 'chunked');
  return rest.length ? rest.join(', ') : null;
}

/** Whether a head's transfer codings, over all its Transfer-Encoding lines, end with chunked: only then is the body chunked (RFC 9112 §6.3). */
function endsChunked(rawHeaders: RawHeaders): boolean {
  let last = '';
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    if (asText(rawHeaders[i]!).toLowerCase() !== 'transfer-encoding') continue;
    const codings = asText(rawHeaders[i + 1]!).split(',').map((t) => t.trim()).filter((t) => t !== '');
    if (codings.length) last = codings.at(-1)!.toLowerCase();
  }
  return last === 'chunked';
}

/**
 * Whether a head has Transfer-Encoding, which frames its body instead of any Content-Length beside
 * it (RFC 9112 §6.3; only the lenient parser reads both).
 */
function hasTransferEncoding(rawHeaders: RawHeaders): boolean {
  for (let i = 0; i < rawHeaders.length; i += 2) if (asText(rawHeaders[i]!).toLowerCase() === 'transfer-encoding') return true;
  return false;
}

/**
 * The response head as received: status line, with the HTTP version the server wrote (`HTTP/1.0`
 * from an old server: undici does not say, so the fetcher reads it from the bytes received,
 * statusLineOf) and the reason phrase's bytes (a string: one character a byte, as Node gives
 * it), each raw header as `name: value`, an empty line. When chunked is the last transfer coding,
 * the parsers store the body de-chunked, and Transfer-Encoding is rewritten by `withoutChunked`;
 * a chunked coding before another one was not undone (the body is read to the connection's end),
 * and is kept. A Content-Length beside Transfer-Encoding did not say where the body ends, and is
 * left out, as an intermediary must (RFC 9112 §6.3): a replay tool would wait for that many bytes.
 */
export function buildResponseHead(status: number, reasonPhrase: Buffer | string, rawHeaders: RawHeaders, httpVersion = 'HTTP/1.1'): Buffer {
  const parts: Buffer[] = [Buffer.from(`${httpVersion} ${status} `), asBuffer(reasonPhrase), Buffer.from(CRLF)];
  const dechunked = endsChunked(rawHeaders);
  const framedByTransferEncoding = hasTransferEncoding(rawHeaders);
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = asBuffer(rawHeaders[i]!);
    let value = asBuffer(rawHeaders[i + 1]!);
    const lowerName = name.toString('latin1').toLowerCase();
    if (framedByTransferEncoding && lowerName === 'content-length') continue;
    if (dechunked && lowerName === 'transfer-encoding') {
      const kept = withoutChunked(value.toString('latin1'));
      if (kept === null) continue;
      value = Buffer.from(kept, 'latin1');
    }
    parts.push(name, Buffer.from(': '), value, Buffer.from(CRLF));
  }
  parts.push(Buffer.from(CRLF));
  return Buffer.concat(parts);
}

/**
 * The status line of the response head with status `status` in `received` (the bytes a response
 * brought, interim heads first), as received: its HTTP version (`HTTP/1.0`) and its reason phrase's
 * bytes; null if it is not there.
 */
export function statusLineOf(received: Buffer, status: number): { httpVersion: string; reasonPhrase: Buffer } | null {
  for (let at = 0; at >= 0 && at < received.length; at = headEnd(received, at)) {
    const lineEnd = received.indexOf(10, at);
    if (lineEnd < 0) return null;
    const line = received.subarray(at, received[lineEnd - 1] === 13 ? lineEnd - 1 : lineEnd);
    const start = /^(HTTP\/\d\.\d) (\d{3})(?: |$)/.exec(line.subarray(0, 13).toString('latin1'));
    if (start && Number(start[2]) === status) return { httpVersion: start[1]!, reasonPhrase: line.subarray(start[0].length) };
  }
  return null;
}

/**
 * The reason phrase of the response head with status `status` in `received`, as received
 * (statusLineOf); null if it is not there. undici reads a reason phrase as UTF-8, so obs-text
 * (RFC 9112 §4 allows it: an ISO-8859-1 `Trés bien`) reaches it as U+FFFD.
 */
export function reasonPhraseOf(received: Buffer, status: number): Buffer | null {
  return statusLineOf(received, status)?.reasonPhrase ?? null;
}

/**
 * What breaks the last response head in `received` (the bytes a response brought, up to where
 * llhttp stopped, interim heads first) once it has a Content-Length, in words for the crawl log:
 * Transfer-Encoding beside it (RFC 9112 §6.1 forbids it), a value that is no number or too large
 * for the parser, two values (where the body ends is unknown), one given more than once, or else a
 * line the parser cannot read after it (the only other way to stop it there).
 */
export function contentLengthFault(received: Buffer): string {
  // The last head: past interim (1xx) ones, whole or cut where the parser stopped.
  let at = 0;
  let end = headEnd(received, at);
  while (end >= 0 && /^HTTP\/\d\.\d 1\d\d(?!\d)/.test(received.toString('latin1', at, at + 13))) {
    at = end;
    end = headEnd(received, at);
  }
  const lines = received.toString('latin1', at, end < 0 ? received.length : end).split('\n');
  if (!lines[0]!.startsWith('HTTP/')) return 'something after its Content-Length';
  const lengths: string[] = [];
  let transferEncoding = false;
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon < 0) continue;
    const name = line.slice(0, colon).toLowerCase();
    if (name === 'transfer-encoding') transferEncoding = true;
    if (name === 'content-length') lengths.push(...line.slice(colon + 1).split(',').map((v) => v.trim()));
  }
  if (transferEncoding) return 'Transfer-Encoding beside Content-Length';
  const noNumber = lengths.find((v) => !/^\d+$/.test(v));
  if (noNumber !== undefined) return `a Content-Length that is no number (${JSON.stringify(noNumber)})`;
  const tooLarge = lengths.find((v) => BigInt(v) > 0xffff_ffff_ffff_ffffn);
  if (tooLarge !== undefined) return `a Content-Length too large to read (${tooLarge})`;
  if (new Set(lengths.map(BigInt)).size > 1) return `Content-Length given more than once with different values (${lengths.join(', ')}): where its body ends is unknown`;
  if (lengths.length > 1) return 'its Content-Length given more than once with one value';
  return 'a line after its Content-Length that it cannot parse';
}

/** The offset just past a head's empty line (CRLF or a bare LF), looked for from `from`, or -1. */
export function headEnd(bytes: Buffer, from: number): number {
  for (let i = bytes.indexOf(10, from); i >= 0; i = bytes.indexOf(10, i + 1)) {
    if (bytes[i + 1] === 10) return i + 2;
    if (bytes[i + 1] === 13 && bytes[i + 2] === 10) return i + 3;
  }
  return -1;
}

/**
 * Headers for lookups: lower-cased names, repeated headers joined by ', ' — except Set-Cookie,
 * whose values may contain commas, joined by '\n'.
 */
export function headersRecord(rawHeaders: RawHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (let i = 0; i + 1 < rawHeaders.length; i += 2) {
    const name = asText(rawHeaders[i]!).toLowerCase();
    const value = asText(rawHeaders[i + 1]!);
    const prior = out[name];
    if (prior === undefined) out[name] = value;
    // Location is one URL, not a list (RFC 9110 §10.2.2): joined with ", " two made up a third.
    // A repeat of the same value is one; different ones are kept apart by a line break (locationOf).
    else if (name === 'location') out[name] = prior.split('\n').includes(value) ? prior : `${prior}\n${value}`;
    else out[name] = prior + (name === 'set-cookie' ? '\n' : ', ') + value;
  }
  return out;
}

/** A response's Location, as the headers record holds it (headersRecord). */
export type LocationHeader = { kind: 'none' } | { kind: 'one'; text: string } | { kind: 'several'; values: string[] };

/**
 * The Location of a response, read as a URL's text (headerUrlText): none (absent or empty), one, or
 * several different ones, which name no target (browsers refuse such an answer).
 */
export function locationOf(headers: Record<string, string>): LocationHeader {
  const values = (headers.location ?? '').split('\n').map((v) => headerUrlText(v.trim())).filter((v) => v !== '');
  if (values.length === 0) return { kind: 'none' };
  return values.length === 1 ? { kind: 'one', text: values[0]! } : { kind: 'several', values };
}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A header value holding a URL (Location), as Chromium reads it: its bytes as UTF-8 when they are
 * valid UTF-8, else each byte from 0x80 percent-encoded as it is (`caf\xE9` → `caf%E9`, path and
 * query alike). Header values are kept as Latin-1 strings (one character a byte): read as
 * characters, a raw `café` in UTF-8 was resolved as `cafÃ©`, and a Latin-1 `\xE9` was encoded
 * again as UTF-8 (`%C3%A9`), a URL no browser requests.
 */
export function headerUrlText(value: string): string {
  if (!/[\u0080-\u00ff]/.test(value)) return value;
  try {
    return strictUtf8.decode(Buffer.from(value, 'latin1'));
  } catch {
    return value.replace(/[\u0080-\u00ff]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  }
}
