/**
 * The crawl's WARC writer (WARC 1.1, one gzip member per record, SHA-1 base32 digests). Headers
 * are built on the main thread; hashing and gzip run in a thread pool; a write loop appends the
 * members in submission order, several captures per write, so offsets are deterministic. See
 * WARC.md for the rules followed.
 */
import { randomUUID } from 'node:crypto';
import { mkdir, readdir } from 'node:fs/promises';
import { hostname } from 'node:os';
import { gzipSync } from 'node:zlib';
import type { HttpExchange } from '../capture';
import { finalizeIndex } from './cdxj-index';
import { MemoryDedupLookup, type DedupLookup, type DedupRef } from './dedup-lookup';
import { GZIP_POOL_CLOSED, GzipPool } from './gzip-pool';
import { isStorageFailure } from '../store/storage-failure';
import { mimeOf } from './parse-heads';
import { MemberSink, type IndexEntryFor, type Placed, type ReadyRecord } from './member-sink';
import { highestSerial, recoverOpenFiles, warcFilename, type RecoveryReport } from './recover-open-files';
import { digestSpooled, writeSpooledMember } from './spooled-record';
import { sha1Digest } from './warc-digest';
import {
  metadataBlock, metadataFields, recordIdFromUuid, requestFields, responseFields, revisitFields,
  serializeFields, warcDate, warcinfoBlock, warcinfoFields, CT_WARC_FIELDS,
  type RecordBase, type RevisitTarget, type WarcFields,
} from './warc-fields';

/** What ends every record: the blank line after its block (WARC 1.1 §4). */
const RECORD_END = Buffer.from('\r\n\r\n');

/** Settings of one crawl's writer. */
export interface WarcWriterOptions {
  dir: string;
  /** Slug used in file names. */
  crawlId: string;
  /** Start a new file once the current one reaches this size (checked after each capture). */
  rotateBytes?: number;
  /** gzip level, 0 (stored) to 9 (libdeflate's scale in memory, zlib's for spooled bodies); 1, the default, compresses the benchmark's pages 3.72:1 in half the time zlib took at 3 (bench/warc-speed.ts). */
  gzipLevel?: number;
  operator?: string;
  software: string;
  robotsPolicy: string;
  userAgent: string;
  isPartOf?: string;
  /** The warcinfo's `description` (the crawl definition's). */
  description?: string;
  /** Payload-digest lookup for revisits; in-memory by default. */
  dedup?: DedupLookup;
  /** Compression threads; one per core besides the main thread's by default. */
  threads?: number;
  /** How long a capture waits for others to go to the compression thread with it (GzipPool's handoverWaitMs): polite crawls'. */
  handoverWaitMs?: number;
  /** Clock for file names (tests). */
  now?: () => Date;
}

/** Where a response, revisit or metadata record was written. */
export interface CaptureLocation {
  filename: string;
  offset: number;
  /** Compressed length of the gzip member. */
  length: number;
  recordId: string;
  date: string;
  type: 'response' | 'revisit' | 'metadata';
}

/** A JSON metadata record about a capture (one of the page's Web objects), written right behind its records. */
export interface CaptureObject {
  targetUri: string;
  json: unknown;
  /**
   * The record it is about when not the capture's: null when none is known (the record then names
   * none, and is dated when written).
   */
  about?: Pick<RecordBase, 'recordId' | 'date'> | null;
}

/** Where a capture was written, and how the records of its objects fared, in their order. */
export interface CaptureWritten extends CaptureLocation {
  objects: Array<PromiseSettledResult<CaptureLocation>>;
}

/** One record to write: its header fields (no block digest yet) and block. */
interface RecordSpec {
  fields: WarcFields;
  head: Uint8Array;
  body?: Uint8Array;
  spooledBody?: string;
  blockLength: number;
  index?: IndexEntryFor;
}

