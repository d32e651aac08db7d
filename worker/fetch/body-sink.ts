import { createHash, randomUUID, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredBody } from '../capture';
import { base32, DIGEST_PREFIX } from '../warc/warc-digest';

export interface BodySinkOptions {
  /** Bytes kept at most; the rest of the body is not read. */
  maxBytes: number;
  /** Bodies larger than this go to a file in `spoolDir` instead of memory. */
  memoryLimit: number;
  spoolDir: string;
}

/** What `write` asks of the reader: go on, wait for the disk (`drain`), or stop (cap reached). */
export type SinkSignal = 'continue' | 'pause' | 'full';

/**
 * Receives a body as it streams in: hashes it (the WARC payload digest) and keeps it in memory
 * until it outgrows `memoryLimit`, then on disk, so a 50 MB page never sits in the heap.
 */
export class BodySink {
  private readonly hash: Hash = createHash('sha1');
  private chunks: Buffer[] = [];
  private file: WriteStream | null = null;
  private path: string | null = null;
  private fileError: Error | null = null;
  private bytes = 0;
  private overflowed = false;

  constructor(private readonly o: BodySinkOptions) {}

  get size(): number {
    return this.bytes;
  }

  /** True once the server sent more than `maxBytes`: the stored body is cut short. */
  get full(): boolean {
    return this.overflowed;
  }

  /** Takes one chunk (cut at the cap). When it returns 'pause', wait for `drained()`. */
  write(chunk: Buffer): SinkSignal {
    if (this.fileError) throw this.fileError;
    const room = this.o.maxBytes - this.bytes;
    if (chunk.length > room) this.overflowed = true;
    if (room <= 0) return 'full';
    const part = this.overflowed ? chunk.subarray(0, room) : chunk;
    this.hash.update(part);
    this.bytes += part.length;
    let signal: SinkSignal = 'continue';
    if (this.file) {
      if (!this.file.write(part)) signal = 'pause';
    } else {
      this.chunks.push(part);
      if (this.bytes > this.o.memoryLimit) signal = this.spool();
    }
    return this.full ? 'full' : signal;
  }

  /** Resolves when the file stream can take more. */
  drained(): Promise<void> {
    return new Promise((resolve) => (this.file && this.file.writableNeedDrain ? this.file.once('drain', resolve) : resolve()));
  }

  private spool(): SinkSignal {
    this.path = join(this.o.spoolDir, `body-${randomUUID()}.bin`);
    this.file = createWriteStream(this.path);
    this.file.on('error', (err) => (this.fileError = err));
    let ok = true;
    for (const c of this.chunks) ok = this.file.write(c) && ok;
    this.chunks = [];
    return ok ? 'continue' : 'pause';
  }

  /** The stored body and its `sha1:` payload digest. Call once, after the last write. */
  async finish(): Promise<{ body: StoredBody; payloadDigest: string }> {
    const payloadDigest = DIGEST_PREFIX + base32(this.hash.digest());
    if (!this.file) {
      const bytes = this.chunks.length === 1 ? this.chunks[0]! : Buffer.concat(this.chunks, this.bytes);
      return { body: { kind: 'memory', bytes }, payloadDigest };
    }
    const file = this.file;
    await new Promise<void>((resolve, reject) => {
      if (this.fileError) return reject(this.fileError);
      file.once('error', reject);
      file.end(() => resolve());
    });
    return { body: { kind: 'file', path: this.path!, size: this.bytes }, payloadDigest };
  }

  /** Drops what was received (a failed attempt that will be retried). */
  async discard(): Promise<void> {
    this.chunks = [];
    if (this.file) {
      this.file.destroy();
      await rm(this.path!, { force: true });
    }
  }
}

/** Deletes a spooled body once its WARC records are written; memory bodies need nothing. */
export async function releaseBody(body: StoredBody): Promise<void> {
  if (body.kind === 'file') await rm(body.path, { force: true });
}
