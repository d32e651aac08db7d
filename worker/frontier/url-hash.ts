import { hash } from 'node:crypto';

/**
 * The seen-set key of a canonical URL: the first 64 bits of its SHA-1, as a signed BigInt for
 * SQLite's INTEGER. Measured against a unique index on the URL text: ~1.5× faster inserts and a
 * smaller index. Two different URLs collide with probability ≈ n²/2⁶⁵ (3·10⁻⁶ at 10 million URLs);
 * a collision would make the second URL look already seen.
 */
export function urlHash(url: string): bigint {
  return hash('sha1', url, 'buffer').readBigInt64LE(0);
}
