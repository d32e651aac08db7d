/**
 * The write side of the WARC writer: appends finished gzip members, in the order they were
 * submitted, to `<name>.warc.gz.open`, closes a file when the next one starts, renames it to
 * `.warc.gz` once every capture in it was acknowledged (rename-gate.ts) or the writer closes, and
 * appends CDXJ lines once their record is on disk.
 */
import { open, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { cdxjLine, OPEN_INDEX_NAME, type CdxjEntry } from './cdxj-index';
import { RenameGate } from './rename-gate';

/** A record ready to be written: compressed bytes, or a writer that streams them. */
export type ReadyRecord =
  | { kind: 'member'; member: Uint8Array }
  | { kind: 'stream'; write: (fh: FileHandle) => Promise<number> };

/** Where one record landed. */
export interface Placed {
  offset: number;
  length: number;
}

/** Builds the index entry of a record once its place is known. */
export type IndexEntryFor = (place: Placed, filename: string) => CdxjEntry;

/** The records of one capture (or one warcinfo), and how to index each. */
export interface WriteGroup {
  records: readonly ReadyRecord[];
  indexFor: ReadonlyArray<IndexEntryFor | undefined>;
}

/** Linux's IOV_MAX: buffers one writev takes. */
const MAX_IOVECS = 1024;

/**
 * Writes every byte of `buffers` at the file's position. A write the disk fills up during (or that
 * crosses the file-size limit) writes what fits and returns a short count without an error; the
 * write of the rest then fails with the reason (ENOSPC, EFBIG, EDQUOT), which tells the crawl to
 * pause (store/storage-failure.ts). A short count taken for an error of its own stopped the writer
 * with an error no one knew as the disk's: every later page failed, and the crawl went on.
 */
export async function writeFully(fh: FileHandle, buffers: readonly Uint8Array[]): Promise<void> {
  let rest = buffers.filter((b) => b.byteLength > 0);
  while (rest.length) {
    let { bytesWritten } = await fh.writev(rest);
    if (bytesWritten === 0) throw new Error('the WARC file took no bytes');
    while (rest.length && bytesWritten >= rest[0]!.byteLength) bytesWritten -= rest.shift()!.byteLength;
    if (bytesWritten > 0) rest[0] = rest[0]!.subarray(bytesWritten);
  }
}

/**
 * CDXJ text held before it is appended to the open index. A polite crawl writes one group per
 * page, and a write per group was a system call on the crawl's thread for every page (~50 µs on
 * the build VM). Holding lines loses none in a crash: recovery rebuilds the lines of every `.open`
 * file (recover-open-files.ts), and a file's lines are written before it is closed, so before it
 * can take its final name.
 */
const INDEX_FLUSH_CHARS = 64 * 1024;

/** Ordered appender of gzip members to the crawl's current WARC file. */
export class MemberSink {
  private fh: FileHandle | null = null;
  private filename: string | null = null;
  private bytes = 0;
  private index: FileHandle | null = null;
  /** CDXJ lines not written to the index yet (INDEX_FLUSH_CHARS). */
  private heldLines = '';
  /** Which closed files may take their final name (captures written, captures acknowledged). */
  readonly renames: RenameGate;

  constructor(private readonly dir: string) {
    this.renames = new RenameGate((filename) => rename(join(dir, filename + '.open'), join(dir, filename)));
  }

  /** Opens (appends to) the crawl's unsorted index. */
  async openIndex(): Promise<void> {
    this.index = await open(join(this.dir, OPEN_INDEX_NAME), 'a');
  }

  /** Bytes in the current file. */
  get size(): number {
    return this.bytes;
  }

  private async switchTo(filename: string): Promise<void> {
    if (this.filename === filename) return;
    await this.closeFile();
    // 'wx': a name is never reused, so an existing file means a bug, not something to clobber.
    this.fh = await open(join(this.dir, filename + '.open'), 'wx');
    this.filename = filename;
    this.bytes = 0;
  }

  /**
   * Writes groups of records (each one capture, or one warcinfo) to `filename`, in order: their
   * members in as few system calls as a writev takes; their CDXJ lines are held and appended to
   * the index in larger writes (INDEX_FLUSH_CHARS). `indexFor[i]`, when set, yields the CDXJ line
   * of the group's record i.
   */
  async writeGroups(filename: string, groups: readonly WriteGroup[]): Promise<Placed[][]> {
    await this.switchTo(filename);
    const fh = this.fh as FileHandle;
    let batch: Uint8Array[] = [];
    const flush = async () => {
      if (!batch.length) return;
      await writeFully(fh, batch);
      batch = [];
    };
    const placedByGroup: Placed[][] = [];
    for (const { records } of groups) {
      const placed: Placed[] = [];
      for (const record of records) {
        if (record.kind === 'member') {
          if (batch.length === MAX_IOVECS) await flush();
          placed.push({ offset: this.bytes, length: record.member.byteLength });
          batch.push(record.member);
          this.bytes += record.member.byteLength;
        } else {
          await flush();
          const length = await record.write(fh);
          placed.push({ offset: this.bytes, length });
          this.bytes += length;
        }
      }
      placedByGroup.push(placed);
    }
    await flush();
    groups.forEach(({ indexFor }, g) => {
      indexFor.forEach((entry, i) => {
        if (entry) this.heldLines += cdxjLine(entry(placedByGroup[g]![i]!, filename));
      });
    });
    if (this.heldLines.length >= INDEX_FLUSH_CHARS) await this.writeHeldLines();
    return placedByGroup;
  }

  private async writeHeldLines(): Promise<void> {
    if (!this.heldLines || !this.index) return;
    const lines = this.heldLines;
    this.heldLines = '';
    await writeFully(this.index, [Buffer.from(lines)]);
  }

  /**
   * Syncs and closes the current file, its index lines written first; it takes its final name
   * once every capture in it was acknowledged.
   */
  private async closeFile(): Promise<void> {
    await this.writeHeldLines();
    if (!this.fh || !this.filename) return;
    const filename = this.filename;
    await this.fh.sync();
    await this.fh.close();
    this.fh = null;
    this.filename = null;
    this.bytes = 0;
    await this.renames.fileClosed(filename);
  }

  /**
   * Lets go of the files as a crash would: the current file keeps its `.open` name and the index
   * is left unsorted, for the next start's recovery (warc-reconcile.ts, recover-open-files.ts).
   */
  async abandon(): Promise<void> {
    // Files closed by rotation whose captures were not all acknowledged stay `.open` too; the
    // lines held for the current file are rebuilt by that recovery.
    this.heldLines = '';
    await Promise.allSettled([this.fh?.close(), this.index?.close(), this.renames.settle()]);
    this.fh = null;
    this.filename = null;
    this.index = null;
  }

  /** Closes the current file and the index, and gives every file its final name. */
  async close(): Promise<void> {
    await this.closeFile();
    await this.renames.renameAll();
    if (this.index) {
      await this.index.sync();
      await this.index.close();
      this.index = null;
    }
  }
}
