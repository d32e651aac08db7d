/**
 * URL canonicalisation: one spelling per resource, so the seen-set, scope rules and trap
 * counters compare like with like. Built on the WHATWG URL parser (IDN → punycode, default
 * ports, dot segments, empty path → '/') plus the normalisations it leaves out.
 */

import { encodeQueryIn } from './query-encoding';

/** How query strings are canonicalised (the ICD's `scope.queryHandling`). */
export type QueryHandling = 'keep' | 'sort' | 'strip';

export interface CanonicalizeOptions {
  /** 'keep' as written, 'sort' parameters by name (stable), 'strip' the query. Default 'keep'. */
  queryHandling?: QueryHandling;
  /**
   * The encoding of the document the reference is in, when its queries are not UTF-8
   * (queryEncodingOf): non-ASCII in the query is encoded in it, as browsers do. Unset: UTF-8.
   */
  encoding?: string;
}

// RFC 3986 unreserved characters: an escape of one of these means the same as the character.
const UNRESERVED = /[A-Za-z0-9\-._~]/;
const ESCAPE = /%([0-9A-Fa-f]{2})/g;

/** Decodes escapes of unreserved characters and upper-cases the hex digits of all others. */
export function normalizePercentEncoding(part: string): string {
  if (!part.includes('%')) return part;
  return part.replace(ESCAPE, (_, hex: string) => {
    const ch = String.fromCharCode(parseInt(hex, 16));
    return UNRESERVED.test(ch) ? ch : `%${hex.toUpperCase()}`;
  });
}

/**
 * The path as Chromium requests it: its URL parser escapes `|` and `^` in paths, where WHATWG's
 * (Node's) leaves them. A replay in a browser asks the archive for `/a%7Cb`, and ReplayWeb.page
 * finds no record stored as `/a|b`; stored escaped, the page replays for either spelling.
 */
function browserPath(path: string): string {
  return /[|^]/.test(path) ? path.replace(/[|^]/g, (c) => (c === '|' ? '%7C' : '%5E')) : path;
}

const isAsciiWhitespace = (c: number) => c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;

/**
 * `s` without ASCII whitespace at its ends, as HTML and the URL parser strip it from a reference:
 * String#trim also strips NBSP, U+3000, U+FEFF and other Unicode spaces, which browsers keep in the
 * URL (`href="/a&nbsp;"` is `/a%C2%A0`).
 */
export function trimAsciiWhitespace(s: string): string {
  let start = 0;
  let end = s.length;
  while (start < end && isAsciiWhitespace(s.charCodeAt(start))) start++;
  while (end > start && isAsciiWhitespace(s.charCodeAt(end - 1))) end--;
  return start === 0 && end === s.length ? s : s.slice(start, end);
}

/** Sorts `a=1&b=2` parameters by name, keeping the original order among equal names. */
export function sortQuery(query: string): string {
  if (!query.includes('&')) return query;
  const params = query.split('&').filter((p) => p.length > 0);
  const keyed = params.map((p, i) => ({ p, i, key: p.split('=', 1)[0] }));
  // Array#sort is stable in V8, but the index tie-break states the intent.
  keyed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : a.i - b.i));
  return keyed.map((k) => k.p).join('&');
}