/** A capture's records on their way to the file, in submission order. */
interface QueuedGroup {
  filename: string;
  ready: Promise<ReadyRecord[]>;
  /** Set once `ready` resolved: the group may join a write. */
  records?: ReadyRecord[];
  indexFor: Array<IndexEntryFor | undefined>;
  /** A capture's group, counted by the rename gate. */
  capture: boolean;
  /** The capture group this one's records are about: not written without it. */
  about?: QueuedGroup;
  placed: Promise<Array<Placed & { filename: string }>>;
  resolve: (placed: Array<Placed & { filename: string }>) => void;
  reject: (err: unknown) => void;
}

/** Groups one write may take (3 records each at most, under one writev's 1,024 buffers). */
const MAX_GROUPS_PER_WRITE = 256;

const newId = () => recordIdFromUuid(randomUUID());

/** Writes one crawl's captures into rotating `.warc.gz` files plus a CDXJ index. */
export class WarcWriter {
  private readonly o: Required<Omit<WarcWriterOptions, 'operator' | 'isPartOf' | 'description' | 'threads' | 'handoverWaitMs'>> & WarcWriterOptions;
  private pool: GzipPool | null = null;
  private sink: MemberSink;
  private submitChain: Promise<unknown> = Promise.resolve();
  /** Groups waiting to be written, and the loop writing them (null when idle). */
  private queued: QueuedGroup[] = [];
  /** Captures the dedup lookup refers to that are not written yet: their completion, by record id. */
  private readonly unwritten = new Map<string, Promise<unknown>>();
  private writing: Promise<void> | null = null;
  private current: { filename: string; warcinfoId: string; upperBytes: number } | null = null;
  private nextSerial = 0;
  private failure: Error | null = null;

  constructor(options: WarcWriterOptions) {
    this.o = {
      rotateBytes: 1_000_000_000, gzipLevel: 1, dedup: new MemoryDedupLookup(), now: () => new Date(),
      ...options,
    };
    this.sink = new MemberSink(this.o.dir);
  }

  /** The folder the crawl's WARC files are written to (its records are read back from there). */
  get dir(): string {
    return this.o.dir;
  }

  /** Recovers files a crash left open, then gets ready to write. */
  async open(): Promise<RecoveryReport> {
    await mkdir(this.o.dir, { recursive: true });
    const report = await recoverOpenFiles(this.o.dir, this.o.crawlId);
    this.nextSerial = highestSerial(this.o.crawlId, await readdir(this.o.dir)) + 1;
    await this.sink.openIndex();
    this.pool = new GzipPool(this.o.gzipLevel, this.o.threads, undefined, undefined, this.o.handoverWaitMs);
    return report;
  }

  /**
   * Writes a capture: response (or a revisit when its payload was already stored) + request (+ out-links
   * metadata), then a JSON metadata record for each of `objects`, right behind, about the capture.
   */
  async writeCapture(ex: HttpExchange, opts: { metadata?: Record<string, unknown>; objects?: CaptureObject[] } = {}): Promise<CaptureWritten> {
    return this.submit(async () => {
      const eligible = ex.status >= 200 && ex.status < 300 && !ex.truncated && bodySize(ex) > 0;
      const earlier = eligible ? await this.o.dedup.get(ex.payloadDigest) : undefined;
      if (earlier) return this.captureGroup(ex, earlier, 'identical-payload-digest', opts, this.unwritten.get(earlier.recordId));
      const placed = this.captureGroup(ex, null, null, opts);
      const ref = placed.ref;
      if (eligible) {
        await this.o.dedup.set(ex.payloadDigest, ref);
        // Revisits of it submitted before it is written fail with it; later copies of the payload
        // must not point at it if it is not written after all (writeQueued).
        this.unwritten.set(ref.recordId, placed.done);
        void placed.done.then(
          () => this.unwritten.delete(ref.recordId),
          () => {
            this.unwritten.delete(ref.recordId);
            this.o.dedup.forget(ex.payloadDigest, ref.recordId);
          },
        );
      }
      return placed;
    });
  }

