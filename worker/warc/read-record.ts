import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { constants, createGunzip } from 'node:zlib';
import { WARCParser, type WARCRecord } from 'warcio';
import { DecompressionBombError } from '../fetch/classify-error';
import { decodeContentEncoding } from '../fetch/decode-content-encoding';
import { headerUrlText } from '../fetch/http-heads';
import { dechunk, parseWarcHead } from './parse-heads';

const MAX_MEMBER_BYTES = 64 * 1024 * 1024;

/**
 * A payload is decoded up to this many bytes. A response of a few kilobytes may expand a
 * thousandfold (the crawler archives gzip bombs as received): opening one in the cockpit must not
 * decode a gigabyte in the server, as warcio's own decoding would.
 */
export const MAX_DECODED_PAYLOAD_BYTES = 64 * 1024 * 1024;

/** The record at `offset` of a crawl's WARC file (one gzip member), parsed by warcio. */
async function parseRecordAt(warcDir: string, warcFile: string, offset: number, length?: number): Promise<WARCRecord> {
  // basename: a file name from the database never walks out of the crawl's folder.
  const path = join(warcDir, basename(warcFile));
  const handle = await open(path, 'r');
  try {
    const size = length && length > 0 ? Math.min(length, MAX_MEMBER_BYTES) : Math.min((await handle.stat()).size - offset, MAX_MEMBER_BYTES);
    const buffer = Buffer.alloc(size);
    await handle.read(buffer, 0, size, offset);
    // Headers as written (case and order), for people reading them.
    const record = await new WARCParser(Readable.from([buffer]), { keepHeadersCase: true }).parse();
    if (!record) throw new Error(`No WARC record at ${warcFile}:${offset}`);
    return record;
  } finally {
    await handle.close();
  }
}

/** parseRecordAt in a crawl's WARC file, read under its `.open` name while it is still being written. */
function parseRecordOfCrawlFile(warcDir: string, warcFile: string, offset: number, length: number | undefined): Promise<WARCRecord> {
  return parseRecordAt(warcDir, warcFile, offset, length).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
    return parseRecordAt(warcDir, `${warcFile}.open`, offset, length);
  });
}

/** A header's value by case-insensitive name: with `keepHeadersCase` warcio keys them as written. */
function headerValue(headers: Iterable<[string, string]> | undefined, lowerName: string): string | null {
  for (const [name, value] of headers ?? []) if (name.toLowerCase() === lowerName) return value;
  return null;
}

/**
 * The record's payload as replay tools show it: de-chunked and content-decoded, at most
 * MAX_DECODED_PAYLOAD_BYTES (`cut` then says so).
 */
async function decodedPayload(record: WARCRecord): Promise<{ payload: Buffer; cut: boolean }> {
  const raw = Buffer.from(await record.readFully(false));
  const headers = record.httpHeaders?.headers;
  const body = /chunked/i.test(headerValue(headers, 'transfer-encoding') ?? '') ? (dechunk(raw) ?? raw) : raw;
  const encoding = headerValue(headers, 'content-encoding') ?? undefined;
  try {
    return { payload: await decodeContentEncoding(body, encoding, MAX_DECODED_PAYLOAD_BYTES), cut: false };
  } catch (err) {
    if (!(err instanceof DecompressionBombError)) throw err;
    return { payload: await decodeContentEncoding(body, encoding, MAX_DECODED_PAYLOAD_BYTES, 'truncate'), cut: true };
  }
}

/** The decoded payload text (UTF-8) of the record at `offset` of a crawl's WARC file (a gzip member). */
export async function readRecordText(warcDir: string, warcFile: string, offset: number, length?: number): Promise<string> {
  return (await decodedPayload(await parseRecordAt(warcDir, warcFile, offset, length))).payload.toString('utf8');
}

/** How much of a record's start is read for its heads: a WARC head and an HTTP head fit in it many times over. */
const HEAD_BYTES = 256 * 1024;

/**
 * The Location of the redirect record at `offset` of a crawl's WARC file as the crawl read it when
 * it queued the target (fetch/http-heads.ts headerUrlText: the raw bytes, UTF-8 when they are, else
 * each byte from 0x80 escaped): warcio reads header bytes as UTF-8, and a Latin-1 `caf\xE9` came
 * back as `caf\uFFFD`, which names no capture. Its first Location line; null when it has none.
 */
