import { canonicalize, type QueryHandling } from './canonicalize';
import { ownCopy } from '../extract/own-copy';
import { encodeQueryIn } from './query-encoding';

/** Entries kept before the cache starts afresh (~340 bytes each in V8, so ~3.4 MB at most). */
const DEFAULT_CAPACITY = 10_000;

/**
 * What references starting with '/' resolve to, across the pages of one crawl. Menus, footers and
 * shared assets repeat the same root-relative references on every page of a site, and
 * canonicalising each anew was a quarter of the crawl thread's link extraction (~55 µs per page on
 * the throughput benchmark's site). Such a reference — path-absolute, or protocol-relative ('//',
 * '/\', or '/' and '/' with a tab between, which the URL parser drops) — takes from its base only
 * the scheme, user info, host and port, never the path: so the part of the (canonical) base before
 * its path, with the reference, decides the result. Other references depend on the base's path
 * and are resolved page by page.
 */
export class ReferenceCache {
  private readonly resolved = new Map<string, string | null>();
  /** The last base and its origin (originOf): a page's references share one base. */
  private lastBase = '';
  private lastOrigin: string | null = null;

  constructor(
    private readonly queryHandling: QueryHandling = 'keep',
    private readonly capacity = DEFAULT_CAPACITY,
  ) {}

  /**
   * canonicalize(ref, base, {queryHandling, encoding}), from the cache when `ref` starts with '/'
   * and `base` is canonical. A legacy `encoding`'s query escapes are made first, so the key holds them.
   */
  resolve(raw: string, base: string, encoding?: string): string | null {
    const ref = encoding ? encodeQueryIn(raw, encoding) : raw;
    const origin = ref.charCodeAt(0) === 47 ? this.originOfBase(base) : null;
    if (origin === null) return canonicalize(ref, base, { queryHandling: this.queryHandling });
    const key = origin + ref;
    let url = this.resolved.get(key);
    if (url === undefined) {
      url = canonicalize(ref, base, { queryHandling: this.queryHandling });
      if (this.resolved.size >= this.capacity) this.resolved.clear();
      this.resolved.set(ownCopy(key), url);
    }
    return url;
  }

  private originOfBase(base: string): string | null {
    if (base !== this.lastBase) {
      this.lastBase = base;
      this.lastOrigin = originOf(base);
    }
    return this.lastOrigin;
  }
}

/**
 * 'scheme://host:port' of a canonical http(s) URL (whose path always starts with '/'), or
 * null for anything else (then the caller does not cache).
 */
function originOf(base: string): string | null {
  const authority = base.startsWith('https://') ? 8 : base.startsWith('http://') ? 7 : -1;
  if (authority < 0) return null;
  const path = base.indexOf('/', authority);
  return path > authority ? base.slice(0, path) : null;
}