  /** Writes a revisit (+ request) pointing at an earlier capture, and its `objects` as writeCapture does. */
  async writeRevisit(
    ex: HttpExchange,
    refersTo: RevisitTarget,
    profile: 'identical-payload-digest' | 'server-not-modified',
    opts: { objects?: CaptureObject[] } = {},
  ): Promise<CaptureWritten> {
    return this.submit(async () => this.captureGroup(ex, refersTo, profile, opts));
  }

  /**
   * The capture (writeCapture, writeRevisit) written into `filename` was acknowledged: its commit
   * is durable. A file closed by rotation keeps its `.open` name until each of its captures was
   * acknowledged, so a crash or a refused commit before then leaves it for the next start's cut
   * (crawler/warc-reconcile.ts) rather than closed with captures the database never acknowledged.
   * A writer whose captures are never acknowledged renames its files when it closes.
   */
  acknowledge(filename: string): void {
    this.sink.renames.acknowledged(filename);
  }

  /**
   * Drains everything, closes the last file (and any still waiting for acknowledgements), sorts the index
   * and stops the threads. A writer that stopped on a failure is abandoned instead, and close() rejects with it.
   */
  async close(): Promise<void> {
    await this.drainAll();
    if (this.failure) {
      // A stopped writer's last file may end in a torn record (a short write): renamed, no start
      // would cut it. Left as abandon() leaves it; the next start recovers it.
      await this.sink.abandon();
      await this.stopThreads();
      throw this.failure;
    }
    await this.sink.close();
    await this.stopThreads();
    await finalizeIndex(this.o.dir);
  }

  /**
   * Stops without closing the files properly, leaving them as a crash would. After a full disk the
   * last files (the current one, and one a rotation closed before all its captures were
   * acknowledged) may hold captures the database never acknowledged; they keep their `.open` name,
   * and the next start cuts those captures, as it does after a crash, so each page is archived once.
   */
  async abandon(): Promise<void> {
    await this.drainAll();
    await this.sink.abandon();
    await this.stopThreads();
  }

  /** Waits for every submission and every queued write. */
  private async drainAll(): Promise<void> {
    await this.submitChain.catch(() => undefined);
    await this.drained();
  }

  private async stopThreads(): Promise<void> {
    await this.pool?.close();
    this.pool = null;
  }

  /** Sorts `index.cdxj.open` into `index.cdxj` (also done by close()). */
  finalizeIndex(): Promise<void> {
    return finalizeIndex(this.o.dir);
  }

  /**
   * Runs submissions one at a time (dedup lookups and rotation decisions must see every earlier
   * capture), but lets the writes they queue complete in the background.
   */
  private async submit(fn: () => Promise<Submitted>): Promise<CaptureWritten> {
    const run = this.submitChain.then(async () => {
      if (this.failure) throw this.failure;
      if (!this.pool) throw new Error('WarcWriter.open() was not called');
      await this.rotateIfNeeded();
      return fn();
    });
    this.submitChain = run.catch(() => undefined);
    const { done } = await run;
    return done;
  }

  private base(date: Date): RecordBase {
    return { recordId: newId(), date: warcDate(date), warcinfoId: this.current?.warcinfoId ?? '' };
  }

