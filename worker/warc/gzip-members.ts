/**
 * Walks the gzip members of a `.warc.gz` file one by one, streaming (a member may hold a
 * multi-megabyte body), and reports where each whole member starts and ends. Used to cut a torn
 * tail after a crash and to check that every record is its own member.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { createInflateRaw, inflateRawSync } from 'node:zlib';
import { gzipHeaderLength } from '../fetch/gzip-header';

/** One whole gzip member. `head` is the first `headLimit` decompressed bytes. */
export interface GzipMember {
  offset: number;
  length: number;
  rawLength: number;
  head: Buffer;
  /** The last (up to) 4 decompressed bytes: a WARC record ends with CRLF CRLF. */
  tail: Buffer;
}

/** Result of a scan: `validEnd` is the end of the last whole member. */
export interface MemberScan {
  members: number;
  validEnd: number;
  fileSize: number;
  /** Why the scan stopped before the end of the file, or null. */
  problem: string | null;
}

const CHUNK = 256 * 1024;
/** Bytes read at once. A read is also where the scan lets other work run: ~2 MB inflate in ~10 ms. */
const WINDOW = 2 * 1024 * 1024;
/** A member whose compressed bytes end within this much of its start is inflated in one call… */
const FAST_INPUT = 512 * 1024;
/** …unless it inflates to more than this (a larger one streams, its head kept, the rest counted). */
const FAST_OUTPUT = 16 * 1024 * 1024;

/** Length of the gzip header at `buf` (RFC 1952, gzipHeaderLength), or an error text. */
function memberHeaderLength(buf: Buffer): number | string {
  if (buf.length < 10) return 'truncated gzip header';
  const length = gzipHeaderLength(buf);
  if (length === 'not-gzip' || length === 'bad-method') return 'not a gzip member';
  return length === 'short' ? 'truncated gzip header' : length;
}

interface Inflated {
  consumed: number;
  rawLength: number;
  head: Buffer;
  tail: Buffer;
}

/** Inflates one raw deflate stream starting at `pos`; resolves with how many bytes it used. */
async function inflateAt(fh: FileHandle, pos: number, fileSize: number, headLimit: number): Promise<Inflated> {
  const inflate = createInflateRaw();
  const headParts: Buffer[] = [];
  let headBytes = 0;
  let rawLength = 0;
  let tail = Buffer.alloc(0);
  let ended = false;
  let failure: Error | null = null;
  inflate.on('data', (d: Buffer) => {
    rawLength += d.length;
    if (headBytes < headLimit) {
      const part = d.subarray(0, headLimit - headBytes);
      headParts.push(Buffer.from(part));
      headBytes += part.length;
    }
    tail = Buffer.concat([tail, d.subarray(Math.max(0, d.length - 4))]).subarray(-4);
  });
  const done = new Promise<void>((resolve) => {
    inflate.on('end', () => { ended = true; resolve(); });
    inflate.on('error', (e) => { failure = e; resolve(); });
  });
  let at = pos;
  const buf = Buffer.alloc(CHUNK);
  while (!ended && !failure && at < fileSize) {
    const { bytesRead } = await fh.read(buf, 0, Math.min(CHUNK, fileSize - at), at);
    if (bytesRead === 0) break;
    at += bytesRead;
    // Copy: the stream may still hold the chunk when the next read refills `buf`.
    const chunk = Buffer.from(buf.subarray(0, bytesRead));
    await new Promise<void>((resolve) => {
      inflate.write(chunk, () => resolve());
      done.then(resolve);
    });
  }
  if (!ended && !failure) inflate.end();
  await done;
  if (!ended) throw failure ?? new Error('deflate stream did not end');
  return { consumed: inflate.bytesWritten, rawLength, head: Buffer.concat(headParts), tail };
}

/** Part of a file that holds a whole `.warc.gz`: a WARC file stored in a WACZ package (a ZIP). */
export interface FilePart {
  start: number;
  length: number;
}

