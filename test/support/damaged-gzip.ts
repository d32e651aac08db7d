import { gzipSync } from 'node:zlib';

/**
 * `data` gzipped without compression (stored blocks of at most 64 KB) with its second block's
 * header broken (NLEN no longer the complement of LEN): inflating it gives the first block's bytes,
 * then a data error. `data` must be longer than one block. firstBlockBytes: the first block's length.
 */
export function gzipDamagedAfterFirstBlock(data: Buffer): { bytes: Buffer; firstBlockBytes: number } {
  const gz = gzipSync(data, { level: 0 });
  // After the 10-byte gzip header: the first block's header byte, then its LEN and NLEN.
  const firstBlockBytes = gz.readUInt16LE(11);
  if (gz.readUInt16LE(13) !== (firstBlockBytes ^ 0xffff) || firstBlockBytes >= data.length) throw new Error('expected a stored first block shorter than the data');
  const second = 10 + 5 + firstBlockBytes;
  gz[second + 3] ^= 0xff;
  return { bytes: gz, firstBlockBytes };
}