  private captureGroup(
    ex: HttpExchange,
    refersTo: RevisitTarget | null,
    profile: 'identical-payload-digest' | 'server-not-modified' | null,
    { metadata, objects = [] }: { metadata?: Record<string, unknown>; objects?: CaptureObject[] },
    referredWritten?: Promise<unknown>,
  ): Submitted {
    const main = this.base(ex.date);
    const request = { ...main, recordId: newId() };
    const body = ex.body.kind === 'memory' ? ex.body.bytes : undefined;
    const spooled = ex.body.kind === 'file' ? ex.body.path : undefined;
    const size = bodySize(ex);
    const headersOnly = profile === 'identical-payload-digest';
    const blockLength = ex.responseHead.length + (headersOnly ? 0 : size);
    const fields = refersTo && profile
      ? revisitFields(main, ex.url, ex.ip, refersTo, profile, headersOnly, blockLength)
      : responseFields(main, ex.url, ex.ip, ex.payloadDigest, ex.truncated, blockLength);
    const type = refersTo ? 'revisit' : 'response';
    const digest = refersTo ? refersTo.payloadDigest : ex.payloadDigest;
    const mime = refersTo ? 'warc/revisit' : mimeOf(ex.headers['content-type']);
    const specs: RecordSpec[] = [
      {
        fields, head: ex.responseHead, body: headersOnly ? undefined : body,
        spooledBody: headersOnly ? undefined : spooled, blockLength,
        index: (place, filename) => ({ url: ex.url, date: main.date, mime, status: ex.status, digest, filename, ...place }),
      },
      {
        fields: requestFields(request, ex.url, main.recordId, ex.ip, ex.requestHead.length),
        head: ex.requestHead, blockLength: ex.requestHead.length,
      },
    ];
    if (metadata && Object.keys(metadata).length) specs.push(metadataAbout(main, main, ex.url, CT_WARC_FIELDS, Buffer.from(metadataBlock(metadata))).spec);
    const group = this.enqueue(specs, { capture: true, after: referredWritten });
    // Each object in a group of its own, so one whose record cannot be made fails alone.
    const objectsDone = objects.map(({ targetUri, json, about = main }) => {
      const { spec, base } = metadataAbout(main, about, targetUri, 'application/json', Buffer.from(JSON.stringify(json)));
      return this.enqueue([spec], { about: group }).placed.then((p) => location(p[0], base, 'metadata'));
    });
    const done = Promise.all([group.placed, Promise.allSettled(objectsDone)]).then(([p, settled]) => ({ ...location(p[0], main, type), objects: settled }));
    const ref: DedupRef = { uri: ex.url, date: main.date, recordId: main.recordId, payloadDigest: ex.payloadDigest };
    return { ref, done };
  }

  /**
   * Starts hashing/compressing each record (unless `made` already) and queues the group's write. A
   * `capture`'s file keeps its `.open` name until acknowledge() was called for it; one written
   * `after` another capture (a revisit of it) fails if that one does; one `about` a capture group
   * queued right before it is not written if that one's records could not be made.
   */
  private enqueue(
    specs: RecordSpec[],
    { capture = false, after, made, about }: { capture?: boolean; after?: Promise<unknown>; made?: ReadyRecord[]; about?: QueuedGroup } = {},
  ): QueuedGroup {
    const cur = this.current as { filename: string; upperBytes: number };
    for (const s of specs) cur.upperBytes += upperBound(s);
    if (capture) this.sink.renames.written(cur.filename);
    // A revisit whose payload's record is not written yet fails if that one does (it would refer to nothing).
    const referred = after?.catch(() => {
      throw new Error('the capture of the same payload it would refer to was not written');
    });
    // Both settled, the referred capture's failure first: when both fail (a compression thread that
    // stopped with both in hand) the revisit failed for want of what it refers to, whichever failed first.
    const ready = made ? Promise.resolve(made) : referred
      ? Promise.allSettled([this.prepare(specs), referred]).then(([records, ref]) => {
        if (ref.status === 'rejected') throw ref.reason;
        if (records.status === 'rejected') throw records.reason;
        return records.value;
      })
      : this.prepare(specs);
    let settle!: Pick<QueuedGroup, 'resolve' | 'reject'>;
    const placed = new Promise<Array<Placed & { filename: string }>>((resolve, reject) => (settle = { resolve, reject }));
    const group: QueuedGroup = { filename: cur.filename, ready, indexFor: specs.map((s) => s.index), capture, about, placed, ...settle };
    // Registered before the write loop awaits `ready`, so `records` is set when the loop resumes.
    ready.then((records) => (group.records = records), () => undefined);
    this.queued.push(group);
    this.startWriting();
    return group;
  }

  private startWriting(): void {
    if (this.writing) return;
    // A group queued after the loop's last look (before this finally) starts the next loop.
    this.writing = this.writeQueued().finally(() => {
      this.writing = null;
      if (this.queued.length) this.startWriting();
    });
  }

