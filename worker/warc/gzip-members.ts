/**
 * Walks the gzip members of a `.warc.gz` file one by one, streaming (a member may hold a
 * multi-megabyte body), and reports where each whole member starts and ends. Used to cut a torn
 * tail after a crash and to check that every record is its own member.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { createInflateRaw } from 'node:zlib';

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

/** Length of the gzip header at `buf` (RFC 1952), or an error text. */
function gzipHeaderLength(buf: Buffer): number | string {
  if (buf.length < 10) return 'truncated gzip header';
  if (buf[0] !== 0x1f || buf[1] !== 0x8b || buf[2] !== 8) return 'not a gzip member';
  const flags = buf[3];
  let at = 10;
  if (flags & 4) {
    if (buf.length < at + 2) return 'truncated gzip header';
    at += 2 + buf.readUInt16LE(at);
  }
  for (const bit of [8, 16]) {
    if (!(flags & bit)) continue;
    const zero = buf.indexOf(0, at);
    if (zero < 0) return 'truncated gzip header';
    at = zero + 1;
  }
  if (flags & 2) at += 2;
  return at > buf.length ? 'truncated gzip header' : at;
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
    let pos = start;
    let members = 0;
    const headBuf = Buffer.alloc(4096);
    while (pos < end) {
      const at = pos - start;
      const { bytesRead } = await fh.read(headBuf, 0, Math.min(headBuf.length, end - pos), pos);
      const hdr = gzipHeaderLength(headBuf.subarray(0, bytesRead));
      if (typeof hdr === 'string') return { members, validEnd: at, fileSize, problem: `${hdr} at ${at}` };
      let inflated: Inflated;
      try {
        inflated = await inflateAt(fh, pos + hdr, end, headLimit);
      } catch (err) {
        return { members, validEnd: at, fileSize, problem: `bad member at ${at}: ${(err as Error).message}` };
      }
      const trailerAt = pos + hdr + inflated.consumed;
      const trailer = Buffer.alloc(8);
      const t = await fh.read(trailer, 0, Math.max(0, Math.min(8, end - trailerAt)), trailerAt);
      if (t.bytesRead < 8) return { members, validEnd: at, fileSize, problem: `truncated gzip trailer at ${at}` };
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
