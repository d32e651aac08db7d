import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { WARCParser, type WARCRecord } from 'warcio';

const MAX_MEMBER_BYTES = 64 * 1024 * 1024;

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

/**
 * The decoded payload text of the record at `offset` of a crawl's WARC file (a gzip member, read
 * through warcio so chunked and content-encoded bodies come back as the page's text).
 */
export async function readRecordText(warcDir: string, warcFile: string, offset: number, length?: number): Promise<string> {
  return (await parseRecordAt(warcDir, warcFile, offset, length)).contentText();
}

/** A stored record as a person reads it: its WARC header, its HTTP head and its payload. */
export interface StoredRecord {
  warcHeaders: [string, string][];
  /** Status line and headers as stored, null for records without HTTP (e.g. metadata). */
  httpHead: string | null;
  /** The HTTP Content-Type header, null when absent. */
  contentType: string | null;
  /** The payload, de-chunked and content-decoded as replay tools show it (empty for a revisit). */
  payload: Uint8Array;
}

/** A header's value by case-insensitive name: with `keepHeadersCase` warcio keys them as written. */
function headerValue(headers: Iterable<[string, string]> | undefined, lowerName: string): string | null {
  for (const [name, value] of headers ?? []) if (name.toLowerCase() === lowerName) return value;
  return null;
}

export async function readStoredRecord(warcDir: string, warcFile: string, offset: number, length?: number): Promise<StoredRecord> {
  const record = await parseRecordAt(warcDir, warcFile, offset, length);
  return {
    warcHeaders: [...record.warcHeaders.headers],
    httpHead: record.httpHeaders ? record.httpHeaders.toString().trimEnd() : null,
    contentType: headerValue(record.httpHeaders?.headers, 'content-type'),
    payload: await record.readFully(true),
  };
}
