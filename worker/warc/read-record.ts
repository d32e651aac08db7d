import { open } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { Readable } from 'node:stream';
import { WARCParser } from 'warcio';

const MAX_MEMBER_BYTES = 64 * 1024 * 1024;

/**
 * The decoded payload text of the record at `offset` of a crawl's WARC file (a gzip member, read
 * through warcio so chunked and content-encoded bodies come back as the page's text).
 */
export async function readRecordText(warcDir: string, warcFile: string, offset: number, length?: number): Promise<string> {
  // basename: a file name from the database never walks out of the crawl's folder.
  const path = join(warcDir, basename(warcFile));
  const handle = await open(path, 'r');
  try {
    const size = length && length > 0 ? Math.min(length, MAX_MEMBER_BYTES) : Math.min((await handle.stat()).size - offset, MAX_MEMBER_BYTES);
    const buffer = Buffer.alloc(size);
    await handle.read(buffer, 0, size, offset);
    const parser = new WARCParser(Readable.from([buffer]));
    const record = await parser.parse();
    if (!record) throw new Error(`No WARC record at ${warcFile}:${offset}`);
    return await record.contentText();
  } finally {
    await handle.close();
  }
}