  /** Resolves once every queued group was written (or rejected). */
  private async drained(): Promise<void> {
    while (this.writing) await this.writing;
  }

  /**
   * Writes queued groups in submission order. Each write takes the first group once its records
   * are ready, with every group behind it whose records are ready too: one writev and one index
   * write for them all. Writing capture by capture, each waiting for the one before, made the
   * writes a queue of their own when the event loop was busy (two I/O round trips per capture).
   */
  private async writeQueued(): Promise<void> {
    while (this.queued.length) {
      const first = this.queued[0]!;
      try {
        if (this.failure) throw this.failure;
        await first.ready;
      } catch (err) {
        if (this.failure || stopsTheWriter(err)) {
          this.failure ??= asWriterFailure(err);
          for (const g of this.queued.splice(0)) g.reject(this.failure);
          return;
        }
        // One capture's records could not be made (its compression thread stopped with them, its
        // spool file unreadable): nothing of it was written, so it fails alone and the crawl goes on.
        this.queued.shift();
        if (first.capture) this.sink.renames.notWritten(first.filename);
        first.reject(new Error(`its WARC records could not be made: ${err instanceof Error ? err.message : String(err)}`));
        // The records about it (its Web objects) would name a record the file does not hold.
        while (this.queued[0] && this.queued[0].about === first) this.queued.shift()!.reject(new Error('the capture it is about was not written'));
        continue;
      }
      let n = 1;
      while (n < this.queued.length && n < MAX_GROUPS_PER_WRITE && this.queued[n]!.records && this.queued[n]!.filename === first.filename) n++;
      const groups = this.queued.splice(0, n);
      try {
        const placed = await this.sink.writeGroups(first.filename, groups.map((g) => ({ records: g.records!, indexFor: g.indexFor })));
        groups.forEach((g, i) => g.resolve(placed[i]!.map((p) => ({ ...p, filename: first.filename }))));
      } catch (err) {
        this.failure ??= asWriterFailure(err);
        for (const g of groups) g.reject(this.failure);
      }
    }
  }

  /**
   * Starts a new file when the current one has reached rotateBytes. Deterministic: while the
   * pessimistic size (written + in flight, uncompressed) is under the limit nothing waits; when it
   * may have crossed, queued writes are drained and the real size decides.
   */
  private async rotateIfNeeded(): Promise<void> {
    const cur = this.current;
    if (!cur) return this.startFile();
    if (cur.upperBytes < this.o.rotateBytes) return;
    await this.drained();
    if (this.failure) throw this.failure;
    cur.upperBytes = this.sink.size;
    if (cur.upperBytes >= this.o.rotateBytes) this.startFile();
  }

  /** Names the next file and queues its warcinfo record (always the file's first record). */
  private startFile(): void {
    const now = this.o.now();
    const filename = warcFilename(this.o.crawlId, now, this.nextSerial++);
    const recordId = newId();
    const block = Buffer.from(
      warcinfoBlock({
        software: this.o.software, operator: this.o.operator, robotsPolicy: this.o.robotsPolicy,
        userAgent: this.o.userAgent, isPartOf: this.o.isPartOf, description: this.o.description, hostname: hostname(),
      }),
    );
    this.current = { filename, warcinfoId: recordId, upperBytes: 0 };
    const fields = warcinfoFields(recordId, warcDate(now), filename, block.length);
    // Made here rather than on a compression thread (one small record a file): a thread stopping
    // with it in hand would fail it alone, and the file would begin with a capture instead.
    const digest = sha1Digest(block);
    const record = Buffer.concat([headWithDigest(serializeFields(fields), digest), block, RECORD_END]);
    const member: ReadyRecord = { kind: 'member', member: gzipSync(record, { level: this.o.gzipLevel }) };
    // A failed write is seen through `failure` and in the next group's write.
    void this.enqueue([{ fields, head: block, blockLength: block.length }], { made: [member] }).placed.catch(() => undefined);
  }

