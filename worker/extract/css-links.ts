import { canonicalize, trimAsciiWhitespace, type QueryHandling } from '../url';
import type { ExtractedLink } from './types';

/**
 * URLs in CSS: `url(...)` (quoted or not), `@import "..."` and the strings of `image-set()` and
 * `-webkit-image-set()`, with CSS escapes undone and comments skipped (and an `@namespace`'s URL,
 * which names no resource). A scanner over the text rather than a CSS parser: link extraction
 * needs only these forms, and a regex pass is fast enough for the hot path.
 */

/** A raw reference found in CSS, before resolution. */
export interface CssReference {
  /** As written (escapes undone), not yet resolved. */
  url: string;
  /** 'import' for `@import`, 'image-set' for a string in `image-set(...)`, 'url' for `url(...)` anywhere else. */
  via: 'import' | 'url' | 'image-set';
}

// The scan is linear on any input. CSS_REFS finds the next reference; the target of an @import
// and the arguments of an image-set() are then read token by token with sticky patterns, and the
// scan goes on after what they read, so nothing is read again from a later start. A failed attempt
// reads only to where any other attempt of its kind begun before would stop too (an unquoted
// url() to its first space, quote or parenthesis; a quoted one to its closing quote; a string to
// its closing quote or a newline), so each character is read by a bounded number of attempts.
// bench/hostile-input.ts measures the image-set() and @import shapes with the others.
//
// No two branches of a repetition can match the same text (a backslash only ever starts an
// escape), so a hostile stylesheet cannot make a pattern backtrack exponentially. An unquoted url()
// holds no whitespace, quote or parenthesis, as in CSS Syntax (anything else is a bad url): with
// spaces allowed inside, the spaces around it and in it could be split in every way, and "url("
// followed by 2,000 spaces took 2.3 s (8,000: 150 s); with "(" allowed, every "url(" of
// "url(url(url(…" scanned to the end. A hex escape there may end in one whitespace character
// (\66 oo.png): its digits are read one way only (six, or fewer before a non-digit), so escapes
// cannot overlap. A quoted url() that fails (no ")" after its string) has read up to its closing
// quote or a newline, which ends any other "url(" attempt begun before it: attempts do not overlap.
//
// The end of the text closes a url() as CSS Syntax has it (a parse error, but the URL stands, and
// browsers load it): "url(a.png" and "url('a.png" at the very end name a.png, as "@import 'x.css"
// does. Its string is read as CSS strings are, to its quote or the end, a newline first making it
// a bad string, which names nothing: a quote left open does not take the rest of the stylesheet.
const URL_TOKEN = String.raw`url\(\s*(?:(["'])((?:\\[\s\S]|(?!\1)[^\\\n\r\f])*)(?:\1\s*(?:\)|$)|\\?$)|((?:\\(?:[0-9a-fA-F]{6}[ \t\n\r\f]?|[0-9a-fA-F]{1,5}(?![0-9a-fA-F])[ \t\n\r\f]?|[^0-9a-fA-F])|[^()"'\\\s])+)\s*(?:\)|$))`;
/** A comment, closed or running to the end of the text. */
const COMMENT = String.raw`\/\*[\s\S]*?(?:\*\/|$)`;
// A string as CSS Syntax reads one: to its closing quote, or to the end of the text (an
// unterminated string at EOF is still a string; a lone backslash there is dropped). A newline
// first makes it a bad string, which names nothing: the pattern fails there.
const STRING = String.raw`"((?:\\[\s\S]|[^"\\\n\r\f])*)(?:"|\\?$)|'((?:\\[\s\S]|[^'\\\n\r\f])*)(?:'|\\?$)`;

// One alternation so comments are consumed before anything inside them can match.
// Groups: 1,2 url("string") | 3 url(bare).
const CSS_REFS = new RegExp(`${URL_TOKEN}|${COMMENT}|@import|@namespace|(?<![\\w-])(?:-webkit-)?image-set\\(`, 'gi');
// After @import: whitespace and comments, one at a time (a pattern repeating both could split
// "/* a */ /* b */" in every way when what follows fails), then its URL or string.
const IMPORT_GAP = new RegExp(`\\s+|${COMMENT}`, 'y');
// Groups: 1,2 url("string") | 3 url(bare) | 4 "string" | 5 'string'.
const IMPORT_TARGET = new RegExp(`${URL_TOKEN}|${STRING}`, 'iy');
/** The prefix an @namespace may declare before its URL: an identifier, escapes included. */
const NAMESPACE_PREFIX = /(?:\\[\s\S]|[\w-])+/y;
// Inside image-set(): a url(), a string, a comment, a name (with its "(" if it opens a function,
// as type( does), or one other character. A name is read whole, so a long one is not read again
// from each of its characters. Groups as IMPORT_TARGET.
const IMAGE_SET_TOKEN = new RegExp(`${URL_TOKEN}|${STRING}|${COMMENT}|[\\w-]+\\(?|[^]`, 'iy');

const CSS_ESCAPE = /\\(?:([0-9a-fA-F]{1,6})[ \t\n\r\f]?|(\r\n|[\n\r\f])|([\s\S]))/g;

