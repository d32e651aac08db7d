/**
 * Character encoding of a response body, in the order the HTML standard sniffs it: byte order
 * mark (it cannot lie), the HTTP Content-Type charset, then a declaration near the start of the
 * document (`<meta charset>`, `<meta http-equiv=Content-Type>`, `<?xml encoding?>`). Without any
 * of those: UTF-8 when the bytes are valid UTF-8 with non-ASCII in them (most of today's
 * undeclared pages), else windows-1252 as WHATWG prescribes. Names are the WHATWG ones that
 * `TextDecoder` reports; unknown labels are ignored, never fatal.
 */

/** How many leading bytes the declaration prescan reads (the standard says 1024; pages overrun it). */
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

const META_CHARSET = /<meta\b[^>]*?\bcharset\s*=\s*["']?\s*([^\s"'/>;]+)/gi;
const XML_DECL = /^<\?xml\b[^>]*?\bencoding\s*=\s*["']([^"']+)["']/;

/**
 * A charset declared in the document's first bytes, read as ASCII. A document that could be read
 * as ASCII to find the declaration is not UTF-16 (HTML standard), whatever it says.
 */
function declaredEncoding(bytes: Uint8Array): string | null {
  const head = Buffer.from(bytes.buffer, bytes.byteOffset, Math.min(bytes.length, PRESCAN_BYTES)).toString('latin1');
  const xml = XML_DECL.exec(head);
  if (xml) return asciiReadable(encodingForLabel(xml[1]));
  // Both `<meta charset=x>` and `<meta http-equiv content="text/html; charset=x">` have
  // "charset=" inside the tag; the first one that names a known encoding wins.
  META_CHARSET.lastIndex = 0;
  for (let m = META_CHARSET.exec(head); m; m = META_CHARSET.exec(head)) {
    const name = encodingForLabel(m[1]);
    if (name) return asciiReadable(name);
  }
  return null;
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
  return new TextDecoder(encoding).decode(bytes);
}
