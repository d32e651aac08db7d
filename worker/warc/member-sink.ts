/**
 * The write side of the WARC writer: appends finished gzip members, in the order they were
 * submitted, to `<name>.warc.gz.open`, renames a file to `.warc.gz` when the next one starts or
 * the writer closes, and appends CDXJ lines once their record is on disk.
 */
import { open, rename, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { cdxjLine, OPEN_INDEX_NAME, type CdxjEntry } from './cdxj-index';

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

/** Ordered appender of gzip members to the crawl's current WARC file. */
export class MemberSink {
  private fh: FileHandle | null = null;
  private filename: string | null = null;
  private bytes = 0;
  private index: FileHandle | null = null;

  constructor(private readonly dir: string) {}

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
   * Writes the records of one group (one capture, or one warcinfo) to `filename`, in order.
   * `indexFor[i]`, when set, yields the CDXJ line of record i.
   */
  async writeGroup(
    filename: string,
    records: ReadyRecord[],
    indexFor: Array<IndexEntryFor | undefined>,
  ): Promise<Placed[]> {
    await this.switchTo(filename);
    const fh = this.fh as FileHandle;
    const placed: Placed[] = [];
    let batch: Uint8Array[] = [];
    let batchBytes = 0;
    const flush = async () => {
      if (!batch.length) return;
      // writev: one system call for the request, response and metadata members of a capture.
      const { bytesWritten } = await fh.writev(batch);
      if (bytesWritten !== batchBytes) throw new Error(`short WARC write (${bytesWritten}/${batchBytes})`);
      batch = [];
      batchBytes = 0;
    };
    for (const record of records) {
      if (record.kind === 'member') {
        placed.push({ offset: this.bytes, length: record.member.byteLength });
        batch.push(record.member);
        batchBytes += record.member.byteLength;
        this.bytes += record.member.byteLength;
      } else {
        await flush();
        const length = await record.write(fh);
        placed.push({ offset: this.bytes, length });
        this.bytes += length;
      }
    }
    await flush();
    let lines = '';
    for (let i = 0; i < records.length; i++) {
      const entry = indexFor[i];
      if (entry) lines += cdxjLine(entry(placed[i], filename));
    }
    if (lines && this.index) await this.index.write(lines);
    return placed;
  }

  /** Syncs and closes the current file and gives it its final name. */
  async closeFile(): Promise<void> {
    if (!this.fh || !this.filename) return;
    await this.fh.sync();
    await this.fh.close();
    await rename(join(this.dir, this.filename + '.open'), join(this.dir, this.filename));
    this.fh = null;
    this.filename = null;
    this.bytes = 0;
  }

  /** Closes the current file and the index. */
  async close(): Promise<void> {
    await this.closeFile();
    if (this.index) {
      await this.index.sync();
      await this.index.close();
      this.index = null;
    }
  }
}
