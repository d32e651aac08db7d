import { locationOf } from '../fetch/http-heads';
import { canonicalize, queryEncodingOf, type QueryHandling, type ReferenceCache } from '../url';
import { bomEncoding, decodeBytes, decodeText, sniffCharset } from './charset';
import { extractCssLinks } from './css-links';
import type { UnexpandedDtd } from './doctype-entities';
import { looksLikeJsonFeed, parseFeed, type FeedResult } from './feed';
import { firstElementName } from './first-element';
import { extractHtml, type MarkupSummary } from './html-links';
import { jsonObjectOf } from './json-object';
import { extractManifestLinks, MAX_MANIFEST_CHARS } from './manifest';
import { extractSvgLinks } from './svg-links';
import { extractModuleLinks, MAX_MODULE_CHARS, type ResolvedImportMap } from './module-imports';
import { isGzip, parseSitemap, parseSitemapYielding, robotsSitemaps, SitemapTooLargeError, type SitemapEntry, type SitemapOptions, type SitemapResult } from './sitemap';
import type { ExtractedLink, MetaRobots } from './types';

/** A response as the extract stage has it: content coding already removed from the body. */
export interface ResponseInput {
  url: string;
  status: number;
  /** Lower-case header names. */
  headers: Record<string, string>;
  body: Buffer;
  /** Cap on decompressed sitemap size (gzipped sitemap files are decompressed here). */
  maxDecodedBytes: number;
  /**
   * The body was cut short: at the size cap, the total timeout or a reset (the exchange's
   * `truncated`, its WARC-Truncated). A parser that cannot tell a cut last value from a whole
   * one by itself leaves it out. Default false.
   */
  truncated?: boolean;
  /** How query strings of the links are canonicalised; the crawl's `scope.queryHandling`. Default 'keep'. */
  queryHandling?: QueryHandling;
  /** HTML: collect text, anchor texts and link contexts (default true; see HtmlExtractOptions.text). */
  text?: boolean;
  /** HTML: the crawl's cache of root-relative references (HtmlExtractOptions.references). */
  references?: ReferenceCache;
  /** HTML: GET forms as the URL a browser submits (HtmlExtractOptions.submitForms). Default false. */
  submitForms?: boolean;
  /** HTML: the most links kept (HtmlExtractOptions.maxLinks); the crawl's scope.maxOutLinksPerPage. Default: all. */
  maxLinks?: number;
  /** The URL was named as a sitemap (robots.txt, a sitemap index): read as one whatever its name (classifyResponse). */
  declaredSitemap?: boolean;
  /**
   * A script: the import map of the document whose module graph it is in, asked for at its first
   * bare specifier (null: none known); without, its bare specifiers are left out.
   */
  importMap?: () => ResolvedImportMap | null;
  /** A page linked the URL as its web app manifest (`<link rel=manifest>`): read as one whatever its type, when it is a JSON object. */
  declaredManifest?: boolean;
}

export type ResponseKind = 'html' | 'css' | 'svg' | 'manifest' | 'script' | 'sitemap' | 'feed' | 'robots' | 'other';

export interface ResponseExtraction {
  kind: ResponseKind;
  links: ExtractedLink[];
  title?: string;
  /** HTML: all visible text. */
  text?: string;
  /** HTML: the main content's text (navigation, footers, ads left out). */
  mainText?: string;
  /** HTML: the page decoded with its charset. */
  htmlText?: string;
  /** HTML: what its references resolved to (HtmlExtraction.resolved), for another pass over it. */
  resolved?: ReadonlyMap<string, string | null>;
  /** HTML: its import maps, when it has one (HtmlExtraction.importMap), for the modules it loads. */
  importMap?: ResolvedImportMap;
  charset?: string;
  metaRobots?: MetaRobots;
  sitemapEntries?: SitemapEntry[];
  /** A text sitemap's last line, left out as possibly cut (SitemapResult.cutLine). */
  sitemapCutLine?: string;
  /** An XML sitemap's last value, left out as the document ends inside it (SitemapResult.cutValue). */
  sitemapCutValue?: { element: string; text: string };
  /** A sitemap's or feed's DOCTYPE declared entities or named an external DTD, none of them expanded nor fetched (unexpandedDtd). */
  unexpandedDtd?: UnexpandedDtd;
  feed?: FeedResult;
  /** HTML: the names and attribute values its markup is made of. */
  markup?: MarkupSummary;
  /** HTML: links past `maxLinks` left out (HtmlExtraction.linksLeftOut). */
  linksLeftOut?: number;
  /** A redirect whose Location leads to nothing the crawl fetches: why, for its crawl-log entry (unfollowedRedirectNote). */
  unfollowedRedirect?: string;
  /** Set when the body could not be looked into; the response is still archived as received. */
  failure?: { reason: 'decompression-bomb'; message: string };
}

