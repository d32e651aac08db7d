import { crc32 } from 'node:zlib';
import { fromBuffer, type Entry, type ZipFile } from 'yauzl';

export interface ZipEntryRead {
  bytes: Buffer;
  /** Stored (method 0), not deflated: what a WACZ's WARC files must be for replay by ranges. */
  stored: boolean;
}

function readEntry(zip: ZipFile, entry: Entry): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    zip.openReadStream(entry, (err, stream) => {
      if (err) return reject(err);
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', reject);
      stream.on('end', () => resolve(Buffer.concat(chunks)));
    }),
  );
}

/** Every entry of a ZIP (a WACZ) in memory, by its path, read with yauzl; each entry's CRC-32 checked here (yauzl does not). */
export function readZip(bytes: Buffer): Promise<Map<string, ZipEntryRead>> {
  return new Promise((resolve, reject) =>
    fromBuffer(bytes, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map<string, ZipEntryRead>();
      zip.on('entry', (entry: Entry) => {
        readEntry(zip, entry).then((data) => {
          if (crc32(data) !== entry.crc32) return reject(new Error(`${entry.fileName}: CRC-32 mismatch`));
          entries.set(entry.fileName, { bytes: data, stored: entry.compressionMethod === 0 });
          zip.readEntry();
        }, reject);
      });
      zip.on('end', () => resolve(entries));
      zip.on('error', reject);
      zip.readEntry();
    }),
  );
}
