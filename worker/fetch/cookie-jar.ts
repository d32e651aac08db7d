import { Cookie, CookieJar, MemoryCookieStore } from 'tough-cookie';
import type { SameSiteContext } from './same-site';

/** Bounds a crawl's cookie jar holds to, whatever the sites send. */
export interface CookieBounds {
  /** A cookie whose name and value together take more bytes is ignored (RFC 6265 §6.1: 4,096). */
  maxCookieBytes: number;
  /** Cookies kept per domain (RFC 6265 §6.1's minimum, 50); beyond, the least recently set goes. */
  maxPerDomain: number;
  /** Cookies kept for the whole crawl; beyond, the least recently set one (any domain) goes. */
  maxTotal: number;
}

export const DEFAULT_COOKIE_BOUNDS: CookieBounds = { maxCookieBytes: 4096, maxPerDomain: 50, maxTotal: 10_000 };

/** The cookies a crawl keeps: what the fetcher sends back and what it learns from each response. */
export interface CrawlCookieJar {
  /**
   * The Cookie header for a request to `url`, or null when no kept cookie applies. `context`: how a
   * browser would ask for it (same-site.ts); none: every cookie that matches, whatever its SameSite.
   */
  cookieHeaderFor(url: string, context?: SameSiteContext): string | null;
  /**
   * Keeps the cookies of a response from `url` (one Set-Cookie value each); bad ones are ignored,
   * and so are SameSite=Lax or Strict ones in a cross-site subresource's response (`context` 'none').
   */
  remember(url: string, setCookieValues: readonly string[], context?: SameSiteContext): void;
  /** How many cookies are kept (expired ones included until they are next looked at). */
  size(): number;
  /** Counts the jar's changes: a snapshot taken at another count would differ. */
  changes(): number;
  /** The kept cookies, least recently set first, as createCookieJar takes them back (JSON). */
  snapshot(): string;
}

type Kept = { domain: string; path: string; key: string; cookie: Cookie };

/** What snapshot() writes: tough-cookie's JSON of each cookie, least recently set first. */
interface JarSnapshot {
  v: 1;
  cookies: unknown[];
}

/**
 * An in-memory jar for one crawl over tough-cookie, which decides domain, path, secure, expiry and
 * public-suffix matters as RFC 6265 says. Around it, the bounds: tough-cookie keeps whatever it is
 * given, and a hostile site can send thousands of cookies. "Per domain" is the domain a cookie is
 * kept under: the request's host, or its Domain attribute. Eviction (not refusal) when full, so a
 * site's newest cookie, usually the one its next page needs (a consent or session cookie), is kept.
 * `saved`: a snapshot() to start from, a resumed crawl's (store/cookie-jar-store.ts).
 */
