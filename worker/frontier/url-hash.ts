import { hash } from 'node:crypto';
import { withoutSessionIds } from '../url/session-id';

/**
 * What the seen-set knows a URL by: the URL without its session ids (url/session-id.ts), as
 * Heritrix compares URLs for its already-seen check. A server that writes a fresh session into
 * every link (Tomcat's `;jsessionid=`, PHP's `PHPSESSID=`) then offers each page once, under the
 * URL it was first found as, which is the one fetched and archived. A URL without session ids is
 * its own key (the same string), so rows stored before keep their hash.
 */
export function seenKey(url: string): string {
  return withoutSessionIds(url);
}

/**
 * The seen-set key of a canonical URL as the table stores it: the first 64 bits of the SHA-1 of its
 * seenKey, as a signed BigInt for SQLite's INTEGER. Measured against a unique index on the URL text
 * (bench/frontier-speed.ts --compare-seen): about the same insert speed, but half the index size
 * (23 vs 41 MB for 290,000 URLs), and index size is what decides how much stays in cache as a crawl
 * grows. Two different URLs collide with probability ≈ n²/2⁶⁵ (3·10⁻⁶ at 10 million URLs); a
 * collision would make the second URL look already seen.
 */
export function urlHash(url: string): bigint {
  return hash('sha1', seenKey(url), 'buffer').readBigInt64LE(0);
}

/**
 * A map of URLs by their seenKey: the URLs of one page that differ by their session ids are one
 * entry, as they are one row of the seen-set. Iterating it yields the keys, not the URLs given.
 */
export class SeenUrlMap<V> extends Map<string, V> {
  override get(url: string): V | undefined {
    return super.get(seenKey(url));
  }

  override has(url: string): boolean {
    return super.has(seenKey(url));
  }

  override set(url: string, value: V): this {
    return super.set(seenKey(url), value);
  }

  override delete(url: string): boolean {
    return super.delete(seenKey(url));
  }
}
