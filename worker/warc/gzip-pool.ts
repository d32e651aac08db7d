/**
 * A small pool of worker threads that turn (header, block) into a finished gzip member: they
 * hash the block (WARC-Block-Digest), append the digest line, the block and the closing CRLF
 * CRLF, and gzip the whole record. Hashing and compressing are nearly all the CPU a record
 * costs, so the main thread only builds headers and writes bytes.
 *
 * Records are compressed with libdeflate (WASM), made for whole-buffer compression, which is what
 * a record in memory is: on the throughput benchmark's 40 KB pages its level 1 takes ~0.36 ms of
 * CPU and compresses 3.72:1, where node:zlib took ~0.67 ms at level 3 for 3.65:1 (and 0.37 ms at
 * level 1 for 3.53:1; bench/warc-speed.ts). node:zlib stays for level 0 (stored), for records over
 * LIBDEFLATE_MAX_BYTES (a WASM heap keeps the size of the largest input it ever held; bodies over
 * 1 MB are spooled to disk and streamed through node:zlib anyway) and if the module cannot be loaded.
 */
import { Worker, type ResourceLimits } from 'node:worker_threads';
import { availableParallelism } from 'node:os';

/** Largest record compressed with libdeflate; larger ones (rare: media past the spool threshold's reach) go to node:zlib. */
export const LIBDEFLATE_MAX_BYTES = 4 * 1024 * 1024;