/** Undoes CSS escapes: `\41 ` → 'A', `\(` → '(', an escaped newline (string continuation) → ''. */
export function unescapeCss(s: string): string {
  if (!s.includes('\\')) return s;
  return s.replace(CSS_ESCAPE, (_, hex: string | undefined, newline: string | undefined, ch: string | undefined) => {
    if (hex) {
      const cp = parseInt(hex, 16);
      return cp === 0 || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff) ? '\ufffd' : String.fromCodePoint(cp);
    }
    if (newline) return '';
    return ch ?? '';
  });
}

/** Every url(...), @import and image-set() reference in a stylesheet or style attribute, in order. */
export function cssReferences(css: string): CssReference[] {
  const refs: CssReference[] = [];
  if (!/url\(|@import|image-set\(/i.test(css)) return refs;
  const push = (raw: string, via: CssReference['via']) => {
    const url = trimAsciiWhitespace(unescapeCss(raw));
    if (url) refs.push({ url, via });
  };
  CSS_REFS.lastIndex = 0;
  for (let m = CSS_REFS.exec(css); m; m = CSS_REFS.exec(css)) {
    const token = m[0];
    if (token.startsWith('/*')) continue;
    if (token[0] === '@') CSS_REFS.lastIndex = token.length === 7 ? readImport(css, CSS_REFS.lastIndex, push) : skipNamespace(css, CSS_REFS.lastIndex);
    else if (token.endsWith('(')) CSS_REFS.lastIndex = readImageSet(css, CSS_REFS.lastIndex, push);
    else push(m[2] ?? m[3] ?? '', 'url');
  }
  return refs;
}

/** Where the spaces and comments starting at `at` end. */
function afterGap(css: string, at: number): number {
  IMPORT_GAP.lastIndex = at;
  while (IMPORT_GAP.test(css)) at = IMPORT_GAP.lastIndex;
  return at;
}

/** The URL or string after an `@import` at `at`, if one comes after spaces and comments; where the scan goes on. */
function readImport(css: string, at: number, push: (raw: string, via: CssReference['via']) => void): number {
  at = afterGap(css, at);
  IMPORT_TARGET.lastIndex = at;
  const m = IMPORT_TARGET.exec(css);
  if (!m) return at;
  push(m[2] ?? m[3] ?? m[4] ?? m[5] ?? '', 'import');
  return IMPORT_TARGET.lastIndex;
}

/**
 * Skips the URL of an `@namespace [prefix] url(…)` whose arguments start at `at`: it names an XML
 * namespace, not a resource, and no browser fetches it (`url(http://www.w3.org/2000/svg)` was
 * queued as a requisite, off-site). Returns where the scan goes on: after the URL, else after
 * the prefix read (so a long one, "\@namespace" repeated inside it, is not read again), else after
 * the spaces and comments.
 */
function skipNamespace(css: string, at: number): number {
  at = afterGap(css, at);
  IMPORT_TARGET.lastIndex = at;
  if (IMPORT_TARGET.test(css)) return IMPORT_TARGET.lastIndex;
  NAMESPACE_PREFIX.lastIndex = at;
  if (!NAMESPACE_PREFIX.test(css)) return at;
  const afterPrefix = NAMESPACE_PREFIX.lastIndex;
  IMPORT_TARGET.lastIndex = afterGap(css, afterPrefix);
  return IMPORT_TARGET.test(css) ? IMPORT_TARGET.lastIndex : afterPrefix;
}

/**
 * The options of an `image-set(` whose arguments start at `at`: its own strings (not those of a
 * function inside it, such as type("image/avif")) and every url(). It ends at its ")" or, as a
 * declaration would, at a ";", "{" or "}" (an unclosed image-set does not take the rest of the
 * stylesheet's strings for images). Returns where the scan goes on.
 */
function readImageSet(css: string, at: number, push: (raw: string, via: CssReference['via']) => void): number {
  let depth = 1;
  IMAGE_SET_TOKEN.lastIndex = at;
  for (let m = IMAGE_SET_TOKEN.exec(css); m; m = IMAGE_SET_TOKEN.exec(css)) {
    const token = m[0];
    if (m[2] !== undefined || m[3] !== undefined) push(m[2] ?? m[3], 'url');
    else if (m[4] !== undefined || m[5] !== undefined) {
      if (depth === 1) push(m[4] ?? m[5], 'image-set');
    } else if (token.endsWith('(')) depth++;
    else if (token === ')') {
      if (--depth === 0) return IMAGE_SET_TOKEN.lastIndex;
    } else if (token === ';' || token === '{' || token === '}') return IMAGE_SET_TOKEN.lastIndex - 1;
  }
  return css.length;
}

/**
 * The links of a stylesheet (or `<style>` block, or style attribute) resolved against `baseUrl`;
 * all are requisites. `source` is `${sourcePrefix}@import`, `${sourcePrefix}@url` or
 * `${sourcePrefix}@image-set`.
 */
export function extractCssLinks(
  css: string,
  baseUrl: string,
  opts: { sourcePrefix?: string; queryHandling?: QueryHandling; encoding?: string } = {},
): ExtractedLink[] {
  const prefix = opts.sourcePrefix ?? 'css';
  const links: ExtractedLink[] = [];
  for (const ref of cssReferences(css)) {
    // `url(#m)` names an element of the document using the style (CSS Values 4): nothing to fetch.
    if (ref.url.startsWith('#')) continue;
    const url = canonicalize(ref.url, baseUrl, opts);
    if (url) links.push({ url, kind: 'requisite', source: `${prefix}@${ref.via}`, anchorText: '', context: '' });
  }
  return links;
}
