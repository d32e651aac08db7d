import { constants, gunzipSync } from 'node:zlib';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { decodeXML } from 'entities';
import pako from 'pako';
import { boundedParser } from './bounded-parser';
import { canonicalize } from '../url';
import { decodeText } from './charset';
import { unexpandedDtd, type UnexpandedDtd } from './doctype-entities';

/** One `<url>` of a sitemap (or one line of a text sitemap). */
export interface SitemapEntry {
  url: string;
  lastmod?: string;
  changefreq?: string;
  priority?: number;
}

export interface SitemapResult {
  /** Page URLs (`<urlset>` or a text sitemap). */
  urls: SitemapEntry[];
  /** Child sitemaps (`<sitemapindex>`). */
  sitemaps: string[];
  /**
   * A text sitemap's last line, left out because the body was cut short or its coding damaged
   * (SitemapOptions.truncated): possibly half a URL. Absent when nothing followed the last line break.
   */
  cutLine?: string;
  /**
   * An XML sitemap's last value, left out because the document ends inside it (a body cut short,
   * its coding damaged, or a closing tag missing): the element's local name (`loc`, `lastmod`…) and
   * the text it held, possibly half a URL. Absent when no value was open at the end, or it was blank.
   */
  cutValue?: { element: string; text: string };
  /** An XML sitemap's DOCTYPE declared entities or named an external DTD, none of them expanded nor fetched (unexpandedDtd). */
  unexpandedDtd?: UnexpandedDtd;
}

export interface SitemapOptions {
  /** The sitemap's own URL: relative locations resolve against it. */
  url: string;
  contentType?: string | null;
  /** Cap on the decompressed (or raw) size; beyond it `SitemapTooLargeError` is thrown. */
  maxDecodedBytes: number;
  /**
   * The body was cut short (size cap, total timeout, reset): a text sitemap's last line, unless a
   * line break ends it, is a cut URL and is left out (as it is when a gzipped one's stream is cut
   * or damaged). XML needs no flag: a value still open at the end of the document is left out
   * whatever cut it.
   */
  truncated?: boolean;
}

/** A sitemap larger than the caller's cap once decompressed: most likely a gzip bomb. */
export class SitemapTooLargeError extends Error {
  readonly reason = 'decompression-bomb' as const;
  constructor(
    readonly url: string,
    readonly limit: number,
  ) {
    super(`Sitemap ${url} is larger than ${limit} bytes when decompressed`);
    this.name = 'SitemapTooLargeError';
  }
}

/** Whether bytes start with the gzip magic number. */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** A gzipped sitemap's bytes decoded, and whether they stop before the end of its stream. */
export interface Gunzipped {
  bytes: Buffer;
  /** The stream was cut short or damaged: the bytes end where it did, maybe inside a line or a value. */
  cut: boolean;
}

/**
 * Gunzips with a hard cap on output; zlib stops as soon as the cap is passed
 * (`SitemapTooLargeError`). A stream cut short (a capture truncated at the body-size cap) or
 * damaged gives what it decoded before the cut or the damage, as the fetch layer's decoding does;
 * data that is not gzip past its header gives nothing: the sitemap is archived, not parsed.
 */
export function gunzipCapped(bytes: Uint8Array, limit: number, url: string): Gunzipped {
  try {
    return { bytes: gunzipSync(bytes, { maxOutputLength: limit }), cut: false };
  } catch (err) {
    if (isTooLarge(err)) throw new SitemapTooLargeError(url, limit);
    if (zlibCode(err) !== 'Z_BUF_ERROR') return { bytes: inflateUpToDamage(bytes, limit, url, err), cut: true };
  }
  // "unexpected end of file": flushed instead of finished, the stream gives what it holds.
  try {
    return { bytes: gunzipSync(bytes, { maxOutputLength: limit, finishFlush: constants.Z_SYNC_FLUSH }), cut: true };
  } catch (err) {
    if (isTooLarge(err)) throw new SitemapTooLargeError(url, limit);
    return { bytes: inflateUpToDamage(bytes, limit, url, err), cut: true };
  }
}

/** Input fed to the inflater at a time when a stream is damaged; see inflateUpToDamage. */
const DAMAGED_SLICE = 1024;

/**
 * What a damaged gzip stream decodes to before its damage, capped. node:zlib's synchronous API
 * keeps none of its output on a data error (and its streams are asynchronous, where extraction is
 * not), so the stream is inflated again by pako, fed DAMAGED_SLICE bytes at a time and flushed
 * after each: what the slices before the damaged one decoded is kept. The output of that slice is
 * lost with it: zlib notices damage some bytes after it begins, and what it decoded in between is
 * garbage anyway. A damage that still decodes (only the trailer's checksum tells) gives the output up to
 * the last slice, garbage included, as a streaming decoder would. Only the first gzip member is
 * read this way.
 */