/**
 * The thread's code, evaluated as a script so it runs the same under tsx, plain node and any
 * bundler (no second file to resolve). Kept tiny: base32 here mirrors warc-digest.ts.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { gzipSync } = require('node:zlib');
const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
function b32(bytes) {
  let out = '', bits = 0, value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff; bits += 8;
    while (bits >= 5) { out += A[(value >>> (bits - 5)) & 31]; bits -= 5; }
  }
  if (bits > 0) out += A[(value << (5 - bits)) & 31];
  while (out.length % 8) out += '=';
  return out;
}
const TAIL = Buffer.from('\\r\\n\\r\\n');
// The record is assembled in one buffer reused from job to job (libdeflate and zlib copy their
// input anyway): a fresh one per record was garbage this thread, which allocates little else,
// collected only every few hundred records.
let scratch = Buffer.allocUnsafeSlow(64 * 1024);
function assemble(head, block) {
  const size = head.length + block.length + TAIL.length;
  // A rare huge record gets a buffer of its own: the reused one must not keep its size.
  if (size > ${LIBDEFLATE_MAX_BYTES}) return Buffer.concat([head, block, TAIL]);
  if (size > scratch.length) scratch = Buffer.allocUnsafeSlow(Math.min(${LIBDEFLATE_MAX_BYTES}, Math.max(size, 2 * scratch.length)));
  head.copy(scratch, 0);
  scratch.set(block, head.length);
  TAIL.copy(scratch, head.length + block.length);
  return scratch.subarray(0, size);
}
const libdeflateGzip = workerData.libdeflate ? import(workerData.libdeflate).then((m) => m.gzip, () => null) : Promise.resolve(null);
/** A record libdeflate fails on (its WASM heap cannot grow, say) goes to node:zlib rather than failing the capture. */
function libdeflateMember(gzip, record, level) {
  try {
    return gzip(record, level);
  } catch {
    return null;
  }
}
function zlibMember(record, level) {
  const gz = gzipSync(record, { level });
  // A fresh, unshared buffer so it can be transferred rather than copied.
  const member = new Uint8Array(gz.byteLength);
  member.set(gz);
  return member;
}
parentPort.on('message', async (job) => {
  try {
    const gzip = await libdeflateGzip;
    const block = Buffer.from(job.block.buffer, job.block.byteOffset, job.block.byteLength);
    const digest = 'sha1:' + b32(createHash('sha1').update(block).digest());
    const head = Buffer.from(job.head + 'WARC-Block-Digest: ' + digest + '\\r\\n\\r\\n', 'utf8');
    const record = assemble(head, block);
    // libdeflate returns a copy out of its heap, with a buffer of its own: transferable as it is.
    const member = (gzip && job.level > 0 && record.length <= ${LIBDEFLATE_MAX_BYTES} && libdeflateMember(gzip, record, job.level)) || zlibMember(record, job.level);
    parentPort.postMessage({ id: job.id, member, digest }, [member.buffer]);
  } catch (err) {
    parentPort.postMessage({ id: job.id, error: String(err && err.stack || err) });
  }
});
`;

/** One finished gzip member and the block digest written into it. */
export interface CompressedRecord {
  member: Uint8Array;
  blockDigest: string;
}

interface Pending {
  resolve: (r: CompressedRecord) => void;
  reject: (e: Error) => void;
  worker: number;
}

/**
 * Thread pool for record compression: by default one thread per core besides the main thread's
 * (on 2 cores one thread keeps up with the crawl — its gzip takes about a third of the main
 * thread's time — and a second isolate only added ~25 MB of memory and contention).
 */
export class GzipPool {
  private readonly workers: Worker[] = [];
  private readonly load: number[] = [];
  private readonly pending = new Map<number, Pending>();
  private nextId = 0;
  private closed = false;

  /**
   * `libdeflate`: the module the threads import (its URL; null for node:zlib alone), the installed
   * one by default. `resourceLimits`: the threads' own (Node's Worker option), none by default.
   */
  constructor(
    private readonly level: number,
    size = Math.max(1, availableParallelism() - 1),
    private readonly libdeflate: string | null = libdeflateUrl(),
    private readonly resourceLimits?: ResourceLimits,
  ) {
    for (let i = 0; i < Math.max(1, size); i++) this.spawn(i);
  }

  private spawn(index: number): void {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { libdeflate: this.libdeflate }, resourceLimits: this.resourceLimits });
    worker.on('message', (msg: { id: number; member?: Uint8Array; digest?: string; error?: string }) => {
      const p = this.pending.get(msg.id);
      if (!p) return;
      this.pending.delete(msg.id);
      if (--this.load[index] === 0) worker.unref();
      if (msg.error || !msg.member || !msg.digest) p.reject(new Error(msg.error ?? 'gzip worker failed'));
      else p.resolve({ member: msg.member, blockDigest: msg.digest });
    });
    worker.on('error', (err) => this.failWorker(index, err));
    // A thread that stops without an 'error' (terminated, or exiting on its own) would leave its
    // jobs pending with nothing left to settle them or keep the process alive.
    worker.on('exit', (code) => {
      if (this.workers[index] === worker) this.failWorker(index, new Error(`gzip thread stopped (exit code ${code})`));
    });
    // Idle threads must not keep the process alive; busy ones must (see compress()).
    worker.unref();
    this.workers[index] = worker;
    this.load[index] = 0;
  }

  private failWorker(index: number, err: Error): void {
    if (this.closed) return;
    for (const [id, p] of this.pending) {
      if (p.worker !== index) continue;
      this.pending.delete(id);
      p.reject(err);
    }
    this.load[index] = 0;
    this.spawn(index);
  }

  /**
   * Hashes and gzips one record. `head` is the serialised header without the block digest and
   * without the blank line; `block` is copied, so the caller may reuse it.
   */
  compress(head: string, blockParts: Uint8Array[]): Promise<CompressedRecord> {
    if (this.closed) return Promise.reject(new Error('gzip pool is closed'));
    let length = 0;
    for (const p of blockParts) length += p.byteLength;
    // One unpooled copy, transferred (not cloned) to the thread.
    const block = new Uint8Array(length);
    let at = 0;
    for (const p of blockParts) {
      block.set(p, at);
      at += p.byteLength;
    }
    let index = 0;
    for (let i = 1; i < this.load.length; i++) if (this.load[i] < this.load[index]) index = i;
    const id = this.nextId++;
    if (this.load[index]++ === 0) this.workers[index].ref();
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, worker: index });
      this.workers[index].postMessage({ id, head, block, level: this.level }, [block.buffer]);
    });
  }

  /** Stops the threads; pending jobs are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.workers.map((w) => w.terminate()));
    for (const p of this.pending.values()) p.reject(new Error('gzip pool closed'));
    this.pending.clear();
  }
}

/** Where the libdeflate module is, for the threads to import (they run eval'd code, which resolves nothing itself); null if it is not installed. */
function libdeflateUrl(): string | null {
  try {
    return import.meta.resolve('libdeflate');
  } catch {
    return null;
  }
}
