/**
 * Pure construction of WARC 1.1 record headers (WARC.md checklist). No I/O, no clocks, no
 * randomness: record ids and dates are passed in, so every function here is testable with
 * literals.
 */

/** An ordered list of WARC named fields. Order is kept as written. */
export type WarcFields = Array<[name: string, value: string]>;

export const WARC_VERSION = 'WARC/1.1';
export const CT_REQUEST = 'application/http;msgtype=request';
export const CT_RESPONSE = 'application/http;msgtype=response';
export const CT_WARC_FIELDS = 'application/warc-fields';
export const PROFILE_IDENTICAL =
  'http://netpreserve.org/warc/1.1/revisit/identical-payload-digest';
export const PROFILE_NOT_MODIFIED = 'http://netpreserve.org/warc/1.1/revisit/server-not-modified';

/** The only field the standard lets repeat. */
const REPEATABLE = new Set(['warc-concurrent-to']);

/** WARC-Date: UTC, fractional seconds kept (allowed by WARC 1.1). */
export function warcDate(date: Date): string {
  return date.toISOString();
}

/** The 14-digit timestamp CDX(J) uses, from a WARC-Date. */
export function cdxTimestamp(warcDateValue: string): string {
  return warcDateValue.replace(/[^0-9]/g, '').slice(0, 14);
}

/** `<urn:uuid:…>` from a UUID string. */
export function recordIdFromUuid(uuid: string): string {
  return `<urn:uuid:${uuid}>`;
}

/**
 * Serialises the header of one record, without the final blank line and without
 * WARC-Block-Digest (appended by whoever hashes the block). Throws on a repeated field (other
 * than WARC-Concurrent-To), an empty name or a line break in a value, because each of those
 * makes a file that some readers reject.
 */
export function serializeFields(fields: WarcFields): string {
  const seen = new Set<string>();
  let out = WARC_VERSION + '\r\n';
  for (const [name, value] of fields) {
    const key = name.toLowerCase();
    if (!/^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/.test(name)) throw new Error(`bad WARC field name: ${name}`);
    if (seen.has(key) && !REPEATABLE.has(key)) throw new Error(`repeated WARC field: ${name}`);
    if (/[\r\n]/.test(value)) throw new Error(`line break in WARC field ${name}`);
    seen.add(key);
    out += `${name}: ${value}\r\n`;
  }
  return out;
}

/** What every record of a file shares. */
export interface RecordBase {
  recordId: string;
  date: string;
  warcinfoId: string;
}

/** Fields common to every record: type, id, date, (target), warcinfo link. */
function common(type: string, base: RecordBase, targetUri?: string): WarcFields {
  const fields: WarcFields = [
    ['WARC-Type', type],
    ['WARC-Record-ID', base.recordId],
    ['WARC-Date', base.date],
  ];
  // Bare URI: wget's `<…>` form breaks several readers (WARC.md).
  if (targetUri !== undefined) fields.push(['WARC-Target-URI', targetUri]);
  fields.push(['WARC-Warcinfo-ID', base.warcinfoId]);
  return fields;
}

/** Adds Content-Type (only for a non-empty block) and Content-Length. */
function withBlock(fields: WarcFields, contentType: string, blockLength: number): WarcFields {
  if (blockLength > 0) fields.push(['Content-Type', contentType]);
  fields.push(['Content-Length', String(blockLength)]);
  return fields;
}

/** The warcinfo record's header (no WARC-Target-URI, ever). */
export function warcinfoFields(
  recordId: string,
  date: string,
  filename: string,
  blockLength: number,
): WarcFields {
  const fields: WarcFields = [
    ['WARC-Type', 'warcinfo'],
    ['WARC-Record-ID', recordId],
    ['WARC-Date', date],
    ['WARC-Filename', filename],
  ];
  return withBlock(fields, CT_WARC_FIELDS, blockLength);
}

/** The `software` of Tidemark's warcinfo records. */
export const SOFTWARE = 'Tidemark/0.1.0';

/** What a warcinfo record says about the crawl (a collection's has no robots policy or user agent of its own). */
export interface WarcinfoInfo {
  software: string;
  operator?: string;
  robotsPolicy?: string;
  userAgent?: string;
  isPartOf?: string;
  hostname?: string;
  description?: string;
}

/** The `application/warc-fields` block of a warcinfo record. */
export function warcinfoBlock(info: WarcinfoInfo): string {
  const lines: WarcFields = [
    ['software', info.software],
    ['format', 'WARC File Format 1.1'],
    [
      'conformsTo',
      'https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/',
    ],
  ];
  if (info.robotsPolicy) lines.push(['robots', info.robotsPolicy]);
  if (info.userAgent) lines.push(['http-header-user-agent', info.userAgent]);
  if (info.operator) lines.push(['operator', info.operator]);
  if (info.isPartOf) lines.push(['isPartOf', info.isPartOf]);
  if (info.hostname) lines.push(['hostname', info.hostname]);
  if (info.description) lines.push(['description', info.description]);
  return lines.map(([k, v]) => `${k}: ${oneLine(v)}\r\n`).join('');
}

/** The request record of a capture. */
export function requestFields(
  base: RecordBase,
  targetUri: string,
  concurrentTo: string,
  ip: string | null,
  blockLength: number,
): WarcFields {
  const fields = common('request', base, targetUri);
  fields.push(['WARC-Concurrent-To', concurrentTo]);
  if (ip) fields.push(['WARC-IP-Address', ip]);
  return withBlock(fields, CT_REQUEST, blockLength);
}

