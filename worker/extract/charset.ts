/**
 * Character encoding of a response body, in the order the HTML standard sniffs it: byte order
 * mark (it cannot lie), the HTTP Content-Type charset, then a declaration near the start of the
 * document (`<meta charset>`, `<meta http-equiv=Content-Type>`, `<?xml encoding?>`). Without any
 * of those: UTF-8 when the bytes are valid UTF-8 with non-ASCII in them (most of today's
 * undeclared pages), else windows-1252 as WHATWG prescribes. Names are the WHATWG ones that
 * `TextDecoder` reports; unknown labels are ignored, never fatal.
 */

/** How many leading bytes the declaration prescan reads (the standard encourages 1024; pages overrun it). */
const PRESCAN_BYTES = 4096;

/** The WHATWG name for an encoding label, or null when `TextDecoder` does not know it. */
export function encodingForLabel(label: string | undefined | null): string | null {
  if (!label) return null;
  const trimmed = label.trim().replace(/^["']|["']$/g, '');
  if (!trimmed) return null;
  try {
    const name = new TextDecoder(trimmed).encoding;
    // "replacement" is the decoder for labels that are dangerous to honour (ISO-2022-KR and
    // friends); x-user-defined is only meaningful to browsers. Neither helps link extraction.
    return name === 'replacement' || name === 'x-user-defined' ? null : name;
  } catch {
    return null;
  }
}

/** The encoding a byte order mark at the start of `bytes` names, or null without one. */
export function bomEncoding(bytes: Uint8Array): string | null {
  if (bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return 'utf-8';
  if (bytes.length >= 2 && bytes[0] === 0xfe && bytes[1] === 0xff) return 'utf-16be';
  if (bytes.length >= 2 && bytes[0] === 0xff && bytes[1] === 0xfe) return 'utf-16le';
  return null;
}

/** The charset parameter of a Content-Type header value. */
export function charsetParam(contentType: string | undefined | null): string | null {
  if (!contentType) return null;
  const m = /;\s*charset\s*=\s*("?)([^";,\s]+)\1/i.exec(contentType);
  return m ? m[2] : null;
}

const XML_DECL = /^<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']+)["']/;

/**
 * A charset declared in the document's first bytes, read as ASCII. A document that could be read
 * as ASCII to find the declaration is not UTF-16 (HTML standard), whatever it says.
 */
function declaredEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN_BYTES)).toString('latin1');
  const xml = XML_DECL.exec(head);
  if (xml) return asciiReadable(encodingForLabel(xml[1]));
  // Every declaration says "charset": a head without the word needs no walk through its markup.
  return /charset/i.test(head) ? metaEncoding(head) : null;
}

/**
 * The encoding the first `<meta>` declaring a known one names, found as the HTML standard's
 * "prescan a byte stream to determine its encoding" finds it: comments, other markup declarations
 * and the attributes of other tags are skipped (a declaration commented out, or quoted in an
 * attribute, is no declaration), and only `<meta charset>` or `<meta http-equiv="content-type"
 * content="…charset=…">` counts. Null when the head ends inside a construct: what it cuts off
 * cannot be told apart from a declaration cut short.
 */
function metaEncoding(head: string): string | null {
  const tag = new AttributeReader(head);
  for (let at = head.indexOf('<'); at !== -1; ) {
    let end = at;
    const next = head.charCodeAt(at + 1);
    if (next === BANG && head.startsWith('--', at + 2)) {
      // The comment ends at the first "-->", which may share its dashes with "<!--".
      end = head.indexOf('-->', at + 2);
      if (end === -1) return null;
      end += 2;
    } else if (isMetaOpen(head, at)) {
      tag.at = at + 5;
      const encoding = metaDeclaration(tag);
      if (tag.at >= head.length) return null;
      if (encoding) return encoding;
      end = tag.at;
    } else if (isLetter(next) || (next === SLASH && isLetter(head.charCodeAt(at + 2)))) {
      // Another tag: its name, then its attributes, whose values may hold anything but their quote.
      let i = at + 2;
      for (let c = head.charCodeAt(i); i < head.length && c !== GT && !isSpace(c); c = head.charCodeAt(++i));
      tag.at = i;
      while (tag.next());
      if (tag.at >= head.length) return null;
      end = tag.at;
    } else if (next === BANG || next === SLASH || next === QUESTION) {
      end = head.indexOf('>', at + 2);
      if (end === -1) return null;
    }
    at = head.indexOf('<', end + 1);
  }
  return null;
}

