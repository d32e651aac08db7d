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

/** A `WARC-Block-Digest` or `WARC-Payload-Digest` read: the node:crypto algorithm and the digest's bytes. */
export interface LabelledDigest {
  algorithm: 'md5' | 'sha1' | 'sha256' | 'sha512';
  bytes: Buffer;
}

/** Labels other tools write, lower-cased, with their compatibility spellings (warc-specifications #80). */
const ALGORITHMS: Record<string, { algorithm: LabelledDigest['algorithm']; bytes: number }> = {
  md5: { algorithm: 'md5', bytes: 16 },
  sha1: { algorithm: 'sha1', bytes: 20 },
  'sha-1': { algorithm: 'sha1', bytes: 20 },
  sha256: { algorithm: 'sha256', bytes: 32 },
  'sha-256': { algorithm: 'sha256', bytes: 32 },
  sha512: { algorithm: 'sha512', bytes: 64 },
  'sha-512': { algorithm: 'sha512', bytes: 64 },
};

/** RFC 4648 base32, either case, padding optional; null when it is not. */
function fromBase32(text: string): Buffer | null {
  const value = text.replace(/=+$/, '').toUpperCase();
  if (!/^[A-Z2-7]*$/.test(value)) return null;
  const out: number[] = [];
  let bits = 0;
  let acc = 0;
  for (const c of value) {
    acc = ((acc << 5) | ALPHABET.indexOf(c)) & 0xfff;
    bits += 5;
    if (bits >= 8) {
      out.push((acc >>> (bits - 8)) & 0xff);
      bits -= 8;
    }
  }
  return Buffer.from(out);
}

/**
 * Reads a labelled digest as WARC writers spell it: `sha1:` in base32 (Heritrix, pywb, Tidemark),
 * `sha256:` in base16 (warcio.js, Browsertrix) or base32, and the other common algorithms, the label
 * in any case (warc-specifications #80: tell base16 from base32 by the value's length). WARC 1.1
 * recommends no algorithm. Null when the label is unknown or the value is no digest of its length.
 */
export function parseLabelledDigest(value: string): LabelledDigest | null {
  const colon = value.indexOf(':');
  if (colon < 0) return null;
  const known = ALGORITHMS[value.slice(0, colon).toLowerCase()];
  if (!known) return null;
  const text = value.slice(colon + 1);
  // An MD5's base16 and unpadded base32 are both 32 characters: base16 is read first, as #80 says.
  if (text.length === known.bytes * 2 && /^[0-9a-fA-F]+$/.test(text)) return { algorithm: known.algorithm, bytes: Buffer.from(text, 'hex') };
  if (text.replace(/=+$/, '').length !== Math.ceil((known.bytes * 8) / 5)) return null;
  const bytes = fromBase32(text);
  return bytes && bytes.length === known.bytes ? { algorithm: known.algorithm, bytes } : null;
}
