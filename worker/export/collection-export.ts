import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, statSync } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cdxjLine, INDEX_NAME, sortFilesInto } from '../warc/cdxj-index';
import { scanGzipMembers } from '../warc/gzip-members';
import { field, indexFactsOf, parseWarcHead, type IndexFacts } from '../warc/parse-heads';
import { sha1Digest } from '../warc/warc-digest';
import { recordIdFromUuid, serializeFields, SOFTWARE, warcDate, warcinfoBlock, warcinfoFields } from '../warc/warc-fields';
import { mayBeNeeded, type StoredRecordHead } from './collection-plan';
import { CollectionPlanStore, type PlannedRecord, type ScannedRecord, type StringSource } from './collection-plan-store';

/** A collection file is closed and the next begun past this size (by default), as a crawl's files rotate. */
const ROTATE_BYTES = 1024 ** 3;

/** The scratch file a collection plans its copy in, removed before the call returns. */
const PLAN_NAME = 'collection-plan.sqlite';

/**
 * Hands each record of the source files (paths) that `keep` wants to `onRecord` with its file's
 * index, by a member scan of each file (header and HTTP head of each record). Progress 0..1 by bytes
 * scanned, member by member: a crawl's file may hold a gigabyte.
 */
async function scanRecords(files: readonly string[], keep: (r: StoredRecordHead) => boolean, onRecord: (file: number, r: ScannedRecord) => void, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<void> {
  const sizes = files.map((file) => statSync(file).size);
  const total = sizes.reduce((sum, n) => sum + n, 0) || 1;
  let before = 0;
  for (const [i, file] of files.entries()) {
    const scan = await scanGzipMembers(file, (m) => {
      signal?.throwIfAborted();
      onProgress((before + m.offset + m.length) / total);
      const head = parseWarcHead(m.head);
      if (!head) throw new Error(`${basename(file)}: no WARC header at ${m.offset}`);
      const f = head.fields;
      const type = field(f, 'WARC-Type') ?? '';
      const record: ScannedRecord = {
        file, offset: m.offset, length: m.length, type, id: field(f, 'WARC-Record-ID') ?? '',
        concurrentTo: f.filter(([n]) => n.toLowerCase() === 'warc-concurrent-to').map(([, v]) => v),
        refersTo: field(f, 'WARC-Refers-To'), payloadDigest: field(f, 'WARC-Payload-Digest'),
      };
      if (!keep(record)) return;
      record.facts = indexFactsOf(f, m.head.subarray(head.headerLength)) ?? undefined;
      onRecord(i, record);
    }, 64 * 1024);
    if (scan.problem) throw new Error(`${basename(file)}: ${scan.problem}`);
    before += sizes[i]!;
  }
}

/** Members are copied in pieces of this size: a record may hold a body of many megabytes. */
const COPY_CHUNK = 1024 * 1024;

/** The collection's own first record: what it is and where it comes from (one gzip member). */
function collectionWarcinfo(filename: string, description: string): Buffer {
  const block = Buffer.from(warcinfoBlock({ software: SOFTWARE, description }));
  const head = serializeFields(warcinfoFields(recordIdFromUuid(randomUUID()), warcDate(new Date()), filename, block.length));
  return gzipSync(Buffer.concat([Buffer.from(`${head}WARC-Block-Digest: ${sha1Digest(block)}\r\n\r\n`), block, Buffer.from('\r\n\r\n')]));
}

/** WARC files a collection copies from: one crawl's closed files (names) in its folder. */
export interface CollectionSource {
  dir: string;
  files: readonly string[];
}

/**
 * Writes a collection of one crawl or several into `outDir`: new WARC files holding copies of the
 * records `chosen` needs (see planCollection), each file opened by its own warcinfo record and by
 * the warcinfo of every source file it copies from (so each record keeps the provenance of the
 * crawl that made it), and one CDXJ index of them all, sorted. Returns the file names written. A
 * failure removes what was written. The chosen ids, the scanned records and the plan are kept in a
 * scratch SQLite file in `outDir` (CollectionPlanStore), not in memory: a selection of millions of
 * captures holds a batch of them at a time.
 */
export async function writeCollection(opts: {
  /** In the order to copy them (a collection of several crawls: oldest first). */
  sources: readonly CollectionSource[];
  outDir: string;
  prefix: string;
  /** WARC record ids of the chosen responses and revisits (read once, in any order; repeats are one). */
  chosen: StringSource;
  /** Payload digests of the chosen revisits (their originals are kept while scanning). */
  revisitDigests: StringSource;
  description: string;
  rotateBytes?: number;
  /** The batch of the index's merge once its lines are sorted on disk (mergeSortedFiles; 1 MB by default). */
  indexBatchBytes?: number;
  /** 0..1 over the scan and the copy. */
  onProgress: (fraction: number) => void;
  /** Stops the scan or the copy where it is (a cancelled export): what was written is removed, and the call throws the signal's reason. */
  signal?: AbortSignal;
}): Promise<string[]> {
  const paths = opts.sources.flatMap((source) => source.files.map((file) => join(source.dir, file)));
  rmSync(opts.outDir, { recursive: true, force: true });
  mkdirSync(opts.outDir, { recursive: true });
  const store = new CollectionPlanStore(join(opts.outDir, PLAN_NAME));
  const names: string[] = [];
  // The index's lines go to disk as the records are copied, and are sorted there at the end: a
  // collection of ten crawls of a million captures has ten million lines (~3 GB as strings).
  const unsortedIndex = join(opts.outDir, `${INDEX_NAME}.unsorted`);
  let index: FileHandle | null = null;
  const sources = new Map<number, FileHandle>();
  let out: { name: string; fh: FileHandle; size: number; copiedInfo: Set<number> } | null = null;
  try {
    await store.load(opts.chosen, opts.revisitDigests, opts.signal);
    const keep = (r: StoredRecordHead) => mayBeNeeded(r, store.chosen, store.revisitDigests);
    await scanRecords(paths, keep, (file, r) => store.add(file, r), (f) => opts.onProgress(0.5 * f), opts.signal);
    const { orphans, firstOrphan, copies } = store.plan();
    if (firstOrphan) {
      throw new Error(
        `${orphans} selected revisit record(s) repeat a payload that no response in the crawl's WARC files holds (first: ${firstOrphan.url ?? firstOrphan.id} in ${basename(paths[firstOrphan.file]!)}, ` +
        `referring to ${firstOrphan.refersTo ?? 'no record'}): a replay tool could not show them`,
      );
    }
    if (!copies) throw new Error('No capture matches the selection');
    index = await open(unsortedIndex, 'w');
    let indexBatch = '';
    const addIndexLine = async (line: string) => {
      indexBatch += line;
      if (indexBatch.length < 1 << 20) return;
      await index!.write(indexBatch);
      indexBatch = '';
    };
    const append = async (bytes: Buffer) => {
      await out!.fh.write(bytes, 0, bytes.length, out!.size);
      out!.size += bytes.length;
    };
    const copy = async (m: PlannedRecord) => {
      let src = sources.get(m.file);
      if (!src) sources.set(m.file, (src = await open(paths[m.file]!, 'r')));
      const offset = out!.size;
      const buffer = Buffer.allocUnsafe(Math.min(m.length, COPY_CHUNK));
      for (let at = 0; at < m.length; ) {
        opts.signal?.throwIfAborted();
        const { bytesRead } = await src.read(buffer, 0, Math.min(buffer.length, m.length - at), m.offset + at);
        if (bytesRead === 0) throw new Error(`${basename(paths[m.file]!)}: ends inside the record at ${m.offset}`);
        await append(buffer.subarray(0, bytesRead));
        at += bytesRead;
      }
      if (m.facts) await addIndexLine(cdxjLine({ ...m.facts, length: m.length, offset, filename: out!.name }));
    };
    let done = 0;
    // The warcinfo of the source file copied from last (files are copied from in turn).
    let infoFile = -1;
    let info: PlannedRecord | undefined;
    for (const m of store.planned()) {
      if (m.type === 'warcinfo') continue; // written before the first record it stands for, in each file
      if (!out || (out.size >= (opts.rotateBytes ?? ROTATE_BYTES) && m.startsGroup)) {
        await out?.fh.close();
        const name = `${opts.prefix}-${String(names.length).padStart(5, '0')}.warc.gz`;
        out = { name, fh: await open(join(opts.outDir, name), 'w'), size: 0, copiedInfo: new Set() };
        names.push(name);
        await append(collectionWarcinfo(name, opts.description));
      }
      // The source files' warcinfo records are copied along with the first record from each.
      if (!out.copiedInfo.has(m.file)) {
        if (infoFile !== m.file) [infoFile, info] = [m.file, store.warcinfoOf(m.file)];
        if (info) await copy(info);
        out.copiedInfo.add(m.file);
      }
      await copy(m);
      opts.onProgress(0.5 + (0.5 * ++done) / copies);
    }
    await out?.fh.close();
    out = null;
    await index.write(indexBatch);
    await index.close();
    index = null;
    store.close();
    // CDXJ is sorted by its key and timestamp, as lines in byte order (replay tools binary-search it).
    await sortFilesInto([unsortedIndex], join(opts.outDir, INDEX_NAME), opts.outDir, { signal: opts.signal, batchBytes: opts.indexBatchBytes });
    rmSync(unsortedIndex);
    return [...names, INDEX_NAME];
  } catch (err) {
    await out?.fh.close().catch(() => undefined);
    await index?.close().catch(() => undefined);
    store.close();
    rmSync(opts.outDir, { recursive: true, force: true });
    throw err;
  } finally {
    for (const fh of sources.values()) await fh.close().catch(() => undefined);
  }
}
