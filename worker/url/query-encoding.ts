import iconv from 'iconv-lite';
import { decodeBytes } from '../extract/charset';

/**
 * The query of a reference in a document of a legacy encoding, as browsers request it: the WHATWG
 * URL parser encodes a query's non-ASCII characters in the document's encoding (its path, and any
 * query of a UTF-8 or UTF-16 document, in UTF-8). `new URL()` knows only UTF-8, so a windows-1252
 * page's `?q=café` was fetched as `?q=caf%C3%A9` where Chromium asks for `?q=caf%E9`.
 */

/** The encodings whose decoders read more than one byte a character: iconv-lite encodes them. */
const MULTI_BYTE = new Set(['shift_jis', 'euc-jp', 'euc-kr', 'gbk', 'gb18030', 'big5']);

/**
 * The encoding a document's URL queries are encoded in (a WHATWG name, as sniffCharset gives), or
 * undefined for UTF-8: the encoding of UTF-8 and UTF-16 documents (URL standard), and of the one
 * legacy encoding with no encoder here, ISO-2022-JP.
 */
export function queryEncodingOf(charset: string | undefined): string | undefined {
  if (!charset || charset === 'utf-8' || charset.startsWith('utf-16') || charset === 'iso-2022-jp') return undefined;
  return charset;
}

// Immutable tables built once per encoding met (a cache of constants, not state).
const singleByteTables = new Map<string, Map<number, number>>();

/** Code point → byte, the inverse of the decoder (WHATWG single-byte encoders are exactly that). */
function singleByteTable(encoding: string): Map<number, number> {
  let table = singleByteTables.get(encoding);
  if (!table) {
    table = new Map();
    const bytes = Uint8Array.from({ length: 128 }, (_, i) => 0x80 + i);
    const text = decodeBytes(bytes, encoding);
    for (let i = 0; i < text.length; i++) if (text.charCodeAt(i) !== 0xfffd) table.set(text.charCodeAt(i), 0x80 + i);
    singleByteTables.set(encoding, table);
  }
  return table;
}

/** The bytes of one non-ASCII code point in `encoding`, or null when it has none there. */
function encodeCodePoint(ch: string, encoding: string): ArrayLike<number> | null {
  if (!MULTI_BYTE.has(encoding)) {
    const byte = singleByteTable(encoding).get(ch.codePointAt(0)!);
    return byte === undefined ? null : [byte];
  }
  const bytes = iconv.encode(ch, encoding);
  // iconv-lite writes '?' for what it cannot encode, and encodes two sets WHATWG's encoders refuse:
  // EUC-JP's three-byte JIS X 0212 and Big5's HKSCS lead bytes below 0xA1.
  if (bytes.length === 1 && bytes[0] === 0x3f) return null;
  if (encoding === 'euc-jp' && bytes[0] === 0x8f) return null;
  if (encoding === 'big5' && bytes[0]! < 0xa1) return null;
  return bytes;
}

/** Bytes a query keeps as they are: printable ASCII outside the special-scheme query percent-encode set. */
function keptInQuery(byte: number): boolean {
  return byte > 0x20 && byte < 0x7f && byte !== 0x22 && byte !== 0x23 && byte !== 0x27 && byte !== 0x3c && byte !== 0x3e;
}

/** Bytes a form's application/x-www-form-urlencoded data keeps as they are: ASCII letters and digits, `*-._`. */
function keptInForm(byte: number): boolean {
  return (byte >= 0x30 && byte <= 0x39) || ((byte | 0x20) >= 0x61 && (byte | 0x20) <= 0x7a) || byte === 0x2a || byte === 0x2d || byte === 0x2e || byte === 0x5f;
}

/**
 * The URL standard's "percent-encode after encoding": `text` encoded in `encoding` (UTF-8 when
 * unset), each byte `kept` as its character, the others as %XX; a character the encoding cannot
 * represent becomes `%26%23NNNN%3B`, its `&#NNNN;` in the encoder's HTML error mode, as Chromium
 * sends it.
 */
function encodeAfterEncoding(text: string, encoding: string | undefined, kept: (byte: number) => boolean, spaceAsPlus: boolean): string {
  let out = '';
  for (let ch of text) {
    const code = ch.charCodeAt(0);
    // A lone surrogate is no scalar value: the parser reads it as U+FFFD.
    if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff) ch = '\ufffd';
    const bytes = code < 0x80 ? [code] : encoding ? encodeCodePoint(ch, encoding) : Buffer.from(ch, 'utf8');
    if (!bytes) {
      out += `%26%23${ch.codePointAt(0)}%3B`;
      continue;
    }
    for (let i = 0; i < bytes.length; i++) {
      const b = bytes[i]!;
      if (spaceAsPlus && b === 0x20) out += '+';
      else out += kept(b) ? String.fromCharCode(b) : `%${b < 16 ? '0' : ''}${b.toString(16).toUpperCase()}`;
    }
  }
  return out;
}

/** Non-ASCII text of a query percent-encoded in `encoding`, as the URL parser encodes it there. */
export function percentEncodeInEncoding(text: string, encoding: string): string {
  return encodeAfterEncoding(text, encoding, keptInQuery, false);
}

/**
 * A form's entries as application/x-www-form-urlencoded, as a browser submits them: spaces as `+`,
 * in the page's `encoding` (UTF-8 when unset).
 */
export function formUrlEncoded(entries: readonly (readonly [name: string, value: string])[], encoding?: string): string {
  return entries.map(([name, value]) => `${encodeAfterEncoding(name, encoding, keptInForm, true)}=${encodeAfterEncoding(value, encoding, keptInForm, true)}`).join('&');
}

const NON_ASCII = /[^\0-\x7f]+/g;

/**
 * `ref` with the non-ASCII characters of its query percent-encoded in `encoding` (a legacy one,
 * queryEncodingOf), ready for `new URL()`, which leaves escapes alone; `ref` itself when its query
 * is ASCII. The query runs from the first '?' to the first '#' after it, as the parser reads it.
 */
export function encodeQueryIn(ref: string, encoding: string): string {
  const q = ref.indexOf('?');
  if (q === -1) return ref;
  const hash = ref.indexOf('#');
  if (hash !== -1 && hash < q) return ref;
  const end = hash === -1 ? ref.length : hash;
  const query = ref.slice(q, end);
  if (!/[^\0-\x7f]/.test(query)) return ref;
  return ref.slice(0, q) + query.replace(NON_ASCII, (run) => percentEncodeInEncoding(run, encoding)) + ref.slice(end);
}
