/**
 * The one digest algorithm of a Tidemark crawl: SHA-1, written `sha1:<RFC 4648 base32>`, the form
 * most WARC tools read (Heritrix, pywb, warcio). Block and payload digests both use it.
 */
import { createHash } from 'node:crypto';

/** Prefix of every digest Tidemark writes. */
export const DIGEST_PREFIX = 'sha1:';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';

/** RFC 4648 base32 (upper case, with `=` padding; a 20-byte SHA-1 needs none). */
export function base32(bytes: Uint8Array): string {
  let out = '';
  let bits = 0;
  let value = 0;
  for (const byte of bytes) {
    value = ((value << 8) | byte) & 0xffff; // only the low bits are ever read
    bits += 8;
    while (bits >= 5) {
      out += ALPHABET[(value >>> (bits - 5)) & 31];
      bits -= 5;
    }
  }
  if (bits > 0) out += ALPHABET[(value << (5 - bits)) & 31];
  while (out.length % 8 !== 0) out += '=';
  return out;
}

/** `sha1:<BASE32>` of the concatenation of `parts`. */
export function sha1Digest(...parts: Uint8Array[]): string {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return DIGEST_PREFIX + base32(hash.digest());
}