  /**
   * Starts hashing and compressing a group's records: those in memory in the pool, as one job
   * (one message each way), a spooled one streamed from its file.
   */
  private async prepare(specs: RecordSpec[]): Promise<ReadyRecord[]> {
    const level = this.o.gzipLevel;
    const heads = specs.map((spec) => serializeFields(spec.fields));
    const inMemory = specs.flatMap((spec, i) => (spec.spooledBody ? [] : [i]));
    const pool = this.pool as GzipPool;
    const compressed = inMemory.length
      ? pool.compressGroup(inMemory.map((i) => ({ head: heads[i]!, blockParts: specs[i]!.body ? [specs[i]!.head, specs[i]!.body!] : [specs[i]!.head] })))
      : Promise.resolve([]);
    const streamed = specs.map((spec, i) => {
      const path = spec.spooledBody;
      if (!path) return null;
      return digestSpooled(spec.head, path).then((digest): ReadyRecord => ({
        kind: 'stream',
        write: (fh) => writeSpooledMember(fh, headWithDigest(heads[i]!, digest), spec.head, path, level),
      }));
    });
    const [members, spooled] = await Promise.all([compressed, Promise.all(streamed)]);
    let next = 0;
    return spooled.map((record) => record ?? { kind: 'member', member: members[next++]!.member });
  }
}

/**
 * The writer stopped for a reason of its own, not of the disk's (a file name already taken, a
 * rename refused): every later capture would fail the same way, so the crawl pauses on it as on a
 * full disk (store/storage-failure.ts), and its next start recovers the files.
 */
export class WarcWriterFailure extends Error {
  override readonly name = 'WarcWriterFailure';
  readonly code = 'TIDEMARK_WARC_WRITER';
}

/** The failure that stops the writer, as the crawl is told of it: storage failures as they are. */
function asWriterFailure(err: unknown): Error {
  if (isStorageFailure(err)) return err as Error;
  return new WarcWriterFailure(`the WARC writer stopped: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
}

/**
 * Failures of the pool or of the disk (a CompressionThreadsFailure is a storage failure too: it
 * pauses the crawl): every capture after them would fail the same way.
 */
function stopsTheWriter(err: unknown): boolean {
  return isStorageFailure(err) || (err instanceof Error && err.message === GZIP_POOL_CLOSED);
}

/** A record's serialised header with its block digest and the blank line that ends it. */
function headWithDigest(head: string, digest: string): Buffer {
  return Buffer.from(`${head}WARC-Block-Digest: ${digest}\r\n\r\n`);
}

function bodySize(ex: HttpExchange): number {
  return ex.body.kind === 'memory' ? ex.body.bytes.length : ex.body.size;
}

/** Largest the record's gzip member can be (deflate's worst case is a little over the input). */
function upperBound(s: RecordSpec): number {
  let fieldBytes = 0;
  for (const [n, v] of s.fields) fieldBytes += n.length + Buffer.byteLength(v) + 4;
  const raw = fieldBytes + 80 + s.blockLength + 4;
  return raw + (raw >>> 10) + 64;
}

/**
 * A metadata record in `file` (its warcinfo's) about the record `about`, a capture's response or
 * revisit: under an id of its own, it names it with WARC-Concurrent-To and shares its WARC-Date.
 */
function metadataAbout(
  file: RecordBase, about: Pick<RecordBase, 'recordId' | 'date'> | null, targetUri: string, contentType: string, block: Buffer,
): { spec: RecordSpec; base: RecordBase } {
  const base = { warcinfoId: file.warcinfoId, date: about?.date ?? warcDate(new Date()), recordId: newId() };
  return { spec: { fields: metadataFields(base, targetUri, about?.recordId, contentType, block.length), head: block, blockLength: block.length }, base };
}

function location(
  p: { offset: number; length: number; filename: string },
  base: RecordBase,
  type: CaptureLocation['type'],
): CaptureLocation {
  return { filename: p.filename, offset: p.offset, length: p.length, recordId: base.recordId, date: base.date, type };
}

/** What a submission hands back: the dedup reference and the completion of its write. */
interface Submitted {
  ref: DedupRef;
  done: Promise<CaptureWritten>;
}