/** Parses an http(s) URL (optionally against a base) or returns null; never throws. */
export function parseHttpUrl(url: string, base?: string): URL | null {
  if (typeof url !== 'string') return null;
  let parsed: URL;
  try {
    parsed = base === undefined ? new URL(url) : new URL(url, base);
  } catch {
    return null;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return null;
  if (parsed.hostname.length === 0) return null;
  return parsed;
}

/**
 * The canonical absolute form of `url` (resolved against `base` if relative), or null when it is
 * not a valid http/https URL. Never throws.
 *
 * Lower-case host (IDN as punycode), no default port, no fragment, no trailing dot on the host
 * (null for a host with an empty label), no user info (the fetcher never sends it, so
 * `http://user:pw@host/a` is the resource `http://host/a` is, and its credentials stay out of the
 * archive's URIs: Heritrix's StripUserinfoRule),
 * unreserved characters unescaped and other escapes in upper case, `|` and `^` in the path escaped
 * (as browsers request them), dot segments resolved,
 * empty path '/', an empty query dropped, and the query kept, sorted or stripped.
 */
export function canonicalize(url: string, base?: string, opts: CanonicalizeOptions = {}): string | null {
  const parsed = parseHttpUrl(opts.encoding ? encodeQueryIn(url, opts.encoding) : url, base);
  if (!parsed) return null;
  let host = parsed.host;
  // "example.org." names the same host as "example.org" for every resolver we use.
  const hostname = parsed.hostname.endsWith('.') ? parsed.hostname.slice(0, -1) : parsed.hostname;
  // An empty label ("a..b", ".a", "a..") names no host; stripping one dot from "a.." would leave a
  // URL whose canonical form changes when canonicalised again.
  if (hostname === '' || hostname.startsWith('.') || hostname.endsWith('.') || hostname.includes('..')) return null;
  if (hostname !== parsed.hostname) host = hostname + (parsed.port ? `:${parsed.port}` : '');
  const path = browserPath(normalizePercentEncoding(parsed.pathname) || '/');
  let query = '';
  const handling = opts.queryHandling ?? 'keep';
  if (handling !== 'strip' && parsed.search.length > 1) {
    query = normalizePercentEncoding(parsed.search.slice(1));
    if (handling === 'sort') query = sortQuery(query);
  }
  return `${parsed.protocol}//${host}${path}${query ? `?${query}` : ''}`;
}

/**
 * The canonical URL a reference written in a document names, as the crawl's link extraction
 * resolves it (worker/extract/html-links.ts): ASCII whitespace trimmed (not NBSP and other Unicode
 * spaces, which browsers keep), resolved against `base`, a legacy `opts.encoding` applied to its
 * query. Null when empty or not an http(s) URL. Every reader of a page's links resolves through
 * it, so a URL one finds is the URL the others find.
 */
export function resolveReference(raw: string, base: string, opts: CanonicalizeOptions = {}): string | null {
  const ref = trimAsciiWhitespace(raw);
  return ref ? canonicalize(ref, base, opts) : null;
}

/**
 * Whether a reference written in a document is an in-page anchor (`#comments`), which leads to no
 * new document: its base names the document itself, once both are canonical with the crawl's query
 * handling. Under a `<base href>` naming another document it names that one (`baseUrl` is the
 * base in force; the document's URL when it has none). The link extraction drops such anchors, and
 * knowledge-base rules selecting one select no link, so both find the same links.
 */
export function isInPageReference(raw: string, baseUrl: string, documentUrl: string, opts: Pick<CanonicalizeOptions, 'queryHandling'> = {}): boolean {
  return trimAsciiWhitespace(raw).startsWith('#') && !baseLeavesDocument(baseUrl, documentUrl, opts);
}

/** Whether `baseUrl` names another document than `documentUrl` (in-page anchors then lead there), both canonical with `opts`'s query handling. */
export function baseLeavesDocument(baseUrl: string, documentUrl: string, opts: Pick<CanonicalizeOptions, 'queryHandling'> = {}): boolean {
  return canonicalize(baseUrl, undefined, opts) !== canonicalize(documentUrl, undefined, opts);
}

/**
 * The base URL a document's first `<base href>` gives (`href` as written), as the link extraction
 * takes it: resolved against the document's URL, the query in the document's `encoding`, with no
 * query handling (the crawl's applies to the links). Null when it names no http(s) URL: the
 * document's URL stays the base then.
 */
export function baseHrefUrl(href: string, documentUrl: string, encoding?: string): string | null {
  return resolveReference(href, documentUrl, { encoding });
}
