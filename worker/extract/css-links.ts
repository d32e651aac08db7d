import { canonicalize, type QueryHandling } from '../url';
import type { ExtractedLink } from './types';

/**
 * URLs in CSS: `url(...)` (quoted or not) and `@import "..."`, with CSS escapes undone and
 * comments skipped. A scanner over the text rather than a CSS parser: link extraction needs only
 * these two forms, and a regex pass is fast enough for the hot path.
 */

/** A raw reference found in CSS, before resolution. */
export interface CssReference {
  /** As written (escapes undone), not yet resolved. */
  url: string;
  /** 'import' for `@import`, 'url' for `url(...)` anywhere else. */
  via: 'import' | 'url';
}

// One alternation so comments are consumed before anything inside them can match. No two
// branches of a repetition can match the same text (a backslash only ever starts an escape),
// so a hostile stylesheet cannot make the regex backtrack exponentially. An unquoted url() holds
// no whitespace, quote or parenthesis, as in CSS Syntax (anything else is a bad url): with spaces
// allowed inside, the spaces around it and in it could be split in every way, and "url(" followed
// by 2,000 spaces took 2.3 s (8,000: 150 s); with "(" allowed, every "url(" of "url(url(url(…"
// scanned to the end. A hex escape there may end in one whitespace character (\66 oo.png): its
// digits are read one way only (six, or fewer before a non-digit), so escapes cannot overlap.
// 1 comment | 2,3 @import "string" | 4 "@import " before url( | 5,6 url("string") | 7 url(bare)
const CSS_REFS =
  /\/\*[\s\S]*?(?:\*\/|$)|@import\s*(["'])((?:\\[\s\S]|(?!\1)[^\\])*)\1|(@import\s*)?url\(\s*(?:(["'])((?:\\[\s\S]|(?!\4)[^\\])*)\4|((?:\\(?:[0-9a-fA-F]{6}[ \t\n\r\f]?|[0-9a-fA-F]{1,5}(?![0-9a-fA-F])[ \t\n\r\f]?|[^0-9a-fA-F])|[^()"'\\\s])+))\s*\)/gi;

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

/** Every url(...) and @import reference in a stylesheet or style attribute, in order. */
export function cssReferences(css: string): CssReference[] {
  const refs: CssReference[] = [];
  if (!/url\(|@import/i.test(css)) return refs;
  CSS_REFS.lastIndex = 0;
  for (let m = CSS_REFS.exec(css); m; m = CSS_REFS.exec(css)) {
    if (m[0].startsWith('/*')) continue;
    if (m[2] !== undefined) refs.push({ url: unescapeCss(m[2]).trim(), via: 'import' });
    else {
      const raw = m[5] ?? m[6] ?? '';
      refs.push({ url: unescapeCss(raw).trim(), via: m[3] ? 'import' : 'url' });
    }
  }
  return refs.filter((r) => r.url.length > 0);
}

/**
 * The links of a stylesheet (or `<style>` block, or style attribute) resolved against `baseUrl`;
 * all are requisites. `source` is `${sourcePrefix}@import` or `${sourcePrefix}@url`.
 */
export function extractCssLinks(
  css: string,
  baseUrl: string,
  opts: { sourcePrefix?: string; queryHandling?: QueryHandling } = {},
): ExtractedLink[] {
  const prefix = opts.sourcePrefix ?? 'css';
  const links: ExtractedLink[] = [];
  for (const ref of cssReferences(css)) {
    const url = canonicalize(ref.url, baseUrl, opts);
    if (url) links.push({ url, kind: 'requisite', source: `${prefix}@${ref.via}`, anchorText: '', context: '' });
  }
  return links;
}
