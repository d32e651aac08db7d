import { createReadStream } from 'node:fs';
import { finished, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { crc32, createBrotliDecompress, createInflateRaw, type BrotliDecompress, type InflateRaw } from 'node:zlib';
import type { HttpExchange, StoredBody } from '../capture';
import { DecompressionBombError } from './classify-error';
import { gzipHeaderLength } from './gzip-header';

/** Content codings we can undo, listed in the order they were applied. Unknown ones: null. */
export function parseContentCodings(header: string | undefined): string[] | null {
  const codings = (header ?? '')
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  return codings.every((c) => KNOWN.has(c)) ? codings : null;
}
const KNOWN = new Set(['gzip', 'x-gzip', 'deflate', 'br']);

/** "deflate" is meant to be zlib-wrapped, but many servers send raw deflate: the first two bytes tell. */
function looksZlibWrapped(first: Buffer): boolean {
  return first.length >= 2 && (first[0]! & 0x0f) === 8 && ((first[0]! << 8) | first[1]!) % 31 === 0;
}

/** zlib's and brotli's data errors (Z_DATA_ERROR, ERR__ERROR_FORMAT_…), as against a failure of the process. */
function isDataError(err: Error): boolean {
  const code = (err as { code?: unknown }).code;
  return typeof code === 'string' && /^(Z_|ERR__ERROR_)/.test(code);
}

/**
 * A node:zlib decoder fed one chunk at a time, its output handed to `onOutput` as it comes. On
 * corrupt data Node hands out nothing the call that met it decoded (at most a chunk of 16 KB of output).
 */
class NativeDecoder {
  private failure: Error | null = null;
  /** Settles the decode under way when the decoder closes without finishing it. */
  private onClose: (() => void) | null = null;

  constructor(
    private readonly decoder: InflateRaw | BrotliDecompress,
    onOutput: (chunk: Buffer) => void,
  ) {
    decoder.on('data', onOutput);
    decoder.on('error', (err) => (this.failure = err));
    decoder.on('close', () => this.onClose?.());
  }

  /** How many of `chunk`'s bytes the coded data took (fewer once it ended among them), or the error that stopped it. */
  decode(chunk: Buffer): Promise<number | Error> {
    const before = this.decoder.bytesWritten;
    return new Promise((resolve) => {
      this.onClose = () => resolve(this.failure ?? new Error('the decoder was stopped'));
      this.decoder.write(chunk, (err) => {
        if (!err) resolve(this.decoder.bytesWritten - before);
      });
    });
  }

  /**
   * Finishes the decoder on no input: 'cut-off' when its coded data had not ended ("unexpected end of
   * file", Z_BUF_ERROR, brotli's too). A chunk given with the finishing flush would lose what it decoded.
   */
  finish(): Promise<'ended' | 'cut-off' | Error> {
    return new Promise((resolve) => {
      finished(this.decoder, (err) => resolve(!err ? 'ended' : (err as { code?: unknown }).code === 'Z_BUF_ERROR' ? 'cut-off' : err));
      this.decoder.end();
    });
  }

  stop(): void {
    this.decoder.destroy();
  }
}

/** Adler-32 (RFC 1950 §9), the zlib format's checksum, of `bytes` after `adler` (1 for none). */
function adler32(adler: number, bytes: Uint8Array): number {
  let a = adler & 0xffff;
  let b = adler >>> 16;
  for (let at = 0; at < bytes.length; ) {
    for (const end = Math.min(at + 4096, bytes.length); at < end; at++) {
      a += bytes[at]!;
      b += a;
    }
    a %= 65521;
    b %= 65521;
  }
  return ((b << 16) | a) >>> 0;
}

/** A gzip header longer than this (a file name without its end, say) is taken for damage, not held on to. */
const MAX_GZIP_HEADER_BYTES = 1024 * 1024;

/**
 * The gzip member header's length (gzipHeaderLength), 'bad' also for flags zlib refuses (the
 * reserved bits).
 */
function memberHeaderLength(bytes: Buffer): number | 'short' | 'not-gzip' | 'bad' {
  const length = gzipHeaderLength(bytes);
  if (length === 'not-gzip' || (length === 'short' && bytes.length < 10)) return length;
  if (length === 'bad-method' || bytes[3]! & 0xe0) return 'bad';
  return length;
}

const NO_BYTES = Buffer.alloc(0);

/**
 * Undoes one content coding (gzip, deflate zlib-wrapped or raw, br), a chunk at a time. The gzip
 * and zlib framings around deflate data are read here, their checksums checked here, and zlib
 * inflates the raw deflate data only: node:zlib's gunzip and inflate fail on a wrong checksum, or
 * on bytes after a gzip member that begin none, in the call that inflated the data's end, and Node
 * hands out nothing that call decoded — a whole small page. Never fails on bad data, and passes on
 * all the output zlib hands out before it: `damaged` when corrupt data or a wrong checksum ended the decoding,
 * `cutOff` when the input ended before the coded data did. What follows the coded data's end
 * (after a gzip member, bytes that begin no other) is ignored, as browsers do.
 */
class ContentDecoder extends Transform {
  damaged = false;
  cutOff = false;
  private state: 'header' | 'data' | 'trailer' | 'between-members' | 'done' = 'header';
  /** A header's or trailer's bytes that came in part. */
  private held: Buffer = NO_BYTES;
  /** deflate's is 'zlib' until its first bytes show raw deflate. */
  private framing: 'gzip' | 'zlib' | 'raw' | 'br';
  private decoder: NativeDecoder | null = null;
  private members = 0;
  /** Of the current gzip member or zlib stream: its output's checksum and length (mod 2^32). */
  private checksum = 0;
  private size = 0;

  constructor(coding: string) {
    super();
    this.framing = coding === 'br' ? 'br' : coding === 'deflate' ? 'zlib' : 'gzip';
    if (this.framing === 'br') this.startData();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.decodeChunk(chunk).then(() => done(), done);
  }

  override _flush(done: TransformCallback): void {
    this.judgeEnd().then(() => done(), done);
  }

  override _destroy(err: Error | null, done: (err: Error | null) => void): void {
    this.decoder?.stop();
    done(err);
  }

  private async decodeChunk(chunk: Buffer): Promise<void> {
    while (chunk.length > 0 && this.state !== 'done') {
      if (this.state === 'header') chunk = this.readHeader(chunk);
      else if (this.state === 'data') chunk = await this.decodeData(chunk);
      else if (this.state === 'trailer') chunk = this.readTrailer(chunk);
      else chunk = this.skipPadding(chunk);
    }
  }

  /** At the input's end: was the coded data whole? */
  private async judgeEnd(): Promise<void> {
    if (this.state === 'data' && (this.framing === 'raw' || this.framing === 'br')) {
      // No trailer to wait for: only the decoder knows whether its data ended right here.
      const end = await this.decoder!.finish();
      if (end instanceof Error) this.fail(end);
      else this.cutOff = end === 'cut-off';
    } else {
      this.cutOff = this.state === 'data' || this.state === 'trailer' || (this.state === 'header' && this.held.length > 0);
    }
  }

  private readHeader(chunk: Buffer): Buffer {
    const bytes = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    this.held = NO_BYTES;
    let length: number | 'short' | 'not-gzip' | 'bad';
    if (this.framing === 'gzip') {
      length = memberHeaderLength(bytes);
      if (length === 'short' && bytes.length > MAX_GZIP_HEADER_BYTES) length = 'bad';
    } else if (bytes.length < 2) {
      length = 'short';
    } else if (looksZlibWrapped(bytes)) {
      length = bytes[1]! & 0x20 ? 'bad' : 2; // a preset dictionary: nothing here to decode with
    } else {
      this.framing = 'raw';
      length = 0;
    }
    if (length === 'short') {
      this.held = bytes;
      return NO_BYTES;
    }
    // Bytes after a gzip member that begin no other are ignored, as padding is; a first that is none is damage.
    if (length === 'not-gzip' && this.members > 0) return this.stopDecoding();
    if (typeof length !== 'number') return this.stopDecoding(true);
    this.startData();
    return bytes.subarray(length);
  }

  private startData(): void {
    this.members++;
    this.checksum = this.framing === 'zlib' ? 1 : 0;
    this.size = 0;
    this.decoder = new NativeDecoder(this.framing === 'br' ? createBrotliDecompress() : createInflateRaw(), (out) => this.output(out));
    this.state = 'data';
  }

  private output(chunk: Buffer): void {
    if (this.framing === 'gzip') this.checksum = crc32(chunk, this.checksum);
    else if (this.framing === 'zlib') this.checksum = adler32(this.checksum, chunk);
    this.size = (this.size + chunk.length) >>> 0;
    this.push(chunk);
  }

  private async decodeData(chunk: Buffer): Promise<Buffer> {
    const taken = await this.decoder!.decode(chunk);
    if (taken instanceof Error) return this.fail(taken);
    if (taken === chunk.length) return NO_BYTES;
    // The deflate or brotli data ended in this chunk: what follows is the trailer, or ignored.
    this.decoder!.stop();
    this.decoder = null;
    this.state = this.framing === 'gzip' || this.framing === 'zlib' ? 'trailer' : 'done';
    return chunk.subarray(taken);
  }

  private readTrailer(chunk: Buffer): Buffer {
    const bytes = this.held.length > 0 ? Buffer.concat([this.held, chunk]) : chunk;
    const length = this.framing === 'gzip' ? 8 : 4;
    if (bytes.length < length) {
      this.held = bytes;
      return NO_BYTES;
    }
    this.held = NO_BYTES;
    // gzip: CRC-32 and length, little-endian; zlib: Adler-32, big-endian.
    const intact = this.framing === 'gzip'
      ? bytes.readUInt32LE(0) === this.checksum && bytes.readUInt32LE(4) === this.size
      : bytes.readUInt32BE(0) === this.checksum;
    if (!intact) return this.stopDecoding(true);
    this.state = this.framing === 'gzip' ? 'between-members' : 'done';
    return bytes.subarray(length);
  }

  /** After a gzip member: zero bytes (padding, skipped), another member, or bytes ignored. */
  private skipPadding(chunk: Buffer): Buffer {
    const at = chunk.findIndex((byte) => byte !== 0);
    if (at < 0) return NO_BYTES;
    this.state = 'header';
    return chunk.subarray(at);
  }

  /** A data error ends the decoding as damaged; any other error is the process's, and fails it. */
  private fail(err: Error): Buffer {
    if (!isDataError(err)) throw err;
    return this.stopDecoding(true);
  }

  private stopDecoding(damaged = false): Buffer {
    this.damaged = damaged;
    this.state = 'done';
    this.decoder?.stop();
    this.decoder = null;
    return NO_BYTES;
  }
}

/** At the cap: throw DecompressionBombError, or return the first `maxDecodedBytes` (robots.txt). */
export type OverflowMode = 'throw' | 'truncate';

/**
 * Decodes a stream through the given codings (applied order; undone in reverse), collecting at most
 * `maxDecodedBytes`. Stops reading the moment the output passes the cap and throws
 * DecompressionBombError, so a 10 GB bomb costs a few chunks, not 10 GB of inflation. Corrupt or
 * cut-off data ends decoding quietly with all that was decoded before it (ContentDecoder):
 * captures truncated at the size cap are still worth parsing. `damaged`: decoding stopped at
 * corrupt data; `cutOff`: the data ran out before a coded stream's end.
 */
export async function decodeStreamCapped(
  source: AsyncIterable<Buffer>,
  codings: readonly string[],
  maxDecodedBytes: number,
  overflow: OverflowMode = 'throw',
): Promise<DecodedBody> {
  const decoders = [...codings].reverse().map((c) => new ContentDecoder(c));
  const out: Buffer[] = [];
  let size = 0;
  let bomb: DecompressionBombError | null = null;
  try {
    await pipeline(Readable.from(source), ...(decoders as [ContentDecoder]), async (decoded: AsyncIterable<Buffer>) => {
      for await (const chunk of decoded) {
        if (size + chunk.length > maxDecodedBytes) {
          if (overflow === 'truncate') out.push(chunk.subarray(0, maxDecodedBytes - size));
          throw (bomb = new DecompressionBombError(maxDecodedBytes));
        }
        size += chunk.length;
        out.push(chunk);
      }
    });
  } catch (err) {
    if (!bomb) throw err;
    if (overflow === 'throw') throw bomb;
    return whole(Buffer.concat(out));
  }
  // A coding damaged inside another leaves the outer one's data ending early: the damage is what happened.
  const damaged = decoders.some((d) => d.damaged);
  return { bytes: Buffer.concat(out), damaged, cutOff: !damaged && decoders.some((d) => d.cutOff) };
}

/** A body with its content coding undone, and whether its decoding stopped before the coded end. */
export interface DecodedBody {
  bytes: Buffer<ArrayBuffer>;
  /** Corrupt data ended the decoding: the bytes are what came before it. */
  damaged: boolean;
  /**
   * The data ended before a coded stream did (a .gz file written in part, served with its
   * length right): the bytes are all it held, and end where it stops, maybe inside a line.
   */
  cutOff: boolean;
}

/** Bytes decoded to the end of their coding, or with none to undo. */
function whole(bytes: Buffer<ArrayBuffer>): DecodedBody {
  return { bytes, damaged: false, cutOff: false };
}

async function* fileChunks(path: string): AsyncGenerator<Buffer> {
  for await (const chunk of createReadStream(path, { highWaterMark: 64 * 1024 })) yield chunk as Buffer;
}

async function* memoryChunks(bytes: Buffer): AsyncGenerator<Buffer> {
  for (let at = 0; at < bytes.length; at += 64 * 1024) yield bytes.subarray(at, at + 64 * 1024);
}

/**
 * The entity body with its Content-Encoding removed (gzip, deflate, br, chained), for parsing.
 * The stored body itself is never changed. Throws DecompressionBombError when the decoded body
 * would exceed `maxDecodedBytes` (with overflow 'truncate': returns its first bytes instead); an
 * unknown coding returns the bytes as they are (parsers then find nothing, the capture is still
 * archived).
 */
export async function decodeContentEncoding(
  body: StoredBody | Buffer,
  contentEncoding: string | undefined,
  maxDecodedBytes: number,
  overflow: OverflowMode = 'throw',
): Promise<Buffer<ArrayBuffer>> {
  return (await decodeBody(body, contentEncoding, maxDecodedBytes, overflow)).bytes;
}

/**
 * An exchange's body as its parsers take it: decoded, and `cut` when they must not trust its end
 * (ResponseInput.truncated): the transport cut it (the exchange's `truncated`), its content coding
 * broke off at corrupt data or stops before its end, so its last line may be half a URL, or it is
 * a body with no coding to undo longer than `maxDecodedBytes`. Such a body (possible when
 * limits.maxBodyBytes is the larger) is no decompression bomb: its parsers read its first
 * `maxDecodedBytes`, as they read a body cut at the size cap. Throws DecompressionBombError for a
 * coded body that decodes to more.
 */
export async function bodyForParsing(ex: Pick<HttpExchange, 'body' | 'headers' | 'truncated'>, maxDecodedBytes: number): Promise<ParsedBody> {
  const contentEncoding = ex.headers['content-encoding'];
  const asReceived = !parseContentCodings(contentEncoding)?.length;
  const decoded = await decodeBody(ex.body, contentEncoding, maxDecodedBytes, asReceived ? 'truncate' : 'throw');
  const size = ex.body.kind === 'memory' ? ex.body.bytes.length : ex.body.size;
  const overCap = asReceived && size > maxDecodedBytes;
  const notes = [
    contentCodingNote(contentEncoding, decoded, ex.truncated !== null),
    overCap ? `the body is ${size} bytes, more than limits.maxDecodedBytes (${maxDecodedBytes}): links read from its first ${maxDecodedBytes} bytes` : null,
  ].filter((n) => n !== null);
  return { body: decoded.bytes, cut: ex.truncated !== null || decoded.damaged || decoded.cutOff || overCap, ...(notes.length ? { note: notes.join('; ') } : {}) };
}

/** A body as its parsers take it (bodyForParsing). */
export interface ParsedBody {
  body: Buffer<ArrayBuffer>;
  cut: boolean;
  /**
   * Why its parsers read less than the whole decoded body, for its crawl-log entry: its content
   * coding not undone to its end (contentCodingNote), or a body longer than maxDecodedBytes.
   */
  note?: string;
}

/**
 * Why the body its parsers read is not the whole decoded body, in the crawl log's words
 * (contentCodingFault): a coding the crawl does not undo (the bytes are parsed as they came: a
 * mislabelled plain body still gives its links), corrupt data, or a coded stream that ends early.
 * Null when the coding was undone to its end.
 */
export function contentCodingNote(contentEncoding: string | undefined, decoded: DecodedBody, transportCut: boolean): string | null {
  const fault = contentCodingFault(contentEncoding, decoded, transportCut);
  if (fault === null) return null;
  return parseContentCodings(contentEncoding) === null ? `${fault}: the body was read for links as it came` : `${fault}; links read from those`;
}

/**
 * What kept a body's content coding from being undone to its end: a coding the crawl does not
 * undo, corrupt data (a wrong checksum too), or a coded stream that ends early though the
 * transport brought every byte (a transport cut has its own outcome). Null when none did.
 */
export function contentCodingFault(contentEncoding: string | undefined, decoded: DecodedBody, transportCut: boolean): string | null {
  const header = JSON.stringify((contentEncoding ?? '').trim().slice(0, 100));
  if (parseContentCodings(contentEncoding) === null) return `Content-Encoding ${header} is none the crawl undoes (gzip, deflate, br)`;
  if (decoded.damaged) return `Content-Encoding ${header}: corrupt data after ${decoded.bytes.length} decoded bytes`;
  if (decoded.cutOff && !transportCut) return `Content-Encoding ${header}: the coded data ends early, after ${decoded.bytes.length} decoded bytes`;
  return null;
}

/**
 * bodyForParsing, or null for a decompression bomb (a body that decodes to more than
 * `maxDecodedBytes`): the revisits and recrawls that meet one archive it as received, unread.
 */
export async function bodyUnlessBomb(ex: Pick<HttpExchange, 'body' | 'headers' | 'truncated'>, maxDecodedBytes: number): Promise<ParsedBody | null> {
  try {
    return await bodyForParsing(ex, maxDecodedBytes);
  } catch (err) {
    if (err instanceof DecompressionBombError) return null;
    throw err;
  }
}

/** decodeContentEncoding, telling whether corrupt data or the data's end stopped the decoding early. */
export async function decodeBody(
  body: StoredBody | Buffer,
  contentEncoding: string | undefined,
  maxDecodedBytes: number,
  overflow: OverflowMode = 'throw',
): Promise<DecodedBody> {
  const codings = parseContentCodings(contentEncoding);
  const bytes = Buffer.isBuffer(body) ? body : body.kind === 'memory' ? body.bytes : null;
  if (bytes && (!codings || codings.length === 0)) {
    // Nothing to undo (identity, the usual case): the bytes themselves, without a stream or a copy.
    if (bytes.length <= maxDecodedBytes) return whole(bytes as Buffer<ArrayBuffer>);
    if (overflow === 'throw') throw new DecompressionBombError(maxDecodedBytes);
    return whole(bytes.subarray(0, maxDecodedBytes) as Buffer<ArrayBuffer>);
  }
  const chunks = Buffer.isBuffer(body) ? memoryChunks(body) : body.kind === 'memory' ? memoryChunks(body.bytes) : fileChunks(body.path);
  return decodeStreamCapped(chunks, codings ?? [], maxDecodedBytes, overflow);
}