export async function readRecordLocation(warcDir: string, warcFile: string, offset: number, length: number | undefined): Promise<string | null> {
  const path = join(warcDir, basename(warcFile));
  const start = await readStart(path, offset, length).catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
    return readStart(`${path}.open`, offset, length);
  });
  const warc = parseWarcHead(start);
  if (!warc) return null;
  const http = start.subarray(warc.headerLength);
  const end = http.indexOf('\r\n\r\n');
  for (const line of http.subarray(0, end < 0 ? http.length : end).toString('latin1').split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    if (colon > 0 && line.slice(0, colon).trim().toLowerCase() === 'location') return headerUrlText(line.slice(colon + 1).trim()) || null;
  }
  return null;
}

/**
 * The first bytes of the record at `offset` (at most HEAD_BYTES of it decompressed): its gzip
 * member is inflated as a stream and left once that much came out, whatever the body behind holds.
 */
async function readStart(path: string, offset: number, length: number | undefined): Promise<Buffer> {
  const handle = await open(path, 'r');
  try {
    const size = Math.min(length && length > 0 ? length : HEAD_BYTES, HEAD_BYTES);
    const buffer = Buffer.alloc(size);
    const { bytesRead } = await handle.read(buffer, 0, size, offset);
    const bytes = buffer.subarray(0, bytesRead);
    if (bytes[0] !== 0x1f || bytes[1] !== 0x8b) return bytes;
    const chunks: Buffer[] = [];
    let total = 0;
    // A member cut short (we read its start only) decodes as far as it goes, without an error.
    const gunzip = createGunzip({ finishFlush: constants.Z_SYNC_FLUSH });
    gunzip.end(bytes);
    for await (const chunk of gunzip as AsyncIterable<Buffer>) {
      chunks.push(chunk);
      total += chunk.length;
      if (total >= HEAD_BYTES) break;
    }
    gunzip.destroy();
    return Buffer.concat(chunks);
  } finally {
    await handle.close();
  }
}

/**
 * HTTP headers of the record at `offset` of a crawl's WARC file (its payload left unread), by
 * lower-case name; an absent one is null. A file still being written is read under its `.open` name.
 */
export async function readRecordHttpHeaders<N extends string>(warcDir: string, warcFile: string, offset: number, length: number | undefined, lowerNames: readonly N[]): Promise<Record<N, string | null>> {
  const record = await parseRecordOfCrawlFile(warcDir, warcFile, offset, length);
  const headers = record.httpHeaders?.headers;
  return Object.fromEntries(lowerNames.map((n) => [n, headerValue(headers, n)])) as Record<N, string | null>;
}

/**
 * The HTTP headers (lower-case names, repeated ones joined by ', ', as HttpExchange.headers) and the
 * decoded payload of the response record at `offset` of a crawl's WARC file, for reading a stored
 * page again as it was fetched; `cut`: the payload decodes to more than MAX_DECODED_PAYLOAD_BYTES.
 * A file still being written is read under its `.open` name.
 */
export async function readRecordResponse(warcDir: string, warcFile: string, offset: number, length: number | undefined): Promise<{ headers: Record<string, string>; payload: Buffer; cut: boolean }> {
  const record = await parseRecordOfCrawlFile(warcDir, warcFile, offset, length);
  const headers: Record<string, string> = {};
  for (const [name, value] of record.httpHeaders?.headers ?? []) {
    const key = name.toLowerCase();
    headers[key] = key in headers ? `${headers[key]}, ${value}` : value;
  }
  const { payload, cut } = await decodedPayload(record);
  return { headers, payload, cut };
}

/** A stored record as a person reads it: its WARC header, its HTTP head and its payload. */
export interface StoredRecord {
  warcHeaders: [string, string][];
  /** Status line and headers as stored, null for records without HTTP (e.g. metadata). */
  httpHead: string | null;
  /** The HTTP Content-Type header, null when absent. */
  contentType: string | null;
  /** The payload, de-chunked and content-decoded as replay tools show it (empty for a revisit), at most MAX_DECODED_PAYLOAD_BYTES. */
  payload: Uint8Array;
  /** The decoded payload was longer than MAX_DECODED_PAYLOAD_BYTES and is cut there. */
  payloadCut: boolean;
}

export async function readStoredRecord(warcDir: string, warcFile: string, offset: number, length?: number): Promise<StoredRecord> {
  const record = await parseRecordAt(warcDir, warcFile, offset, length);
  const { payload, cut } = await decodedPayload(record);
  return {
    warcHeaders: [...record.warcHeaders.headers],
    httpHead: record.httpHeaders ? record.httpHeaders.toString().trimEnd() : null,
    contentType: headerValue(record.httpHeaders?.headers, 'content-type'),
    payload,
    payloadCut: cut,
  };
}
