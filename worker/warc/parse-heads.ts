/**
 * Pure parsing of the start of a decompressed WARC record: its named fields (repeats kept, so
 * they can be checked) and the HTTP status line and headers of its block.
 */
import type { WarcFields } from './warc-fields';

/** A WARC record header as it appears in the bytes. */
export interface ParsedWarcHead {
  version: string;
  fields: WarcFields;
  /** Octets up to and including the blank line. */
  headerLength: number;
}

const CRLFCRLF = Buffer.from('\r\n\r\n');

/** Parses `WARC/1.x` + fields + CRLF; null when `buf` does not hold a whole header. */
export function parseWarcHead(buf: Buffer): ParsedWarcHead | null {
  const end = buf.indexOf(CRLFCRLF);
  if (end < 0) return null;
  const lines = buf.subarray(0, end).toString('utf8').split('\r\n');
  const version = lines[0];
  if (!/^WARC\/1\.[01]$/.test(version)) return null;
  const fields: WarcFields = [];
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) return null;
    fields.push([line.slice(0, colon).trim(), line.slice(colon + 1).trim()]);
  }
  return { version, fields, headerLength: end + 4 };
}

/** First value of a field, by case-insensitive name. */
export function field(fields: WarcFields, name: string): string | undefined {
  const key = name.toLowerCase();
  return fields.find(([n]) => n.toLowerCase() === key)?.[1];
}

/** HTTP status and lower-cased headers of a request or response head. */
export interface ParsedHttpHead {
  startLine: string;
  status: number;
  headers: Record<string, string>;
  /** Octets up to and including the blank line. */
  length: number;
}

/** Parses an HTTP head at the start of `buf`; null when it is not whole. */
export function parseHttpHead(buf: Buffer): ParsedHttpHead | null {
  const end = buf.indexOf(CRLFCRLF);
  if (end < 0) return null;
  const lines = buf.subarray(0, end).toString('latin1').split('\r\n');
  const startLine = lines[0];
  const m = /^HTTP\/\d(?:\.\d)? (\d{3})/.exec(startLine);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return { startLine, status: m ? Number(m[1]) : 0, headers, length: end + 4 };
}

/** What an index line says of a record, apart from where the record lies. */
export interface IndexFacts {
  url: string;
  date: string;
  mime: string;
  status: number;
  digest: string;
}

/**
 * The CDXJ facts of a response or revisit record, from its WARC fields and the bytes after its
 * header (its HTTP head); null for other records. Revisits get `warc/revisit` as their mime.
 */
export function indexFactsOf(fields: WarcFields, afterHeader: Buffer): IndexFacts | null {
  const type = field(fields, 'WARC-Type');
  const url = field(fields, 'WARC-Target-URI');
  if ((type !== 'response' && type !== 'revisit') || !url) return null;
  const http = parseHttpHead(afterHeader);
  return {
    url,
    date: field(fields, 'WARC-Date') ?? '',
    mime: type === 'revisit' ? 'warc/revisit' : mimeOf(http?.headers['content-type']),
    status: http?.status ?? 0,
    digest: field(fields, 'WARC-Payload-Digest') ?? '',
  };
}

/**
 * The media type of a response as its CDXJ line and capture row give it: of its first Content-Type
 * line, as pywb's indexer takes it, without parameters, as written (neither pywb nor warcio changes
 * its case); null when there is none. A headers record joins repeated lines with ", ", and a media
 * type holds neither "," nor ";": what comes before the first of them is the first line's.
 */
export function mediaTypeOf(contentType: string | undefined): string | null {
  return /^[^;,]*/.exec(contentType ?? '')![0].trim() || null;
}

/** The CDXJ `mime` of a response: mediaTypeOf, or `unk` (pywb's word) when it has no Content-Type. */
export function mimeOf(contentType: string | undefined): string {
  return mediaTypeOf(contentType) ?? 'unk';
}

/**
 * Removes HTTP/1.1 chunked transfer coding. Returns null when the framing is broken, so a
 * verifier can report it instead of digesting garbage.
 */
export function dechunk(body: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  const decoder = new ChunkedDecoder((data) => parts.push(data));
  decoder.push(body);
  return decoder.complete ? Buffer.concat(parts) : null;
}

/** A chunk-size line longer than this is broken framing, not a line to keep reading. */
const MAX_CHUNK_LINE = 4096;

/**
 * Removes chunked transfer coding from a body given piece by piece, handing on the entity body's
 * bytes as they come: a record's block may be gigabytes, so it is never held whole. Chunk
 * extensions and trailers are skipped.
 */
export class ChunkedDecoder {
  private state: 'size' | 'data' | 'crlf' | 'done' | 'broken' = 'size';
  /** The chunk-size line read so far. */
  private line = '';
  /** Bytes left in the current chunk, or of the CRLF after it. */
  private left = 0;

  constructor(private readonly onData: (data: Buffer) => void) {}

  push(buf: Buffer): void {
    let at = 0;
    while (at < buf.length && (this.state === 'size' || this.state === 'data' || this.state === 'crlf')) {
      if (this.state === 'size') {
        const eol = buf.indexOf(0x0a, at);
        this.line += buf.toString('latin1', at, eol < 0 ? buf.length : eol);
        at = eol < 0 ? buf.length : eol + 1;
        if (this.line.length > MAX_CHUNK_LINE) this.state = 'broken';
        if (eol < 0 || this.state === 'broken') continue;
        const size = parseInt(this.line.replace(/\r$/, '').split(';')[0]!.trim(), 16);
        this.line = '';
        if (!Number.isFinite(size) || size < 0) this.state = 'broken';
        else if (size === 0) this.state = 'done';
        else [this.state, this.left] = ['data', size];
      } else {
        const n = Math.min(this.left, buf.length - at);
        if (this.state === 'data') this.onData(buf.subarray(at, at + n));
        at += n;
        this.left -= n;
        if (this.left > 0) continue;
        if (this.state === 'data') [this.state, this.left] = ['crlf', 2];
        else this.state = 'size';
      }
    }
  }

  /** True once the last (zero-size) chunk was read: the body came whole. */
  get complete(): boolean {
    return this.state === 'done';
  }
}
