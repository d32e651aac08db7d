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

/** First size of an in-memory body whose length the server did not announce. */
const INITIAL_CAPACITY = 16 * 1024;

/**
 * Receives a body as it streams in: hashes it (the WARC payload digest) and keeps it in memory
 * until it outgrows `memoryLimit`, then on disk, so a 50 MB page never sits in the heap.
 *
 * In memory, each chunk is copied as it arrives into one buffer (sized by Content-Length when
 * announced) rather than kept and joined at the end: undici's chunks are views into the socket's
 * read buffers, which then lived as long as the page beside the joined copy, past the young
 * generation's collections, until a full one.
 */
export class BodySink {
  private readonly hash: Hash = createHash('sha1');
  /** The in-memory body: its first `bytes` bytes (until spooled). */
  private memory: Buffer | null = null;
  private file: WriteStream | null = null;
  private path: string | null = null;
  private fileError: Error | null = null;
  private bytes = 0;
  private overflowed = false;

  /** `expectedBytes`: the announced length (Content-Length), if any, sizes the buffer once. */
  constructor(
    private readonly o: BodySinkOptions,
    private readonly expectedBytes: number | null = null,
  ) {}

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
    } else if (this.bytes > this.o.memoryLimit) {
      signal = this.spool(part);
    } else {
      this.keep(part);
    }
    return this.full ? 'full' : signal;
  }

  /** Resolves when the file stream can take more. */
  drained(): Promise<void> {
    return new Promise((resolve) => (this.file && this.file.writableNeedDrain ? this.file.once('drain', resolve) : resolve()));
  }

  /** Copies `part`, which ends at `this.bytes`, into the in-memory body, growing it if needed. */
  private keep(part: Buffer): void {
    const start = this.bytes - part.length;
    if (!this.memory || this.bytes > this.memory.length) {
      const announced = this.expectedBytes !== null && this.expectedBytes <= this.o.memoryLimit ? Math.min(this.expectedBytes, this.o.maxBytes) : 0;
      const doubled = Math.min(Math.max(INITIAL_CAPACITY, 2 * (this.memory?.length ?? 0)), this.o.memoryLimit);
      const grown = Buffer.allocUnsafeSlow(Math.max(this.bytes, this.memory ? doubled : announced || doubled));
      this.memory?.copy(grown, 0, 0, start);
      this.memory = grown;
    }
    part.copy(this.memory, start);
  }

  /** Moves the body to a file; `part`, ending at `this.bytes`, is the chunk that outgrew memory. */
  private spool(part: Buffer): SinkSignal {
    this.path = join(this.o.spoolDir, `body-${randomUUID()}.bin`);
    this.file = createWriteStream(this.path);
    this.file.on('error', (err) => (this.fileError = err));
    const kept = this.bytes - part.length;
    // Both writes happen: a false return only asks to wait before the next one.
    const keptWritten = kept === 0 || this.file.write(this.memory!.subarray(0, kept));
    const ok = this.file.write(part) && keptWritten;
    this.memory = null;
    return ok ? 'continue' : 'pause';
  }

  /** The stored body and its `sha1:` payload digest. Call once, after the last write. */
  async finish(): Promise<{ body: StoredBody; payloadDigest: string }> {
    const payloadDigest = DIGEST_PREFIX + base32(this.hash.digest());
    if (!this.file) return { body: { kind: 'memory', bytes: this.exactBody() }, payloadDigest };
    const file = this.file;
    await new Promise<void>((resolve, reject) => {
      if (this.fileError) return reject(this.fileError);
      file.once('error', reject);
      file.end(() => resolve());
    });
    return { body: { kind: 'file', path: this.path!, size: this.bytes }, payloadDigest };
  }

  /** The in-memory body; copied to its size when its buffer grew by doubling well past it. */
  private exactBody(): Buffer {
    const memory = this.memory ?? Buffer.alloc(0);
    if (memory.length - this.bytes <= this.bytes / 4) return memory.subarray(0, this.bytes);
    return Buffer.from(memory.subarray(0, this.bytes));
  }

  /** Drops what was received (a failed attempt that will be retried). */
  async discard(): Promise<void> {
    this.memory = null;
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
