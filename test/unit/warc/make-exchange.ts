/** Builds `HttpExchange` fixtures the way the fetcher hands them over (pure; no I/O). */
import type { HttpExchange, StoredBody } from '../../../worker/capture';
import { sha1Digest } from '../../../worker/warc';

export interface ExchangeSpec {
  url: string;
  body?: Buffer;
  /** A spooled body: path and the bytes it holds (for the digest). */
  spooled?: { path: string; bytes: Buffer };
  status?: number;
  reason?: string;
  contentType?: string;
  extraHeaders?: string[];
  truncated?: HttpExchange['truncated'];
  date?: Date;
  ip?: string | null;
  /**
   * 'dechunked': the origin sent chunks, the fetcher stored the entity body and dropped
   * Transfer-Encoding (so no Content-Length either); 'raw': the chunked bytes kept as received.
   */
  chunkedOrigin?: 'dechunked' | 'raw';
}

/** HTTP/1.1 chunked coding of `bytes` in chunks of `size`. */
export function chunked(bytes: Buffer, size = 1000): Buffer {
  const parts: Buffer[] = [];
  for (let at = 0; at < bytes.length; at += size) {
    const c = bytes.subarray(at, at + size);
    parts.push(Buffer.from(c.length.toString(16) + '\r\n'), c, Buffer.from('\r\n'));
  }
  parts.push(Buffer.from('0\r\n\r\n'));
  return Buffer.concat(parts);
}

/** One exchange with a consistent head, headers map and payload digest. */
export function makeExchange(spec: ExchangeSpec): HttpExchange {
  const u = new URL(spec.url);
  const bytes = spec.spooled?.bytes ?? spec.body ?? Buffer.alloc(0);
  const status = spec.status ?? 200;
  const contentType = spec.contentType ?? 'text/html; charset=utf-8';
  const framing = spec.chunkedOrigin === 'raw'
    ? ['Transfer-Encoding: chunked']
    : spec.chunkedOrigin === 'dechunked' ? [] : [`Content-Length: ${bytes.length}`];
  const headerLines = [`Content-Type: ${contentType}`, ...framing, ...(spec.extraHeaders ?? [])];
  const stored = spec.chunkedOrigin === 'raw' ? chunked(bytes) : bytes;
  const responseHead = Buffer.from(`HTTP/1.1 ${status} ${spec.reason ?? 'OK'}\r\n${headerLines.join('\r\n')}\r\n\r\n`, 'latin1');
  const requestHead = Buffer.from(
    `GET ${u.pathname}${u.search} HTTP/1.1\r\nHost: ${u.host}\r\nUser-Agent: tidemark-test\r\nAccept: */*\r\n\r\n`,
    'latin1',
  );
  const headers: Record<string, string> = {};
  for (const line of headerLines) {
    const i = line.indexOf(':');
    headers[line.slice(0, i).toLowerCase()] = line.slice(i + 1).trim();
  }
  const body: StoredBody = spec.spooled
    ? { kind: 'file', path: spec.spooled.path, size: bytes.length }
    : { kind: 'memory', bytes: stored };
  return {
    url: spec.url,
    date: spec.date ?? new Date('2024-05-06T07:08:09.123Z'),
    ip: spec.ip === undefined ? '127.0.0.1' : spec.ip,
    requestHead,
    responseHead,
    status,
    headers,
    body,
    // The payload digest is of the entity body: chunking removed (WARC.md).
    payloadDigest: sha1Digest(bytes),
    truncated: spec.truncated ?? null,
  };
}

/** A deterministic HTML page of about `size` bytes, different for each `seed`. */
export function htmlPage(seed: number, size = 2000): Buffer {
  let html = `<!doctype html><html><head><title>Page ${seed}</title></head><body>`;
  let i = 0;
  while (html.length < size) html += `<p>Paragraph ${i++} of page ${seed}: <a href="/p/${(seed * 7 + i) % 997}">link</a></p>\n`;
  return Buffer.from(html + '</body></html>');
}
