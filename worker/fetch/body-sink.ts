import { createHash, randomUUID, type Hash } from 'node:crypto';
import { closeSync, openSync, writeSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredBody } from '../capture';
import { base32, DIGEST_PREFIX } from '../warc/warc-digest';

/** A spooled body's file name in its spool folder: one per fetch. */
const spoolFileName = () => `body-${randomUUID()}.bin`;

/** Whether `name` is a spooled body's file name, as spoolFileName makes them (and every earlier version did). */
export const isSpoolFileName = (name: string): boolean => /^body-[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}\.bin$/.test(name);

export interface BodySinkOptions {
  /** Bytes kept at most; the rest of the body is not read. */
  maxBytes: number;
  /** Bodies larger than this go to a file in `spoolDir` instead of memory. */
  memoryLimit: number;
  spoolDir: string;
}

/** What `write` asks of the reader: go on, or stop (cap reached). */
export type SinkSignal = 'continue' | 'full';

/** First size of an in-memory body whose length the server did not announce. */
const INITIAL_CAPACITY = 16 * 1024;

/**
 * Receives a body as it streams in: hashes it (the WARC payload digest) and keeps it in memory
 * until it outgrows `memoryLimit`, then on disk, so a 50 MB page never sits in the heap.
 *
 * The spool file is written synchronously, so the reader never has to wait for the disk: pausing
 * undici 7 to wait for a write stream's drain crashed the process (an assertion in its parser)
 * when the server closed the connection right after the body, as HTTP/1.0 servers do.
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
  /** The spool file's descriptor, once the body outgrew memory. */
  private fd: number | null = null;
  private path: string | null = null;
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

  /**
   * Takes one chunk (cut at the cap). Throws when the spool file cannot be written. The cap is
   * also full when it is reached exactly and the server announced more: waiting for the next byte
   * to learn so would wait on a server that stalls there until the total timeout.
   */
  write(chunk: Buffer): SinkSignal {
    const room = this.o.maxBytes - this.bytes;
    if (chunk.length > room || (chunk.length === room && (this.expectedBytes ?? 0) > this.o.maxBytes)) this.overflowed = true;
    if (room <= 0) return 'full';
    const part = this.overflowed ? chunk.subarray(0, room) : chunk;
    this.hash.update(part);
    this.bytes += part.length;
    if (this.fd !== null) writeAll(this.fd, part);
    else if (this.bytes > this.o.memoryLimit) this.spool(part);
    else this.keep(part);
    return this.full ? 'full' : 'continue';
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
  private spool(part: Buffer): void {
    this.path = join(this.o.spoolDir, spoolFileName());
    this.fd = openSync(this.path, 'w');
    const kept = this.bytes - part.length;
    if (kept > 0) writeAll(this.fd, this.memory!.subarray(0, kept));
    writeAll(this.fd, part);
    this.memory = null;
  }

  /** The stored body and its `sha1:` payload digest. Call once, after the last write. */
  async finish(): Promise<{ body: StoredBody; payloadDigest: string }> {
    const payloadDigest = DIGEST_PREFIX + base32(this.hash.digest());
    if (this.fd === null) return { body: { kind: 'memory', bytes: this.exactBody() }, payloadDigest };
    this.closeFile();
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
    if (this.path) {
      this.closeFile();
      await rm(this.path, { force: true });
    }
  }

  private closeFile(): void {
    if (this.fd === null) return;
    const fd = this.fd;
    this.fd = null;
    closeSync(fd);
  }
}

/** Writes all of `bytes` (a write to a file may take fewer). */
function writeAll(fd: number, bytes: Buffer): void {
  for (let at = 0; at < bytes.length; ) at += writeSync(fd, bytes, at, bytes.length - at);
}

/** Deletes a spooled body once its WARC records are written; memory bodies need nothing. */
export async function releaseBody(body: StoredBody): Promise<void> {
  if (body.kind === 'file') await rm(body.path, { force: true });
}
