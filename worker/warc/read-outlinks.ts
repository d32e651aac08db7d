import { open, type FileHandle } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { inflateRawSync } from 'node:zlib';
import { gzipHeaderLength } from '../fetch/gzip-header';
import { field, parseWarcHead } from './parse-heads';
import { outlinksOfBlock, type Outlink } from './warc-fields';

/** A member is first read in a window this large, doubled until it fits (an out-links block of a sitemap may hold 50,000 lines)… */
const FIRST_WINDOW = 64 * 1024;
/** …up to this: a member larger than that is no out-links record of ours. */
const MAX_WINDOW = 64 * 1024 * 1024;
/** Records of a capture's group looked at past it: its request, then its out-links metadata (the writer's order). */
const GROUP_RECORDS_AFTER = 2;

/** The whole gzip member at `pos` (its compressed length and inflated bytes), or null when none whole is there. */
async function memberAt(fh: FileHandle, pos: number, fileSize: number): Promise<{ length: number; bytes: Buffer } | null> {
  for (let size = FIRST_WINDOW; ; size *= 2) {
    const want = Math.min(size, fileSize - pos);
    if (want <= 0) return null;
    const view = Buffer.allocUnsafe(want);
    const { bytesRead } = await fh.read(view, 0, want, pos);
    const bytes = view.subarray(0, bytesRead);
    const header = gzipHeaderLength(bytes);
    if (typeof header !== 'number') return null;
    try {
      const inflated = inflateRawSync(bytes.subarray(header), { info: true, maxOutputLength: MAX_WINDOW }) as unknown as { buffer: Buffer; engine: { bytesWritten: number } };
      const length = header + inflated.engine.bytesWritten + 8;
      if (length <= bytesRead) return { length, bytes: inflated.buffer };
    } catch {
      // The member goes on past the window (or is damaged): a larger window tells which.
    }
    if (want < size || size >= MAX_WINDOW) return null;
  }
}

/**
 * The out-links the crawl recorded for the capture whose response or revisit record (`recordId`)
 * sits at `offset` of a crawl's WARC file: the `outlink:` lines of the metadata record written
 * right behind it, concurrent to it (warc-writer.ts writes response, request, then that
 * metadata). Empty when the capture has none (no links found, or a revisit written without them).
 * A file still being written is read under its `.open` name.
 */
export async function readCaptureOutlinks(warcDir: string, warcFile: string, offset: number, length: number, recordId: string): Promise<Outlink[]> {
  const path = join(warcDir, basename(warcFile));
  const fh = await open(path, 'r').catch((err: NodeJS.ErrnoException) => {
    if (err.code !== 'ENOENT') throw err;
    return open(`${path}.open`, 'r');
  });
  try {
    const fileSize = (await fh.stat()).size;
    let pos = offset + length;
    for (let i = 0; i < GROUP_RECORDS_AFTER; i++) {
      const member = await memberAt(fh, pos, fileSize);
      const head = member && parseWarcHead(member.bytes);
      if (!member || !head) return [];
      const concurrent = head.fields.some(([n, v]) => n.toLowerCase() === 'warc-concurrent-to' && v === recordId);
      // The next capture's records: this one has no out-links record.
      if (!concurrent) return [];
      if (field(head.fields, 'WARC-Type') === 'metadata' && /^application\/warc-fields\b/i.test(field(head.fields, 'Content-Type') ?? '')) {
        return outlinksOfBlock(member.bytes.subarray(head.headerLength).toString('utf8'));
      }
      pos += member.length;
    }
    return [];
  } finally {
    await fh.close();
  }
}
