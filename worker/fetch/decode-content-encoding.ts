import { createReadStream } from 'node:fs';
import { finished, Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { HttpExchange, StoredBody } from '../capture';
import { DecompressionBombError } from './classify-error';

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
function looksZlibWrapped(first: Buffer | undefined): boolean {
  return !!first && first.length >= 2 && (first[0]! & 0x0f) === 8 && ((first[0]! << 8) | first[1]!) % 31 === 0;
}

function decoderFor(coding: string, firstBytes: Buffer | undefined): EndCheckedDecoder {
  if (coding === 'br') return new EndCheckedDecoder(createBrotliDecompress());
  if (coding === 'deflate') return new EndCheckedDecoder(looksZlibWrapped(firstBytes) ? createInflate() : createInflateRaw());
  return new EndCheckedDecoder(createGunzip());
}

/**
 * A zlib or brotli decoder that tells whether its coded stream reached its end (`cutOff` when
 * not). Finishing a decoder on a stream that stopped early raises "unexpected end of file"
 * (Z_BUF_ERROR, brotli's too), and a stream hands a chunk the finishing flush when it comes after
 * end() was called, dropping what that chunk decoded: so each chunk is decoded in full before the
 * next is taken, and the decoder is finished only then, on no input. What a cut stream decoded is
 * all kept, and its end is told apart. Output is passed on as the decoder pushes it, without
 * waiting for the reader, as zlib's own streams do; destroying this wrapper stops the decoder.
 */
class EndCheckedDecoder extends Transform {
  /** The input ended before the coded stream did, with no corrupt byte before that. */
  cutOff = false;
  private finishing = false;

  constructor(private readonly decoder: Transform) {
    super();
    decoder.on('data', (chunk: Buffer) => this.push(chunk));
    // A data error while decoding; the one finishing raises is _flush's to judge.
    decoder.on('error', (err) => {
      if (!this.finishing) this.destroy(err);
    });
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    // On a data error the callback gets none, or the error: the 'error' listener destroys this.
    this.decoder.write(chunk, (err) => {
      if (!err) done();
    });
  }

  override _flush(done: TransformCallback): void {
    this.finishing = true;
    finished(this.decoder, (err) => {
      this.cutOff = (err as { code?: unknown } | undefined)?.code === 'Z_BUF_ERROR';
      done(this.cutOff ? null : err);
    });
    this.decoder.end();
  }

  override _destroy(err: Error | null, done: (err: Error | null) => void): void {
    this.decoder.destroy();
    done(err);
  }
}

/** At the cap: throw DecompressionBombError, or return the first `maxDecodedBytes` (robots.txt). */
export type OverflowMode = 'throw' | 'truncate';

/**
 * Decodes a stream through the given codings (applied order; undone in reverse), collecting at most
 * `maxDecodedBytes`. Stops reading the moment the output passes the cap and throws
 * DecompressionBombError, so a 10 GB bomb costs a few chunks, not 10 GB of inflation. Corrupt or
 * cut-off data ends decoding quietly with what was decoded: captures truncated at the size cap
 * are still worth parsing. `damaged`: decoding stopped at corrupt data; `cutOff`: the data ran
 * out before a coded stream's end.
 */
export async function decodeStreamCapped(
  source: AsyncIterable<Buffer>,
  codings: readonly string[],
  maxDecodedBytes: number,
  firstBytes?: Buffer,
  overflow: OverflowMode = 'throw',
): Promise<DecodedBody> {
  const decoders = [...codings].reverse().map((c, i) => decoderFor(c, i === 0 ? firstBytes : undefined));
  const out: Buffer[] = [];
  let size = 0;
  let bomb: DecompressionBombError | null = null;
  try {
    await pipeline(Readable.from(source), ...(decoders as [EndCheckedDecoder]), async (decoded: AsyncIterable<Buffer>) => {
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
    if (bomb && overflow === 'throw') throw bomb;
    if (bomb) return whole(Buffer.concat(out));
    // zlib (Z_*) and brotli (ERR__ERROR_*) data errors: keep what was decoded before the damage.
    const code = (err as { code?: unknown }).code;
    if (typeof code !== 'string' || !/^(Z_|ERR__ERROR_)/.test(code)) throw err;
    return { bytes: Buffer.concat(out), damaged: true, cutOff: false };
  }
  return { bytes: Buffer.concat(out), damaged: false, cutOff: decoders.some((d) => d.cutOff) };
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
 * (ResponseInput.truncated): the transport cut it (the exchange's `truncated`), or its content
 * coding broke off at corrupt data or stops before its end, so its last line may be half a URL.
 * Throws as decodeContentEncoding does.
 */
export async function bodyForParsing(ex: Pick<HttpExchange, 'body' | 'headers' | 'truncated'>, maxDecodedBytes: number): Promise<ParsedBody> {
  const contentEncoding = ex.headers['content-encoding'];
  const decoded = await decodeBody(ex.body, contentEncoding, maxDecodedBytes);
  const codingNote = contentCodingNote(contentEncoding, decoded, ex.truncated !== null);
  return { body: decoded.bytes, cut: ex.truncated !== null || decoded.damaged || decoded.cutOff, ...(codingNote ? { codingNote } : {}) };
}

/** A body as its parsers take it (bodyForParsing). */
export interface ParsedBody {
  body: Buffer<ArrayBuffer>;
  cut: boolean;
  /** What went wrong undoing its content coding, for its crawl-log entry (contentCodingNote). */
  codingNote?: string;
}

/**
 * Why the body its parsers read is not the whole decoded body, in the crawl log's words: a coding
 * the crawl does not undo (the bytes are parsed as they came: a mislabelled plain body still gives
 * its links), corrupt data, or a coded stream that ends early though the transport brought every
 * byte (a transport cut has its own outcome). Null when the coding was undone to its end.
 */
export function contentCodingNote(contentEncoding: string | undefined, decoded: DecodedBody, transportCut: boolean): string | null {
  const header = JSON.stringify((contentEncoding ?? '').trim().slice(0, 100));
  if (contentEncoding?.trim() && parseContentCodings(contentEncoding) === null) {
    return `Content-Encoding ${header} is none the crawl undoes (gzip, deflate, br): the body was read for links as it came`;
  }
  if (decoded.damaged) return `Content-Encoding ${header}: corrupt data after ${decoded.bytes.length} decoded bytes; links read from those`;
  if (decoded.cutOff && !transportCut) return `Content-Encoding ${header}: the coded data ends early, after ${decoded.bytes.length} decoded bytes; links read from those`;
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
  if (!codings || codings.length === 0) return decodeStreamCapped(chunks, [], maxDecodedBytes, undefined, overflow);
  // Peek at the first chunk (for the deflate wrapper check), then hand the whole stream on.
  const first = await chunks.next();
  if (first.done) return whole(Buffer.alloc(0));
  async function* withFirst(): AsyncGenerator<Buffer> {
    yield first.value as Buffer;
    yield* chunks;
  }
  return decodeStreamCapped(withFirst(), codings, maxDecodedBytes, first.value as Buffer, overflow);
}
