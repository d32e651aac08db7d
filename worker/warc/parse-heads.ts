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

/** The media type of a Content-Type value, without parameters. */
export function mimeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';', 1)[0].trim().toLowerCase() || 'unk';
}

/**
 * Removes HTTP/1.1 chunked transfer coding. Returns null when the framing is broken, so a
 * verifier can report it instead of digesting garbage.
 */
export function dechunk(body: Buffer): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const eol = body.indexOf('\r\n', at);
    if (eol < 0) return null;
    const size = parseInt(body.subarray(at, eol).toString('latin1').split(';')[0].trim(), 16);
    if (!Number.isFinite(size) || size < 0) return null;
    at = eol + 2;
    if (size === 0) return Buffer.concat(parts);
    if (at + size > body.length) return null;
    parts.push(body.subarray(at, at + size));
    at += size + 2;
  }
}