/** "<meta" in any case, then a space or '/', at `at`. */
function isMetaOpen(s: string, at: number): boolean {
  return (
    (s.charCodeAt(at + 1) | 0x20) === 0x6d &&
    (s.charCodeAt(at + 2) | 0x20) === 0x65 &&
    (s.charCodeAt(at + 3) | 0x20) === 0x74 &&
    (s.charCodeAt(at + 4) | 0x20) === 0x61 &&
    (isSpace(s.charCodeAt(at + 5)) || s.charCodeAt(at + 5) === SLASH)
  );
}

function isLetter(c: number): boolean {
  return (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a);
}

/**
 * What the attributes of a `<meta>` (read from `tag.at`) declare, by the prescan's rules: a known
 * `charset`, or a known charset in `content` with `http-equiv="content-type"`; the first of an
 * attribute written twice counts. Leaves `tag.at` at the tag's '>' (or the head's end).
 */
function metaDeclaration(tag: AttributeReader): string | null {
  const seen = new Set<string>();
  let gotPragma = false;
  let needPragma: boolean | null = null;
  // undefined until an attribute names a charset; null when the one named is unknown.
  let charset: string | null | undefined;
  while (tag.next()) {
    const name = tag.name();
    if (seen.has(name)) continue;
    seen.add(name);
    if (name === 'http-equiv') {
      if (tag.value() === 'content-type') gotPragma = true;
    } else if (name === 'content') {
      const encoding = encodingForLabel(charsetInContent(tag.value()));
      if (encoding && charset === undefined) {
        charset = encoding;
        needPragma = true;
      }
    } else if (name === 'charset') {
      charset = encodingForLabel(tag.value());
      needPragma = false;
    }
  }
  if (needPragma === null || (needPragma && !gotPragma) || !charset) return null;
  return asciiReadable(charset);
}

/** The label after "charset=" in a (lower-cased) meta content value: the standard's "extracting a character encoding from a meta element". */
function charsetInContent(content: string): string | null {
  for (let at = content.indexOf('charset'); at !== -1; at = content.indexOf('charset', at)) {
    let i = at + 7;
    while (isSpace(content.charCodeAt(i))) i++;
    if (content[i] !== '=') {
      at = i;
      continue;
    }
    i++;
    while (isSpace(content.charCodeAt(i))) i++;
    const quote = content[i];
    if (quote === '"' || quote === "'") {
      const close = content.indexOf(quote, i + 1);
      return close === -1 ? null : content.slice(i + 1, close);
    }
    let end = i;
    while (end < content.length && !isSpace(content.charCodeAt(end)) && content[end] !== ';') end++;
    return end > i ? content.slice(i, end) : null;
  }
  return null;
}

const BANG = 0x21;
const SLASH = 0x2f;
const EQUALS = 0x3d;
const GT = 0x3e;
const QUESTION = 0x3f;

/** TAB, LF, FF, CR and space: the prescan's whitespace. */
function isSpace(c: number): boolean {
  return c === 0x20 || c === 0x09 || c === 0x0a || c === 0x0c || c === 0x0d;
}

/** The prescan's "get an attribute": reads a tag's attributes one by one from `at`. */
class AttributeReader {
  /** Where the next attribute is looked for; the tag's '>' after the last, the text's length once it ran out. */
  at = 0;
  private nameStart = 0;
  private nameEnd = 0;
  private valueStart = 0;
  private valueEnd = 0;

  constructor(private readonly text: string) {}

  /** The attribute's name, lower-cased. */
  name(): string {
    return this.text.slice(this.nameStart, this.nameEnd).toLowerCase();
  }

  /** The attribute's value, lower-cased (the prescan compares values in lower case). */
  value(): string {
    return this.text.slice(this.valueStart, this.valueEnd).toLowerCase();
  }

