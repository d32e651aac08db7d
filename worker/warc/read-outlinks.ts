import { open, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { gzipHeaderLength } from '../fetch/gzip-header';
import { field, parseWarcHead } from './parse-heads';
import { outlinksOfBlock, type Outlink } from './warc-fields';
import { ReadWindows } from './read-windows';

/**
 * Bytes read at once: captures read in file order (a selection's, by id) are mostly found in the
 * window read for an earlier one, so a page costs no read of its own (a read per page took most of
 * a preview's time)…
 */
const WINDOW = 1024 * 1024;
/** …and a member longer than that is read whole, up to this (an out-links block of a sitemap may hold 50,000 lines): a larger one is no out-links record of ours. */
const MAX_MEMBER = 64 * 1024 * 1024;
/** Windows kept, of all files together: the pages' own, and those of the requisites read between two pages (read-windows.ts). */
const WINDOWS_KEPT = 4;
/** Records of a capture's group looked at past it: its request, then its out-links metadata (the writer's order). */
const GROUP_RECORDS_AFTER = 2;

/** The whole gzip member at `at` of `bytes` (its compressed length and inflated bytes); null when it does not end within them (or is no gzip member). */
function memberIn(bytes: Buffer, at: number): { length: number; inflated: Buffer } | null {
  const header = gzipHeaderLength(bytes.subarray(at));
  if (typeof header !== 'number') return null;
  try {
    const out = inflateRawSync(bytes.subarray(at + header), { info: true, maxOutputLength: MAX_MEMBER }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
    const length = header + out.engine.bytesWritten + 8;
    return at + length <= bytes.length ? { length, inflated: out.buffer } : null;
  } catch {
    return null; // it goes on past the bytes (or is damaged)
  }
}

/** A reader of the out-links the crawl recorded for its captures, keeping each WARC file open until closed. */
export interface CaptureOutlinksReader {
  /**
   * The out-links of the capture whose response or revisit record (`recordId`) is the gzip member
   * at `offset` (`length` bytes) of a crawl's WARC file: the `outlink:` lines of the metadata record
   * written right behind it, concurrent to it (warc-writer.ts writes response, request, then that
   * metadata). Empty when the capture has none (no links found, or a revisit written without them).
   * A file still being written is read under its `.open` name.
   */
  read(warcFile: string, offset: number, length: number, recordId: string): Promise<Outlink[]>;
  close(): Promise<void>;
}

/** A CaptureOutlinksReader of the crawl's WARC files in `warcDir`. */
export function captureOutlinksReader(warcDir: string): CaptureOutlinksReader {
  interface OpenFile { name: string; fh: FileHandle; size: number }
  const files = new Map<string, Promise<OpenFile>>();
  const windows = new ReadWindows(WINDOWS_KEPT, WINDOW);
  const fileOf = (warcFile: string) => {
    let file = files.get(warcFile);
    if (!file) {
      const path = join(warcDir, basename(warcFile));
      file = open(path, 'r')
        .catch((err: NodeJS.ErrnoException) => {
          if (err.code !== 'ENOENT') throw err;
          return open(`${path}.open`, 'r');
        })
        .then(async (fh) => ({ name: basename(warcFile), fh, size: (await fh.stat()).size }));
      files.set(warcFile, file);
    }
    return file;
  };
  /** The file's bytes from `pos` on, at least `want` of them unless it ends first: from a window read before when one holds them. */
  const bytesFrom = async (file: OpenFile, pos: number, want: number): Promise<Buffer> => {
    const kept = windows.bytesAt(file.name, pos, pos + want, file.size);
    if (kept) return kept;
    const size = Math.max(0, Math.min(Math.max(want, WINDOW), file.size - pos));
    const buffer = Buffer.allocUnsafe(size);
    const { bytesRead } = await file.fh.read(buffer, 0, size, pos);
    const bytes = buffer.subarray(0, bytesRead);
    windows.add({ file: file.name, pos, bytes });
    return bytes;
  };
  return {
    async read(warcFile, offset, length, recordId) {
      const file = await fileOf(warcFile);
      let pos = offset + length;
      for (let i = 0; i < GROUP_RECORDS_AFTER; i++) {
        let member = null;
        // A member longer than the bytes at hand is read again in a larger window, until it fits or the file ends.
        for (let want = 64 * 1024; !member && want <= MAX_MEMBER; want *= 4) {
          const bytes = await bytesFrom(file, pos, want);
          member = memberIn(bytes, 0);
          if (pos + bytes.length >= file.size) break;
        }
        const head = member && parseWarcHead(member.inflated);
        if (!member || !head) return [];
        // The next capture's records: this one has no out-links record.
        if (!head.fields.some(([n, v]) => n.toLowerCase() === 'warc-concurrent-to' && v === recordId)) return [];
        if (field(head.fields, 'WARC-Type') === 'metadata' && /^application\/warc-fields\b/i.test(field(head.fields, 'Content-Type') ?? '')) {
          return outlinksOfBlock(member.inflated.subarray(head.headerLength).toString('utf8'));
        }
        pos += member.length;
      }
      return [];
    },
    async close() {
      const opened = [...files.values()];
      files.clear();
      for (const file of opened) await file.then(({ fh }) => fh.close(), () => undefined);
    },
  };
}