const HTML_TYPES = /^(text\/html|application\/xhtml\+xml)$/;
const XML_TYPES = /^(application|text)\/([\w.+-]*\+)?xml$/;
const FEED_TYPES = /^application\/(rss|atom)\+xml$|^application\/feed\+json$/;
/** The HTML standard's JavaScript MIME types: the only ones a browser runs a module script of. */
export const JAVASCRIPT_TYPES = /^(application\/(x-)?(java|ecma)script|text\/(x-)?(java|ecma)script|text\/javascript1\.[0-5]|text\/(jscript|livescript))$/;

/** How far into a body its format is looked for: a long licence comment may come before the root element. */
const SNIFF_BYTES = 64 * 1024;

/**
 * The first bytes of a body as text to sniff its format from. A byte order mark decides their
 * encoding (a UTF-16 sitemap or feed read as Latin-1 is "<\0u\0r\0l\0…", which no pattern finds);
 * without one, reading them as Latin-1 finds the ASCII markup of any ASCII-compatible encoding.
 */
function sniffedHead(body: Buffer): string {
  const bom = bomEncoding(body);
  if (!bom) return body.subarray(0, SNIFF_BYTES).toString('latin1');
  return new TextDecoder(bom).decode(body.subarray(0, SNIFF_BYTES));
}

const SITEMAP_ROOTS = /^(\w+:)?(urlset|sitemapindex)$/;
const FEED_ROOTS = /^(\w+:)?(rss|feed|RDF)$/;
/** The WHATWG MIME sniffing standard's HTML signatures (§7.1), tag names followed by a space or `>`. */
const HTML_SIGNATURE = /^(<!doctype html|<html|<head|<script|<iframe|<h1|<div|<font|<table|<a|<style|<title|<b|<body|<br|<p)[\s>]|^<!--/i;

const MANIFEST_NAME = /(\.webmanifest|\/manifest\.json)$/i;

