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
// A message holds the jobs handed over together, each one capture's records (request, response,
// metadata), and one message takes all their results back: each message is a system call and a
// wake-up on both sides.
function compressJob(gzip, job, level) {
  try {
    const members = [], digests = [];
    for (const item of job.items) {
      const block = Buffer.from(item.block.buffer, item.block.byteOffset, item.block.byteLength);
      const digest = 'sha1:' + b32(createHash('sha1').update(block).digest());
      const head = Buffer.from(item.head + 'WARC-Block-Digest: ' + digest + '\\r\\n\\r\\n', 'utf8');
      const record = assemble(head, block);
      // libdeflate returns a copy out of its heap, with a buffer of its own: transferable as it is.
      members.push((gzip && level > 0 && record.length <= ${LIBDEFLATE_MAX_BYTES} && libdeflateMember(gzip, record, level)) || zlibMember(record, level));
      digests.push(digest);
    }
    return { id: job.id, members, digests };
  } catch (err) {
    return { id: job.id, error: String(err && err.stack || err) };
  }
}
parentPort.on('message', async ({ jobs, level }) => {
  const gzip = await libdeflateGzip;
  const results = jobs.map((job) => compressJob(gzip, job, level));
  parentPort.postMessage({ results }, results.flatMap((r) => (r.members ? r.members.map((m) => m.buffer) : [])));
});
// Jobs are handed over once this thread runs: one that cannot start holds none, and they go to its replacement.
parentPort.postMessage({ ready: true });
`;

/** One finished gzip member and the block digest written into it. */
export interface CompressedRecord {
  member: Uint8Array;
  blockDigest: string;
}

export const GZIP_POOL_CLOSED = 'gzip pool is closed';

/** Threads that may stop in a row before taking a record: past this, the pool gives up. */
export const MAX_FAILED_STARTS = 3;

/** How long close() waits for its threads' exit (a thread in a record's compression ends it first). */
const THREAD_EXIT_WAIT_MS = 10_000;

/**
 * The pool gave up: its threads stop before they can take a record (memory or threads exhausted,
 * their code failing). Every job fails with it; the crawl pauses, saying so (store/storage-failure.ts).
 */
export class CompressionThreadsFailure extends Error {
  override readonly name = 'CompressionThreadsFailure';
  readonly code = 'TIDEMARK_GZIP_THREADS';
}

/** One record to compress: its serialised header (no block digest, no blank line) and its block. */
export interface RecordToCompress {
  head: string;
  blockParts: Uint8Array[];
}

/** One group of records (a capture's), compressed by one thread in one message each way. */
interface Job {
  id: number;
  items: Array<{ head: string; block: Uint8Array<ArrayBuffer> }>;
  resolve: (r: CompressedRecord[]) => void;
  reject: (e: Error) => void;
}

/** What a thread sends back for one job. */
interface JobResult {
  id: number;
  members?: Uint8Array[];
  digests?: string[];
  error?: string;
}

/** One thread, and the jobs it holds. */
interface Thread {
  worker: Worker;
  /** Its code runs and listens: jobs can be handed to it. */
  ready: boolean;
  /** Jobs waiting for it to be ready, not yet handed over (their blocks are transferred when they are). */
  held: Job[];
  /** Jobs handed to it, by id. */
  inHand: Map<number, Job>;
  /** Jobs handed to it and not yet posted: they go together in one message (see POLITE_HANDOVER_WAIT_MS). */
  outbox: Job[];
  outboxTimer: NodeJS.Timeout | null;
  stopped: boolean;
}

/**
 * How long a polite crawl's capture waits for others to go to the thread in the same message
 * (GzipPool's `handoverWaitMs`). Each message wakes the thread, and on 2 cores the wake-up often
 * takes the crawl's thread off its core: `postMessage` took 0.1–0.4 ms of the crawl thread's wall
 * time a capture where the call itself costs ~0.02 ms. In a polite crawl a capture committed a few
 * milliseconds later costs nothing (a host's delay runs from the end of its response, not from its
 * commit); in a crawl without politeness it holds a fetch slot that long, and the crawl was ~6%
 * slower, so those post at once (see bench/README.md, "Waking the compression thread").
 */
export const POLITE_HANDOVER_WAIT_MS = 4;
/** Jobs posted at once without waiting longer: a full message's worth (captures of ~40 KB each). */
export const HANDOVER_MAX_JOBS = 16;

/**
 * Thread pool for record compression: by default one thread per core besides the main thread's
 * (on 2 cores one thread keeps up with the crawl — its gzip takes about a third of the main
 * thread's time — and a second isolate only added ~25 MB of memory and contention).
 *
 * A thread that stops with jobs in hand (out of memory on one huge record, say) fails those jobs
 * and is replaced. One that stops with none (as it starts, or idle) is replaced too, with the jobs
 * waiting for it, but only MAX_FAILED_STARTS times in a row (a finished record resets the count):
 * then every job fails with one CompressionThreadsFailure. Replacing them every time started
 * threads without end, each failing the jobs it was given, with no clear error.
 */
export class GzipPool {
  private readonly threads: Thread[] = [];
  private nextId = 0;
  private closed = false;
  private failedStarts = 0;
  private failure: CompressionThreadsFailure | null = null;

  /**
   * `libdeflate`: the module the threads import (its URL; null for node:zlib alone), the installed
   * one by default. `resourceLimits`: the threads' own (Node's Worker option), none by default.
   * `handoverWaitMs`: how long a job waits for others to go in the same message (0: none waits).
   */
  constructor(
    private readonly level: number,
    size = Math.max(1, availableParallelism() - 1),
    private readonly libdeflate: string | null = libdeflateUrl(),
    private readonly resourceLimits?: ResourceLimits,
    private readonly handoverWaitMs = 0,
  ) {
    for (let i = 0; i < Math.max(1, size); i++) this.spawn(i, []);
  }

  private spawn(index: number, held: Job[]): void {
    const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { libdeflate: this.libdeflate }, resourceLimits: this.resourceLimits });
    const thread: Thread = { worker, ready: false, held, inHand: new Map(), outbox: [], outboxTimer: null, stopped: false };
    worker.on('message', (msg: { ready?: true; results?: JobResult[] }) => {
      if (msg.ready) {
        thread.ready = true;
        for (const job of thread.held.splice(0)) this.handOver(thread, job);
        return;
      }
      for (const result of msg.results ?? []) this.settle(thread, result);
    });
    // A thread that stops without an 'error' (terminated, or exiting on its own) would leave its
    // jobs pending with nothing left to settle them or keep the process alive.
    const stop = (err: Error) => {
      if (thread.stopped) return;
      thread.stopped = true;
      this.threadStopped(index, thread, err);
    };
    worker.on('error', stop);
    worker.on('exit', (code) => stop(new Error(`gzip thread stopped (exit code ${code})`)));
    // Idle threads must not keep the process alive; busy ones must (see compress()).
    if (!held.length) worker.unref();
    this.threads[index] = thread;
  }

  private settle(thread: Thread, result: JobResult): void {
    const job = thread.inHand.get(result.id);
    if (!job) return;
    thread.inHand.delete(result.id);
    this.failedStarts = 0;
    if (this.loadOf(thread) === 0) thread.worker.unref();
    if (result.error || result.members?.length !== job.items.length || result.digests?.length !== job.items.length) {
      job.reject(new Error(result.error ?? 'gzip worker failed'));
    } else job.resolve(result.members.map((member, i) => ({ member, blockDigest: result.digests![i]! })));
  }

  private threadStopped(index: number, thread: Thread, err: Error): void {
    this.dropOutbox(thread);
    if (this.closed || this.failure) return;
    for (const job of thread.inHand.values()) job.reject(err);
    const failedStart = thread.inHand.size === 0;
    thread.inHand.clear();
    if (failedStart) this.failedStarts += 1;
    if (this.failedStarts < MAX_FAILED_STARTS) return this.spawn(index, thread.held);
    this.failure = new CompressionThreadsFailure(
      `the WARC compression threads cannot start: ${this.failedStarts} in a row stopped before taking a record (the last: ${err.message})`,
    );
    const jobs = this.threads.flatMap((t) => [...t.held.splice(0), ...t.inHand.values()]);
    for (const t of this.threads) t.inHand.clear();
    for (const job of jobs) job.reject(this.failure);
    for (const t of this.threads) void t.worker.terminate();
  }

  private loadOf(thread: Thread): number {
    return thread.held.length + thread.inHand.size;
  }

  /** Puts the job in the thread's next message (see POLITE_HANDOVER_WAIT_MS). */
  private handOver(thread: Thread, job: Job): void {
    thread.inHand.set(job.id, job);
    thread.outbox.push(job);
    if (this.handoverWaitMs <= 0 || thread.outbox.length >= HANDOVER_MAX_JOBS) this.post(thread);
    else thread.outboxTimer ??= setTimeout(() => this.post(thread), this.handoverWaitMs);
  }

  /** Transfers the blocks of the thread's waiting jobs to it, in one message. */
  private post(thread: Thread): void {
    const jobs = thread.outbox.splice(0);
    this.dropOutbox(thread);
    if (!jobs.length || thread.stopped) return;
    thread.worker.postMessage(
      { jobs: jobs.map(({ id, items }) => ({ id, items })), level: this.level },
      jobs.flatMap((job) => job.items.map((i) => i.block.buffer)),
    );
  }

  private dropOutbox(thread: Thread): void {
    thread.outbox.length = 0;
    if (thread.outboxTimer) clearTimeout(thread.outboxTimer);
    thread.outboxTimer = null;
  }

  /** Hashes and gzips one record (see compressGroup). */
  async compress(head: string, blockParts: Uint8Array[]): Promise<CompressedRecord> {
    return (await this.compressGroup([{ head, blockParts }]))[0]!;
  }

  /**
   * Hashes and gzips a group of records on one thread, in one message each way. Each block is
   * copied, so the caller may reuse its parts; one failed record fails the group.
   */
  compressGroup(records: readonly RecordToCompress[]): Promise<CompressedRecord[]> {
    if (this.closed) return Promise.reject(new Error(GZIP_POOL_CLOSED));
    if (this.failure) return Promise.reject(this.failure);
    const items = records.map(({ head, blockParts }) => ({ head, block: joinParts(blockParts) }));
    let thread = this.threads[0]!;
    for (const t of this.threads) if (this.loadOf(t) < this.loadOf(thread)) thread = t;
    if (this.loadOf(thread) === 0) thread.worker.ref();
    return new Promise((resolve, reject) => {
      const job: Job = { id: this.nextId++, items, resolve, reject };
      if (thread.ready) this.handOver(thread, job);
      else thread.held.push(job);
    });
  }

  /** Stops the threads; pending jobs are rejected. */
  async close(): Promise<void> {
    this.closed = true;
    for (const t of this.threads) this.dropOutbox(t);
    // A thread stopped with a record in hand has been seen to leave nothing holding the event loop
    // until its 'exit' (Node 20, in warc-writer.test.ts under load, ~1 file run in 16): the process
    // ended with close() pending, and what a caller does after it (the CLI's index and summary)
    // never ran. A timer holds the loop until every thread exited, or THREAD_EXIT_WAIT_MS passed.
    let giveUp: NodeJS.Timeout | undefined;
    const waited = new Promise<void>((resolve) => (giveUp = setTimeout(resolve, THREAD_EXIT_WAIT_MS)));
    await Promise.race([Promise.all(this.threads.map((t) => t.worker.terminate())), waited]);
    clearTimeout(giveUp);
    const closed = new Error('gzip pool closed');
    for (const t of this.threads) for (const job of [...t.held.splice(0), ...t.inHand.values()]) job.reject(closed);
    for (const t of this.threads) t.inHand.clear();
  }
}

/** One unpooled copy of the parts, transferred (not cloned) to the thread. */
function joinParts(parts: Uint8Array[]): Uint8Array<ArrayBuffer> {
  let length = 0;
  for (const p of parts) length += p.byteLength;
  const block = new Uint8Array(length);
  let at = 0;
  for (const p of parts) {
    block.set(p, at);
    at += p.byteLength;
  }
  return block;
}

/** Where the libdeflate module is, for the threads to import (they run eval'd code, which resolves nothing itself); null if it is not installed. */
function libdeflateUrl(): string | null {
  try {
    return import.meta.resolve('libdeflate');
  } catch {
    return null;
  }
}