/**
 * A forward-only window over a file's bytes up to `end`, read in blocks of WINDOW: a WARC file's
 * members are a few KB each, and a read per member left the scan waiting on I/O most of its time.
 */
class FileWindow {
  private readonly buf = Buffer.allocUnsafe(WINDOW);
  private from = 0;
  private length = 0;

  constructor(private readonly fh: FileHandle, private readonly end: number) {}

  /** Up to `n` (at most WINDOW) bytes at `pos`, fewer at the end, as a view valid until the next call. */
  async at(pos: number, n: number): Promise<Buffer> {
    const want = Math.min(n, this.end - pos);
    if (pos < this.from || pos + want > this.from + this.length) {
      const { bytesRead } = await this.fh.read(this.buf, 0, Math.min(this.buf.length, this.end - pos), pos);
      this.from = pos;
      this.length = bytesRead;
    }
    const at = pos - this.from;
    return this.buf.subarray(at, Math.min(at + want, this.length));
  }
}

/**
 * A member whose deflate stream ends within `view`, inflated in one call; null when it does not
 * (or inflates past FAST_OUTPUT, or fails): the streaming path then reads it, and reports its fault.
 */
function inflateInView(view: Buffer, headLimit: number): Inflated | null {
  let result: { buffer: Buffer; engine: { bytesWritten: number } };
  try {
    result = inflateRawSync(view, { info: true, maxOutputLength: FAST_OUTPUT }) as unknown as typeof result;
  } catch {
    return null;
  }
  const out = result.buffer;
  return {
    consumed: result.engine.bytesWritten,
    rawLength: out.length,
    // Copies, so that what a caller keeps does not hold the whole record.
    head: Buffer.from(out.subarray(0, headLimit)),
    tail: Buffer.from(out.subarray(Math.max(0, out.length - 4))),
  };
}

/**
 * Scans the members of a gzip file in order, calling `onMember` for each whole one. Stops at the
 * first damaged, truncated or foreign bytes and reports where the whole members end. With `part`,
 * only those bytes are the file, and offsets count from its start.
 */
export async function scanGzipMembers(
  path: string,
  onMember: (m: GzipMember) => void | Promise<void>,
  headLimit = 64 * 1024,
  part?: FilePart,
): Promise<MemberScan> {
  const fh = await open(path, 'r');
  try {
    const start = part?.start ?? 0;
    const end = part ? start + part.length : (await fh.stat()).size;
    const fileSize = end - start;
    const window = new FileWindow(fh, end);
    let pos = start;
    let members = 0;
    while (pos < end) {
      const at = pos - start;
      const view = await window.at(pos, FAST_INPUT);
      const hdr = memberHeaderLength(view);
      if (typeof hdr === 'string') return { members, validEnd: at, fileSize, problem: `${hdr} at ${at}` };
      let inflated = inflateInView(view.subarray(hdr), headLimit);
      if (!inflated) {
        try {
          inflated = await inflateAt(fh, pos + hdr, end, headLimit);
        } catch (err) {
          return { members, validEnd: at, fileSize, problem: `bad member at ${at}: ${(err as Error).message}` };
        }
      }
      const trailerAt = pos + hdr + inflated.consumed;
      const trailer = await window.at(trailerAt, 8);
      if (trailer.length < 8) return { members, validEnd: at, fileSize, problem: `truncated gzip trailer at ${at}` };
      if (trailer.readUInt32LE(4) !== inflated.rawLength % 2 ** 32) {
        return { members, validEnd: at, fileSize, problem: `gzip size mismatch at ${at}` };
      }
      const memberEnd = trailerAt + 8;
      await onMember({ offset: at, length: memberEnd - pos, rawLength: inflated.rawLength, head: inflated.head, tail: inflated.tail });
      members++;
      pos = memberEnd;
    }
    return { members, validEnd: pos - start, fileSize, problem: null };
  } finally {
    await fh.close();
  }
}
