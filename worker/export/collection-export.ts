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
import { mayBeNeeded, planCollection, revisitsWithoutOriginal, type MemberCopy, type StoredRecordHead } from './collection-plan';

/** A collection file is closed and the next begun past this size (by default), as a crawl's files rotate. */
const ROTATE_BYTES = 1024 ** 3;

interface ScannedRecord extends StoredRecordHead {
  facts?: IndexFacts;
}

/**
 * The records that `keep` wants of the source files (paths), by a member scan of each file (header
 * and HTTP head of each record); each record's `file` is its file's path. Progress 0..1 by bytes
 * scanned, member by member: a crawl's file may hold a gigabyte.
 */
async function scanRecords(files: readonly string[], keep: (r: StoredRecordHead) => boolean, onProgress: (fraction: number) => void, signal?: AbortSignal): Promise<ScannedRecord[]> {
  const records: ScannedRecord[] = [];
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
      records.push(record);
    }, 64 * 1024);
    if (scan.problem) throw new Error(`${basename(file)}: ${scan.problem}`);
    before += sizes[i]!;
  }
  return records;
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
 * failure removes what was written.
 */
export async function writeCollection(opts: {
  /** In the order to copy them (a collection of several crawls: oldest first). */
  sources: readonly CollectionSource[];
  outDir: string;
  prefix: string;
  chosen: ReadonlySet<string>;
  /** Payload digests of the chosen revisits (their originals are kept while scanning). */
  revisitDigests: ReadonlySet<string>;
  description: string;
  rotateBytes?: number;
  /** 0..1 over the scan and the copy. */
  onProgress: (fraction: number) => void;
  /** Stops the scan or the copy where it is (a cancelled export): what was written is removed, and the call throws the signal's reason. */
  signal?: AbortSignal;
}): Promise<string[]> {
  const keep = (r: StoredRecordHead) => mayBeNeeded(r, opts.chosen, opts.revisitDigests);
  const paths = opts.sources.flatMap((source) => source.files.map((file) => join(source.dir, file)));
  const records = await scanRecords(paths, keep, (f) => opts.onProgress(0.5 * f), opts.signal);
  const orphans = revisitsWithoutOriginal(records, opts.chosen);
  if (orphans.length) {
    const first = orphans[0]! as ScannedRecord;
    throw new Error(
      `${orphans.length} selected revisit record(s) repeat a payload that no response in the crawl's WARC files holds (first: ${first.facts?.url ?? first.id} in ${basename(first.file)}, ` +
      `referring to ${first.refersTo ?? 'no record'}): a replay tool could not show them`,
    );
  }
  const plan = planCollection(records, opts.chosen);
  if (!plan.some((m) => m.type !== 'warcinfo')) throw new Error('No capture matches the selection');
  const facts = new Map(records.filter((r) => r.facts).map((r) => [`${r.file}:${r.offset}`, r.facts!]));
  const warcinfoOf = new Map(plan.filter((m) => m.type === 'warcinfo').map((m) => [m.file, m]));
  rmSync(opts.outDir, { recursive: true, force: true });
  mkdirSync(opts.outDir, { recursive: true });
  const names: string[] = [];
  // The index's lines go to disk as the records are copied, and are sorted there at the end: a
  // collection of ten crawls of a million captures has ten million lines (~3 GB as strings).
  const unsortedIndex = join(opts.outDir, `${INDEX_NAME}.unsorted`);
  const index = await open(unsortedIndex, 'w');
  let indexBatch = '';
  const addIndexLine = async (line: string) => {
    indexBatch += line;
    if (indexBatch.length < 1 << 20) return;
    await index.write(indexBatch);
    indexBatch = '';
  };
  const sources = new Map<string, FileHandle>();
  let out: { name: string; fh: FileHandle; size: number; copiedInfo: Set<string> } | null = null;
  const append = async (bytes: Buffer) => {
    await out!.fh.write(bytes, 0, bytes.length, out!.size);
    out!.size += bytes.length;
  };
  const copy = async (m: MemberCopy) => {
    let src = sources.get(m.file);
    if (!src) sources.set(m.file, (src = await open(m.file, 'r')));
    const offset = out!.size;
    const buffer = Buffer.allocUnsafe(Math.min(m.length, COPY_CHUNK));
    for (let at = 0; at < m.length; ) {
      opts.signal?.throwIfAborted();
      const { bytesRead } = await src.read(buffer, 0, Math.min(buffer.length, m.length - at), m.offset + at);
      if (bytesRead === 0) throw new Error(`${basename(m.file)}: ends inside the record at ${m.offset}`);
      await append(buffer.subarray(0, bytesRead));
      at += bytesRead;
    }
    const f = facts.get(`${m.file}:${m.offset}`);
    if (f) await addIndexLine(cdxjLine({ ...f, length: m.length, offset, filename: out!.name }));
  };
  try {
    let done = 0;
    // The source files' warcinfo records are copied along with the first record from each.
    const copies = plan.filter((m) => m.type !== 'warcinfo').length;
    for (const m of plan) {
      if (m.type === 'warcinfo') continue; // written before the first record it stands for, in each file
      if (!out || (out.size >= (opts.rotateBytes ?? ROTATE_BYTES) && m.startsGroup)) {
        await out?.fh.close();
        const name = `${opts.prefix}-${String(names.length).padStart(5, '0')}.warc.gz`;
        out = { name, fh: await open(join(opts.outDir, name), 'w'), size: 0, copiedInfo: new Set() };
        names.push(name);
        await append(collectionWarcinfo(name, opts.description));
      }
      if (!out.copiedInfo.has(m.file)) {
        const info = warcinfoOf.get(m.file);
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
    // CDXJ is sorted by its key and timestamp, as lines in byte order (replay tools binary-search it).
    await sortFilesInto([unsortedIndex], join(opts.outDir, INDEX_NAME), opts.outDir, { signal: opts.signal });
    rmSync(unsortedIndex);
    return [...names, INDEX_NAME];
  } catch (err) {
    await out?.fh.close().catch(() => undefined);
    await index.close().catch(() => undefined);
    rmSync(opts.outDir, { recursive: true, force: true });
    throw err;
  } finally {
    for (const fh of sources.values()) await fh.close().catch(() => undefined);
  }
}