/** The path of an absolute URL, without query or fragment. */
function pathOf(url: string): string {
  const authority = url.indexOf('//');
  const start = url.indexOf('/', authority === -1 ? 0 : authority + 2);
  return start === -1 ? '/' : url.slice(start).split(/[?#]/, 1)[0]!;
}

/**
 * What the body is: from the MIME type first, then from the URL and the first bytes.
 * `declaredSitemap`: the URL was named as a sitemap (robots.txt's `Sitemap:`, a sitemap index),
 * so a body of a sitemap's types is read as one whatever its name (a gzipped `/maps/pages.xml.gz`,
 * a text `/urls.txt`); its content still decides between XML, text and gzip, and a feed is a feed.
 */
export function classifyResponse(url: string, mime: string, body: Buffer, declaredSitemap = false): ResponseKind {
  const path = pathOf(url);
  // Only the site's own: a page named robots.txt elsewhere (a wiki's article on it) is what its type says.
  if (path === '/robots.txt') return 'robots';
  if (HTML_TYPES.test(mime)) return 'html';
  if (mime === 'text/css') return 'css';
  // An SVG image is a document of its own: what it draws from elsewhere, the replay needs too.
  if (mime === 'image/svg+xml') return 'svg';
  // A web app manifest, by its type or, under a generic one, by its usual names (site.webmanifest, manifest.json).
  if (mime === 'application/manifest+json' || (MANIFEST_NAME.test(path) && /^(application\/json|text\/plain|)$/.test(mime))) return 'manifest';
  if (JAVASCRIPT_TYPES.test(mime) || (!mime && path.endsWith('.mjs'))) return 'script';
  if (FEED_TYPES.test(mime)) return 'feed';
  if (XML_TYPES.test(mime) || !mime || mime === 'text/plain' || /gzip|octet-stream/.test(mime)) {
    const head = sniffedHead(body);
    const root = firstElementName(head);
    if (root && SITEMAP_ROOTS.test(root)) return 'sitemap';
    if (root && FEED_ROOTS.test(root)) return 'feed';
    if (!mime && looksLikeJsonFeed(head)) return 'feed';
    if (declaredSitemap) return 'sitemap';
    const lowerPath = path.toLowerCase();
    if (isGzip(body) && lowerPath.includes('sitemap')) return 'sitemap';
    if (mime === 'text/plain' && lowerPath.includes('sitemap')) return 'sitemap';
    if (!mime && (HTML_SIGNATURE.test(head.trimStart()) || /^(html|head|body)$/i.test(root ?? ''))) return 'html';
  }
  if (mime === 'application/json' && looksLikeJsonFeed(sniffedHead(body))) return 'feed';
  return 'other';
}

function nofollowHeader(headers: Record<string, string>): boolean {
  return /\b(nofollow|none)\b/i.test(headers['x-robots-tag'] ?? '');
}

/**
 * Links (and title, text, sitemap entries…) of one response, choosing the parser by MIME type
 * and sniffing. A 3xx response yields its Location as one 'redirect' link. Never throws: a
 * sitemap over the size cap comes back with `failure` set.
 */
export function extractFromResponse(input: ResponseInput): ResponseExtraction {
  return isRedirect(input) ? redirectExtraction(input) : extractAs(input, kindOf(input));
}

const isRedirect = (input: ResponseInput) => input.status >= 300 && input.status < 400;

/** A 3xx response's one link: its Location. */
function redirectExtraction({ url, status, headers, queryHandling }: ResponseInput): ResponseExtraction {
  const location = locationOf(headers);
  if (location.kind === 'several') return { kind: 'other', links: [], unfollowedRedirect: severalLocationsNote(status, location.values) };
  const text = location.kind === 'one' ? location.text : '';
  const target = text ? canonicalize(text, url, { queryHandling: queryHandling ?? 'keep' }) : null;
  if (target) return { kind: 'other', links: [{ url: target, kind: 'redirect', source: 'header@location', anchorText: '', context: '' }] };
  const unfollowed = unfollowedRedirectNote(status, text, url, headers.location !== undefined);
  return { kind: 'other', links: [], ...(unfollowed ? { unfollowedRedirect: unfollowed } : {}) };
}

/** Why a redirect with different Location headers is not followed, quoting them (each cut as unfollowedRedirectNote cuts one). */
function severalLocationsNote(status: number, values: string[]): string {
  const shown = values.map((v) => JSON.stringify(v.length > LOCATION_SHOWN ? `${v.slice(0, LOCATION_SHOWN)}…` : v)).join(', ');
  return `a ${status} with ${values.length} different Location headers (${shown}): no target followed, as browsers refuse such an answer`;
}

/** Statuses whose answer is "look there" (RFC 9110 §15.4): without a usable Location they lead nowhere. */
const REDIRECTS_TO_LOCATION: ReadonlySet<number> = new Set([301, 302, 303, 307, 308]);
/** A Location the crawl log quotes is cut to this many characters: a hostile server may send megabytes. */
const LOCATION_SHOWN = 200;

/**
 * Why a redirect leads to nothing the crawl fetches, for its crawl-log entry (Heritrix logs such a
 * Location among its URI errors): a scheme other than http(s), a Location that is no URL, none at
 * all (`headerSent`: the header came, empty). Null when the answer names no target to follow (304,
 * a 300 without Location) or names one.
 */
export function unfollowedRedirectNote(status: number, location: string, base: string, headerSent = false): string | null {
  if (!location) return REDIRECTS_TO_LOCATION.has(status) ? `a ${status} ${headerSent ? 'with an empty' : 'without a'} Location header: no target to follow` : null;
  const shown = JSON.stringify(location.length > LOCATION_SHOWN ? `${location.slice(0, LOCATION_SHOWN)}…` : location);
  let scheme: string;
  try {
    scheme = new URL(location, base).protocol;
  } catch {
    return `redirect not followed: its Location ${shown} is no valid URL`;
  }
  if (scheme !== 'http:' && scheme !== 'https:') return `redirect to a ${scheme.slice(0, -1)}: URL not followed (only http and https are fetched): ${shown}`;
  return `redirect not followed: its Location ${shown} names no host the crawl can fetch`;
}

/** What the response's body is: a manifest a page declared, when it is a JSON object; else from its MIME type, URL and first bytes (classifyResponse). */
function kindOf({ url, headers, body, declaredSitemap, declaredManifest }: ResponseInput): ResponseKind {
  if (declaredManifest && body.length <= MAX_MANIFEST_CHARS && jsonObjectOf(decodeText(body, headers['content-type'] ?? '')) !== null) return 'manifest';
  return classifyResponse(url, (headers['content-type'] ?? '').split(';', 1)[0].trim().toLowerCase(), body, declaredSitemap);
}

/** The extraction of a response that is no redirect, its kind already known. */
function extractAs(input: ResponseInput, kind: ResponseKind): ResponseExtraction {
  const { url, headers, body } = input;
  const opts = { queryHandling: input.queryHandling ?? 'keep' };
  const contentType = headers['content-type'] ?? '';
  switch (kind) {
    case 'html': {
      const charset = sniffCharset(body, contentType);
      const htmlText = decodeText(body, contentType, charset);
      const page = extractHtml(htmlText, url, { ...opts, encoding: queryEncodingOf(charset), text: input.text ?? true, references: input.references, submitForms: input.submitForms, maxLinks: input.maxLinks });
      const headerNofollow = nofollowHeader(headers);
      const links = headerNofollow ? page.links.map((l) => ({ ...l, nofollow: true })) : page.links;
      const metaRobots = { noindex: page.metaRobots.noindex || /\b(noindex|none)\b/i.test(headers['x-robots-tag'] ?? ''), nofollow: page.metaRobots.nofollow || headerNofollow };
      return { kind, links, title: page.title, text: page.text, mainText: page.mainText, htmlText, resolved: page.resolved, charset, metaRobots, markup: page.markup, linksLeftOut: page.linksLeftOut, ...(page.importMap ? { importMap: page.importMap } : {}) };
    }
    case 'css': {
      const charset = sniffCharset(body, contentType);
      const links = extractCssLinks(decodeText(body, contentType, charset), url, { ...opts, encoding: queryEncodingOf(charset), sourcePrefix: 'css' });
      // An @import-ed sheet is part of this one, as a browser applies them: no embed hop of its own.
      return { kind, links: links.map((l) => (isImportSource(l.source) ? asImport(l) : l)), charset };
    }
    case 'svg':
      return { kind, links: extractSvgLinks(decodeText(body, contentType), url, opts) };
    case 'manifest':
      return { kind, links: extractManifestLinks(decodeText(body, contentType), url, opts) };
    case 'script': {
      // Which links reached it is not known here (the frontier keeps a link's kind, not its source),
      // so every script is read as a module might be; a classic one rarely names `import`. Its bare
      // specifiers go through the import map of its document, when input.importMap knows it. A
      // module is UTF-8 whatever its charset says (HTML standard, "fetch a single module script").
      // One over the cap is archived unread.
      const tooLong = body.length > Math.min(input.maxDecodedBytes, MAX_MODULE_CHARS);
      return { kind, links: tooLong ? [] : extractModuleLinks(decodeBytes(body, 'utf-8'), url, { ...opts, importMap: input.importMap }).map(asImport), charset: 'utf-8' };
    }
    case 'robots': {
      const links = robotsSitemaps(body.toString('utf8'), url).map((u): ExtractedLink => ({ url: u, kind: 'sitemap', source: 'robots@sitemap', anchorText: '', context: '' }));
      return { kind, links };
    }
    case 'sitemap':
      try {
        return sitemapExtraction(parseSitemap(body, sitemapOptions(input)), opts.queryHandling);
      } catch (err) {
        return sitemapTooLarge(err);
      }
    case 'feed': {
      const feed = parseFeed(body, contentType, url);
      const links = feed.items.map((i): ExtractedLink => ({ url: i.url, kind: 'navigation', source: 'feed@link', anchorText: i.title, context: '' }));
      return { kind, links: requery(links, opts.queryHandling), title: feed.title, feed, ...(feed.unexpandedDtd ? { unexpandedDtd: feed.unexpandedDtd } : {}) };
    }
    default:
      return { kind, links: [] };
  }
}

/** A link of a stylesheet or module to a part of it (ExtractedLink.role). */
const asImport = (link: ExtractedLink): ExtractedLink => ({ ...link, role: 'import' });

/**
 * Whether a link's source (its out-link tag in the capture's metadata record) is a stylesheet's
 * `@import` or a module's import: a part of the requisite that names it, which counts no embed hop
 * (the crawl's scope, and a collection's requisites, walk through it).
 */
export function isImportSource(source: string): boolean {
  return source === 'css@import' || source === 'module@import';
}

/**
 * extractFromResponse, but an XML sitemap is parsed slice by slice (SITEMAP_SLICE_CHARS characters,
 * decompressed), the event loop having its turn between two (parseSitemapYielding): the crawl's
 * thread is not held for the whole of a large one (~0.5 s for 20,000 URLs). The result is
 * extractFromResponse's.
 */
export async function extractFromResponseYielding(input: ResponseInput): Promise<ResponseExtraction> {
  if (isRedirect(input)) return redirectExtraction(input);
  const kind = kindOf(input);
  if (kind !== 'sitemap') return extractAs(input, kind);
  try {
    return sitemapExtraction(await parseSitemapYielding(input.body, sitemapOptions(input)), input.queryHandling ?? 'keep');
  } catch (err) {
    return sitemapTooLarge(err);
  }
}

function sitemapOptions(input: ResponseInput): SitemapOptions {
  return { url: input.url, contentType: input.headers['content-type'] ?? '', maxDecodedBytes: input.maxDecodedBytes, truncated: input.truncated };
}

/** A sitemap's links: its child sitemaps, then its pages, with the crawl's query handling. */
function sitemapExtraction(map: SitemapResult, queryHandling: QueryHandling): ResponseExtraction {
  const links: ExtractedLink[] = [
    ...map.sitemaps.map((u): ExtractedLink => ({ url: u, kind: 'sitemap', source: 'sitemap@loc', anchorText: '', context: '' })),
    ...map.urls.map((e): ExtractedLink => ({ url: e.url, kind: 'navigation', source: 'sitemap@loc', anchorText: '', context: '' })),
  ];
  return { kind: 'sitemap', links: requery(links, queryHandling), sitemapEntries: map.urls, ...(map.cutLine ? { sitemapCutLine: map.cutLine } : {}), ...(map.cutValue ? { sitemapCutValue: map.cutValue } : {}), ...(map.unexpandedDtd ? { unexpandedDtd: map.unexpandedDtd } : {}) };
}

/** A sitemap over the size cap is archived, not parsed; any other error is not the sitemap's. */
function sitemapTooLarge(err: unknown): ResponseExtraction {
  if (err instanceof SitemapTooLargeError) return { kind: 'sitemap', links: [], failure: { reason: err.reason, message: err.message } };
  throw err;
}

/** Sitemaps and feeds canonicalise with 'keep'; re-apply the crawl's query handling and dedupe. */
function requery(links: ExtractedLink[], queryHandling: QueryHandling): ExtractedLink[] {
  const seen = new Set<string>();
  const out: ExtractedLink[] = [];
  for (const link of links) {
    const url = queryHandling === 'keep' ? link.url : canonicalize(link.url, undefined, { queryHandling });
    if (!url || seen.has(url)) continue;
    seen.add(url);
    out.push(url === link.url ? link : { ...link, url });
  }
  return out;
}
