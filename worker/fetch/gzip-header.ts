/**
 * The length of the gzip member header (RFC 1952 §2.3) `bytes` begin with: 'not-gzip' when they
 * begin otherwise (told from the first byte that differs), 'short' when they end inside it,
 * 'bad-method' for a compression method other than deflate. Used by the content decoder
 * (decode-content-encoding.ts) and the WARC member scan (warc/gzip-members.ts).
 */
export function gzipHeaderLength(bytes: Buffer): number | 'short' | 'not-gzip' | 'bad-method' {
  if ((bytes.length >= 1 && bytes[0] !== 0x1f) || (bytes.length >= 2 && bytes[1] !== 0x8b)) return 'not-gzip';
  if (bytes.length < 10) return 'short';
  if (bytes[2] !== 8) return 'bad-method';
  const flags = bytes[3]!;
  let at = 10;
  if (flags & 0x04) {
    if (bytes.length < at + 2) return 'short';
    at += 2 + bytes.readUInt16LE(at);
  }
  // A file name, then a comment, each ending with a zero byte.
  for (const flag of [0x08, 0x10]) {
    if (!(flags & flag)) continue;
    const zero = bytes.indexOf(0, at);
    if (zero < 0) return 'short';
    at = zero + 1;
  }
  if (flags & 0x02) at += 2;
  return at <= bytes.length ? at : 'short';
}