function inflateUpToDamage(bytes: Uint8Array, limit: number, url: string, err: unknown): Buffer {
  if (!/^Z_/.test(zlibCode(err))) throw err;
  const out: Uint8Array[] = [];
  let size = 0;
  const inflater = new pako.Inflate({ chunkSize: 64 * 1024 });
  inflater.onData = (chunk) => {
    size += chunk.length;
    if (size > limit) throw new SitemapTooLargeError(url, limit);
    out.push(chunk);
  };
  for (let at = 0; at < bytes.length && !inflater.ended; at += DAMAGED_SLICE) {
    const last = at + DAMAGED_SLICE >= bytes.length;
    inflater.push(bytes.subarray(at, at + DAMAGED_SLICE), last ? true : constants.Z_SYNC_FLUSH);
  }
  return Buffer.concat(out);
}

function isTooLarge(err: unknown): boolean {
  return err instanceof RangeError || (err as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE';
}

/** zlib's error code (Z_DATA_ERROR, Z_BUF_ERROR…), or ''. */
function zlibCode(err: unknown): string {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : '';
}

const ENTRY_FIELDS = new Set(['loc', 'lastmod', 'changefreq', 'priority']);

/**
 * Parses an XML sitemap (`<urlset>` or `<sitemapindex>`), gzipped or not, or a plain-text
 * sitemap (one URL per line). XML goes through htmlparser2 in XML mode; values are decoded with
 * the predefined and numeric entities only: a DOCTYPE's entities are never resolved, nor its
 * external DTD fetched; the result says when it had any (unexpandedDtd).
 */
export function parseSitemap(bytes: Uint8Array, opts: SitemapOptions): SitemapResult {
  // One slice: the whole document in one write, nothing to pause between.
  const steps = sitemapSteps(bytes, opts, Number.POSITIVE_INFINITY);
  for (let step = steps.next(); ; step = steps.next()) if (step.done) return step.value;
}

/**
 * parseSitemap, giving the event loop a turn after each slice of SITEMAP_SLICE_CHARS characters of
 * an XML sitemap: a 20,000-URL sitemap held a crawl's thread for ~0.5 s in one piece, and every
 * host's politeness timer with it. The result is the same as parseSitemap's.
 */
export async function parseSitemapYielding(bytes: Uint8Array, opts: SitemapOptions, sliceChars = SITEMAP_SLICE_CHARS): Promise<SitemapResult> {
  const steps = sitemapSteps(bytes, opts, sliceChars);
  for (let step = steps.next(); ; step = steps.next()) {
    if (step.done) return step.value;
    await nextTurn(); // the event loop's timers and I/O run before the next slice
  }
}

/** Characters of an XML sitemap parsed between two turns of the event loop (parseSitemapYielding): ~10 ms of work. */
export const SITEMAP_SLICE_CHARS = 64 * 1024;

/** The parse, pausing (yield) after each slice of an XML sitemap; returns the result. */
function* sitemapSteps(bytes: Uint8Array, opts: SitemapOptions, sliceChars: number): Generator<void, SitemapResult> {
  let body: Uint8Array = bytes;
  let truncated = opts.truncated ?? false;
  if (isGzip(body)) {
    const gunzipped = gunzipCapped(body, opts.maxDecodedBytes, opts.url);
    body = gunzipped.bytes;
    truncated ||= gunzipped.cut;
  } else if (body.length > opts.maxDecodedBytes) throw new SitemapTooLargeError(opts.url, opts.maxDecodedBytes);
  // A gzipped sitemap's own Content-Type (application/x-gzip) says nothing of its text: the XML
  // declaration or a BOM then names the encoding, as for one served as XML without a charset.
  const text = decodeText(body, /xml|text/i.test(opts.contentType ?? '') ? opts.contentType : 'text/xml');
  const start = text.trimStart();
  if (!start.startsWith('<')) return { ...parseTextSitemap(text, truncated), sitemaps: [] };
  return yield* xmlSitemapSteps(text, opts.url, sliceChars);
}

function parseTextSitemap(text: string, truncated: boolean): { urls: SitemapEntry[]; cutLine?: string } {
  const urls: SitemapEntry[] = [];
  const lines = text.split(/\r?\n|\r/);
  // What follows the last line break of a body cut short is a cut line
  // (`http://example.org/second-long-pa`), or nothing when the cut fell just after the break. A
  // whole body's last line is a URL, line break or not.
  const cutLine = truncated ? lines.pop()!.trim() : '';
  // The protocol asks for absolute URLs; a relative line is more likely prose than a link.
  for (const line of lines) {
    const url = line.trim() ? canonicalize(line.trim()) : null;
    if (url) urls.push({ url });
  }
  return cutLine ? { urls, cutLine } : { urls };
}

function* xmlSitemapSteps(xml: string, base: string, sliceChars: number): Generator<void, SitemapResult> {
  const result: SitemapResult = { urls: [], sitemaps: [] };
  let entry: Record<string, string> | null = null;
  let inSitemap = false;
  let field: string | null = null;
  let value = '';
  let inCdata = false;
  /** The whole text is parsed; what closes now is closed by the end of the input, not by its tag. */
  let ending = false;
  // The prefix the document gives the sitemap namespace (`<sm:urlset xmlns:sm=…>`, as Python's
  // ElementTree and some CMS plugins write): its elements are read by their local names. Other
  // prefixes stay apart: an `<image:loc>` inside a `<url>` is not the page's location.
  let prefix = '';
  const localName = (name: string) => {
    const lower = name.toLowerCase();
    return prefix && lower.startsWith(prefix) ? lower.slice(prefix.length) : lower;
  };
  const parser = boundedParser(
    {
      onopentag(name) {
        const root = /^([^:]+:)(urlset|sitemapindex)$/i.exec(name);
        if (root && !prefix) prefix = root[1].toLowerCase();
        const local = localName(name);
        if (local === 'url') entry = {};
        else if (local === 'sitemap') {
          entry = {};
          inSitemap = true;
        } else if (entry && ENTRY_FIELDS.has(local)) {
          field = local;
          value = '';
        }
      },
      ontext(data) {
        // No reference is split: every slice written ends just after a '>' (sliceEnd), which no reference holds.
        if (field) value += inCdata || !data.includes('&') ? data : decodeXML(data);
      },
      oncdatastart() {
        inCdata = true;
      },
      oncdataend() {
        inCdata = false;
      },
      onclosetag(name) {
        const local = localName(name);
        if (field && local === field) {
          // Closed only by the end of the document: a body cut at the size cap, the total timeout
          // or a reset cuts its last value too, and `http://example.org/second-long-pa` is no URL.
          // It is left out, and said (cutValue): the crawl log quotes it, as a text sitemap's cut line.
          if (entry && !ending) entry[field] = value.trim();
          else if (entry && value.trim()) result.cutValue = { element: field, text: value.trim() };
          field = null;
        } else if ((local === 'url' || local === 'sitemap') && entry) {
          const url = entry.loc ? canonicalize(entry.loc, base) : null;
          if (url && inSitemap) result.sitemaps.push(url);
          else if (url) result.urls.push(toEntry(url, entry));
          entry = null;
          inSitemap = false;
        }
      },
    },
    // Character references are decoded in the few values holding a '&' (nearly all are plain
    // URLs and dates): the tokenizer runs about twice as fast when it leaves them alone.
    { xmlMode: true, decodeEntities: false },
  );
  for (let at = 0; at < xml.length; ) {
    const end = sliceEnd(xml, at + sliceChars);
    parser.write(xml.slice(at, end));
    at = end;
    if (at < xml.length) yield;
  }
  ending = true;
  parser.end();
  const dtd = unexpandedDtd(xml);
  if (dtd) result.unexpandedDtd = dtd;
  return result;
}

/** Where a slice wanted to end near `from` ends: just after the next '>', or at the end of the text. */
export function sliceEnd(xml: string, from: number): number {
  if (from >= xml.length) return xml.length;
  const gt = xml.indexOf('>', from);
  return gt < 0 ? xml.length : gt + 1;
}

function toEntry(url: string, e: Record<string, string>): SitemapEntry {
  const out: SitemapEntry = { url };
  if (e.lastmod) out.lastmod = e.lastmod;
  if (e.changefreq) out.changefreq = e.changefreq.toLowerCase();
  const priority = e.priority ? Number(e.priority) : NaN;
  if (Number.isFinite(priority)) out.priority = Math.min(1, Math.max(0, priority));
  return out;
}

/** The `Sitemap:` lines of a robots.txt, resolved against its URL. */
export function robotsSitemaps(robotsTxt: string, robotsUrl: string): string[] {
  const out: string[] = [];
  for (const line of robotsTxt.split(/\r?\n|\r/)) {
    const m = /^\s*sitemap\s*:\s*(\S+)/i.exec(line);
    const url = m ? canonicalize(m[1], robotsUrl) : null;
    if (url && !out.includes(url)) out.push(url);
  }
  return out;
}
