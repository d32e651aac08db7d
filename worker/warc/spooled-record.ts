/**
 * Records whose body was spooled to a file: hashed and gzipped as streams on the main thread
 * (zlib's stream work runs on libuv's pool), so a body of any size never sits whole in memory.
 */
import { createReadStream } from 'node:fs';
import type { FileHandle } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import { createGzip } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { Readable } from 'node:stream';
import { base32, DIGEST_PREFIX } from './warc-digest';
import { writeFully } from './member-sink';

/** `sha1:` digest of `head` followed by the file's bytes. */
export async function digestSpooled(head: Uint8Array, path: string): Promise<string> {
  const hash = createHash('sha1').update(head);
  for await (const chunk of createReadStream(path, { highWaterMark: 1 << 20 })) hash.update(chunk as Buffer);
  return DIGEST_PREFIX + base32(hash.digest());
}

/**
 * Writes one gzip member at the file handle's current position: `warcHead` (complete, with its
 * blank line), `httpHead`, the spooled body, CRLF CRLF. Returns the compressed length.
 */
export async function writeSpooledMember(
  fh: FileHandle,
  warcHead: Buffer,
  httpHead: Uint8Array,
  bodyPath: string,
  level: number,
): Promise<number> {
  async function* parts(): AsyncGenerator<Uint8Array> {
    yield warcHead;
    yield httpHead;
    for await (const chunk of createReadStream(bodyPath, { highWaterMark: 1 << 20 })) yield chunk as Buffer;
    yield Buffer.from('\r\n\r\n');
  }
  let written = 0;
  await pipeline(Readable.from(parts()), createGzip({ level }), async (source: AsyncIterable<Buffer>) => {
    for await (const chunk of source) {
      await writeFully(fh, [chunk]);
      written += chunk.length;
    }
  });
  return written;
}