  /** Reads the attribute at `at`: false at the tag's '>' or when the text ends first. */
  next(): boolean {
    const s = this.text;
    let i = this.at;
    while (i < s.length && (isSpace(s.charCodeAt(i)) || s.charCodeAt(i) === SLASH)) i++;
    if (i >= s.length) return this.ranOut();
    if (s.charCodeAt(i) === GT) {
      this.at = i;
      return false;
    }
    // A name's first character is part of it whatever it is, even '='.
    this.nameStart = i++;
    for (let c = s.charCodeAt(i); i < s.length && c !== EQUALS && c !== SLASH && c !== GT && !isSpace(c); c = s.charCodeAt(++i));
    this.nameEnd = this.valueStart = this.valueEnd = i;
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    if (i >= s.length) return this.ranOut();
    if (s.charCodeAt(i) !== EQUALS) {
      this.at = i;
      return true;
    }
    i++;
    while (i < s.length && isSpace(s.charCodeAt(i))) i++;
    if (i >= s.length) return this.ranOut();
    const first = s[i];
    if (first === '"' || first === "'") {
      const close = s.indexOf(first, i + 1);
      if (close === -1) return this.ranOut();
      this.valueStart = i + 1;
      this.valueEnd = close;
      this.at = close + 1;
      return true;
    }
    if (first === '>') {
      this.at = i;
      return true;
    }
    const valueStart = i;
    for (let c = s.charCodeAt(++i); i < s.length && c !== GT && !isSpace(c); c = s.charCodeAt(++i));
    if (i >= s.length) return this.ranOut();
    this.valueStart = valueStart;
    this.valueEnd = i;
    this.at = i;
    return true;
  }

  private ranOut(): false {
    this.at = this.text.length;
    return false;
  }
}

function asciiReadable(name: string | null): string | null {
  return name?.startsWith('utf-16') ? 'utf-8' : name;
}

function looksLikeUtf8(bytes: Uint8Array): boolean {
  let ascii = true;
  for (let i = 0; i < bytes.length; i++) {
    if (bytes[i] >= 0x80) {
      ascii = false;
      break;
    }
  }
  if (ascii) return false;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    return true;
  } catch {
    return false;
  }
}

/** The encoding of `bytes` (WHATWG name such as 'utf-8', 'windows-1252', 'shift_jis'). */
export function sniffCharset(bytes: Uint8Array, contentType?: string | null): string {
  return bomEncoding(bytes) ?? encodingForLabel(charsetParam(contentType)) ?? declaredEncoding(bytes) ?? (looksLikeUtf8(bytes) ? 'utf-8' : 'windows-1252');
}

/** The body as text in its sniffed encoding (a matching BOM removed); malformed bytes become U+FFFD. */
export function decodeText(bytes: Uint8Array, contentType?: string | null, encoding = sniffCharset(bytes, contentType)): string {
  return decodeBytes(bytes, encoding);
}

/** WHATWG's windows-1252 for the bytes 0x80–0x9F (its index); every other byte is Latin-1's. */
const WINDOWS_1252_80_9F = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d, 0x17d, 0x8f,
  0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a, 0x153, 0x9d, 0x17e, 0x178,
];

/**
 * `bytes` as text in `encoding` (a WHATWG name), as a browser decodes them. Node 20.18.3 and later
 * decode windows-1252 — also the encoding of every `iso-8859-1` and `us-ascii` label — as Latin-1
 * in one call (nodejs/node#60888): its 0x80–0x9F, the curly quotes, € and œ of older Western pages,
 * came out as C1 control characters, and a link to /c\x9Cur was fetched as /c%C2%9Cur. Those
 * characters are read again from the standard's table; a correct decoder leaves none but the five
 * bytes the table maps to themselves.
 */
export function decodeBytes(bytes: Uint8Array, encoding: string): string {
  const text = new TextDecoder(encoding).decode(bytes);
  if (encoding !== 'windows-1252') return text;
  return text.replace(/[\u0080-\u009f]/g, (c) => String.fromCharCode(WINDOWS_1252_80_9F[c.charCodeAt(0) - 0x80]));
}