export function createCookieJar(bounds: CookieBounds = DEFAULT_COOKIE_BOUNDS, saved?: string): CrawlCookieJar {
  const store = new MemoryCookieStore();
  const jar = new CookieJar(store);
  // Both in order of last set (Map keeps insertion order): the first entry is the one to evict.
  const all = new Map<string, Kept>();
  const byDomain = new Map<string, Map<string, Kept>>();
  let changes = 0;

  const idOf = (k: Kept) => `${k.domain}\t${k.path}\t${k.key}`;

  function unlist(id: string, kept: Kept): void {
    all.delete(id);
    const domain = byDomain.get(kept.domain);
    domain?.delete(id);
    if (domain?.size === 0) byDomain.delete(kept.domain);
  }

  function removeFromStore(kept: Kept): void {
    // MemoryCookieStore works synchronously (the jar's *Sync API relies on it): gone on return.
    void store.removeCookie(kept.domain, kept.path, kept.key);
  }

  function evictOldest(entries: Map<string, Kept>): void {
    const first = entries.entries().next();
    if (first.done) return;
    unlist(first.value[0], first.value[1]);
    removeFromStore(first.value[1]);
  }

  /** Lists a cookie the store holds as the most recently set, evicting to stay within the bounds. */
  function list(kept: Kept): void {
    const id = idOf(kept);
    let domain = byDomain.get(kept.domain);
    if (!domain) byDomain.set(kept.domain, (domain = new Map()));
    while (domain.size >= bounds.maxPerDomain) evictOldest(domain);
    while (all.size >= bounds.maxTotal) evictOldest(all);
    // evictOldest may have emptied and unlisted this domain's map.
    byDomain.set(kept.domain, domain);
    domain.set(id, kept);
    all.set(id, kept);
  }

  function keep(cookie: Cookie, url: string, context: SameSiteContext | undefined): void {
    if (Buffer.byteLength(cookie.key + cookie.value, 'utf8') > bounds.maxCookieBytes) return;
    let stored: Cookie | undefined;
    try {
      stored = jar.setCookieSync(cookie, url, { ignoreError: true, ...(context ? { sameSiteContext: context } : {}) });
    } catch {
      return; // a URL tough-cookie cannot use: nothing kept
    }
    if (!stored?.domain || !stored.path) return;
    changes++;
    const kept: Kept = { domain: stored.domain, path: stored.path, key: stored.key, cookie: stored };
    const id = idOf(kept);
    // The store has replaced the one it had: only the listing (its age) changes.
    const before = all.get(id);
    if (before) unlist(id, before);
    // An expired cookie (Max-Age=0, a past Expires) is how a site deletes one: keep nothing.
    if (isExpired(stored)) {
      removeFromStore(kept);
      return;
    }
    list(kept);
  }

  // A resumed crawl's jar, as its last snapshot left it; cookies expired since are left out.
  for (const json of savedCookies(saved)) {
    const cookie = Cookie.fromJSON(json);
    if (!cookie?.domain || !cookie.path || isExpired(cookie)) continue;
    // MemoryCookieStore works synchronously: held on return.
    void store.putCookie(cookie);
    list({ domain: cookie.domain, path: cookie.path, key: cookie.key, cookie });
  }

  return {
    cookieHeaderFor(url, context) {
      // Most sites set none: no need to have tough-cookie parse the URL and walk its domains for every request.
      if (all.size === 0) return null;
      try {
        const header = jar.getCookieStringSync(url, context ? { sameSiteContext: context } : undefined);
        return header === '' ? null : header;
      } catch {
        return null;
      }
    },
    remember(url, setCookieValues, context) {
      for (const value of setCookieValues) {
        const cookie = Cookie.parse(value);
        if (cookie) keep(cookie, url, context);
      }
    },
    size: () => all.size,
    changes: () => changes,
    snapshot: () => JSON.stringify({ v: 1, cookies: [...all.values()].map((k) => snapshotOf(k.cookie)) } satisfies JarSnapshot),
  };
}

/**
 * tough-cookie's JSON of a cookie, a Max-Age written as the time it ends (RFC 6265 §5.2.2: the
 * time it was received plus the age). tough-cookie counts a Max-Age from the cookie's last use
 * instead, which, taken back with the cookie, would start it afresh at each resumption.
 */
function snapshotOf(cookie: Cookie): unknown {
  const json = cookie.toJSON() as Record<string, unknown>;
  if (typeof cookie.maxAge !== 'number' || !cookie.creation || cookie.creation === 'Infinity') return json;
  delete json.maxAge;
  return { ...json, expires: new Date(cookie.creation.getTime() + cookie.maxAge * 1000).toISOString() };
}

function isExpired(cookie: Cookie): boolean {
  const expiry = cookie.expiryTime();
  return expiry !== undefined && expiry <= Date.now();
}

/** The cookies of a snapshot; none from one that is not (damaged, or of another format). */
function savedCookies(saved: string | undefined): unknown[] {
  if (!saved) return [];
  try {
    const parsed = JSON.parse(saved) as Partial<JarSnapshot>;
    return parsed?.v === 1 && Array.isArray(parsed.cookies) ? parsed.cookies : [];
  } catch {
    return [];
  }
}

/** The Set-Cookie values of a response, from its headers record (repeated ones joined by '\n'). */
export function setCookieValues(headers: Readonly<Record<string, string>>): string[] {
  const joined = headers['set-cookie'];
  return joined ? joined.split('\n').filter((v) => v.trim() !== '') : [];
}