/** The response record of a capture. */
export function responseFields(
  base: RecordBase,
  targetUri: string,
  ip: string | null,
  payloadDigest: string,
  truncated: string | null,
  blockLength: number,
): WarcFields {
  const fields = common('response', base, targetUri);
  if (ip) fields.push(['WARC-IP-Address', ip]);
  fields.push(['WARC-Payload-Digest', payloadDigest]);
  if (truncated) fields.push(['WARC-Truncated', truncated]);
  return withBlock(fields, CT_RESPONSE, blockLength);
}

/** What a revisit refers to. */
export interface RevisitTarget {
  uri: string;
  date: string;
  recordId?: string;
  payloadDigest: string;
}

/** The revisit record of a capture (WARC 1.1 profiles). */
export function revisitFields(
  base: RecordBase,
  targetUri: string,
  ip: string | null,
  refersTo: RevisitTarget,
  profile: 'identical-payload-digest' | 'server-not-modified',
  headersOnly: boolean,
  blockLength: number,
): WarcFields {
  const fields = common('revisit', base, targetUri);
  fields.push([
    'WARC-Profile',
    profile === 'identical-payload-digest' ? PROFILE_IDENTICAL : PROFILE_NOT_MODIFIED,
  ]);
  if (ip) fields.push(['WARC-IP-Address', ip]);
  fields.push(['WARC-Refers-To-Target-URI', refersTo.uri]);
  fields.push(['WARC-Refers-To-Date', refersTo.date]);
  if (refersTo.recordId) fields.push(['WARC-Refers-To', refersTo.recordId]);
  fields.push(['WARC-Payload-Digest', refersTo.payloadDigest]);
  // The HTTP headers are kept and the body is left out: the block is cut by length.
  if (headersOnly) fields.push(['WARC-Truncated', 'length']);
  return withBlock(fields, CT_RESPONSE, blockLength);
}

/** A metadata record about `targetUri` (out-links as warc-fields, Web objects as JSON). */
export function metadataFields(
  base: RecordBase,
  targetUri: string,
  concurrentTo: string | undefined,
  contentType: string,
  blockLength: number,
): WarcFields {
  const fields = common('metadata', base, targetUri);
  if (concurrentTo) fields.push(['WARC-Concurrent-To', concurrentTo]);
  return withBlock(fields, contentType, blockLength);
}

/** One out-link as Heritrix writes it: `outlink: <url> <hop> <tag>`. */
export interface Outlink {
  url: string;
  hop?: string;
  tag?: string;
}

/**
 * A link found in a response as Heritrix writes it in a metadata record: its hop letter (`E` for
 * what the page embeds, `R` for a redirect's target, `L` for any other link) and its context as
 * an XPath-like `element/@attribute` (our `a@href`, `img@srcset`, `header@location` become
 * `a/@href`, `img/@srcset`, `header/@location`).
 */
export function outlinkOf(link: { url: string; kind: string; source: string }): Outlink {
  const hop = link.kind === 'requisite' ? 'E' : link.kind === 'redirect' ? 'R' : 'L';
  const source = link.source.replace(/\s+/g, '');
  const at = source.indexOf('@');
  const tag = at > 0 && source[at - 1] !== '/' ? `${source.slice(0, at)}/${source.slice(at)}` : source;
  return { url: link.url, hop, tag: tag || undefined };
}

/**
 * The `application/warc-fields` block of a capture's metadata: `outlinks` (strings or
 * {url, hop, tag}) become Heritrix-style `outlink:` lines; other keys become `key: value`, with
 * non-string values as JSON.
 */
export function metadataBlock(metadata: Record<string, unknown>): string {
  let out = '';
  for (const [key, value] of Object.entries(metadata)) {
    if (key === 'outlinks' && Array.isArray(value)) {
      for (const link of value as Array<string | Outlink>) {
        const l = typeof link === 'string' ? { url: link } : link;
        out += `outlink: ${oneLine(l.url)} ${l.hop ?? 'L'} ${l.tag ?? 'a/@href'}\r\n`;
      }
    } else {
      const text = typeof value === 'string' ? value : JSON.stringify(value);
      out += `${key}: ${oneLine(text)}\r\n`;
    }
  }
  return out;
}

/**
 * The out-links of a metadata block (metadataBlock's `outlink:` lines, Heritrix's too), in order:
 * each line's URL, hop letter and tag, read from the right (a URL written on one line may hold a
 * space). Other lines, and lines too short to be out-links, are passed over.
 */
export function outlinksOfBlock(block: string): Outlink[] {
  const links: Outlink[] = [];
  for (const line of block.split(/\r?\n/)) {
    if (!line.toLowerCase().startsWith('outlink:')) continue;
    const words = line.slice('outlink:'.length).trim().split(' ');
    if (words.length < 3) continue;
    const tag = words.pop()!;
    const hop = words.pop()!;
    links.push({ url: words.join(' '), hop, tag });
  }
  return links;
}

/**
 * Field values must stay on one line, and hold TEXT: the warc-fields grammar's field-content is
 * "any OCTET except CTLs, but including LWS", so a control character (a bell or an escape in a
 * crawl's name or description, a NUL) becomes a space too; a tab is LWS and stays.
 */
function oneLine(value: string): string {
  return value.replace(/[\r\n]+|[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g, ' ');
}
