import { trimAsciiWhitespace } from '../url';
import type { LinkKind } from './types';

/**
 * Which attributes of which elements hold URLs, and what kind of link each is. A table, so the
 * list of link sources is read in one place (`<a>` and `<link>`, whose kind depends on other
 * attributes, are decided in `linkRelKind` and the extractor).
 */
export interface AttrRule {
  attr: string;
  kind: LinkKind;
  /** A srcset-style list of candidates rather than one URL. */
  srcset?: boolean;
  /** Read only inside `<svg>`: the attribute means nothing on the HTML element of that name. */
  inSvg?: boolean;
  /** Read only when the element has no such attribute (SVG 2: `href` wins over `xlink:href`; an iframe's `srcdoc` over its `src`). */
  unless?: string;
}

/**
 * SVG's references: `href`, else the older `xlink:href` (htmlparser2 lower-cases attribute names:
 * `XLink:Href` arrives as `xlink:href`). `<use href="sprite.svg#icon">` needs the sprite.
 */
const SVG_HREF: readonly AttrRule[] = [
  { attr: 'href', kind: 'requisite', inSvg: true },
  { attr: 'xlink:href', kind: 'requisite', inSvg: true, unless: 'href' },
];

const RULES: Record<string, readonly AttrRule[]> = {
  a: [{ attr: 'href', kind: 'navigation' }],
  area: [{ attr: 'href', kind: 'navigation' }],
  img: [
    { attr: 'src', kind: 'requisite' },
    { attr: 'srcset', kind: 'requisite', srcset: true },
    // Lazy-loading scripts swap these in: without them the archived page has no images.
    { attr: 'data-src', kind: 'requisite' },
    { attr: 'data-srcset', kind: 'requisite', srcset: true },
  ],
  source: [
    { attr: 'src', kind: 'requisite' },
    { attr: 'srcset', kind: 'requisite', srcset: true },
  ],
  script: [{ attr: 'src', kind: 'requisite' }, ...SVG_HREF],
  // Inside <svg>, htmlparser2 gives SVG elements their SVG spelling (`<FEIMAGE>` is `feImage`),
  // as an HTML parser adjusts them; outside one they are lower case, and no SVG elements.
  use: SVG_HREF,
  image: SVG_HREF,
  feImage: SVG_HREF,
  // Frames are pages in their own right, but the page is incomplete without them.
  // A browser loads the srcdoc document when the attribute is there, even empty, and never the src (HTML standard, "process the iframe attributes").
  iframe: [{ attr: 'src', kind: 'requisite', unless: 'srcdoc' }],
  frame: [{ attr: 'src', kind: 'requisite' }],
  embed: [{ attr: 'src', kind: 'requisite' }],
  object: [{ attr: 'data', kind: 'requisite' }],
  video: [
    { attr: 'src', kind: 'requisite' },
    { attr: 'poster', kind: 'requisite' },
  ],
  audio: [{ attr: 'src', kind: 'requisite' }],
  track: [{ attr: 'src', kind: 'requisite' }],
  input: [{ attr: 'src', kind: 'requisite' }],
  body: [{ attr: 'background', kind: 'requisite' }],
  table: [{ attr: 'background', kind: 'requisite' }],
  td: [{ attr: 'background', kind: 'requisite' }],
  th: [{ attr: 'background', kind: 'requisite' }],
};

/** A Map, not an object: tag names such as `constructor` must not reach Object.prototype. */
export const ELEMENT_RULES: ReadonlyMap<string, readonly AttrRule[]> = new Map(Object.entries(RULES));

const REQUISITE_RELS = new Set(['stylesheet', 'icon', 'apple-touch-icon', 'apple-touch-icon-precomposed', 'mask-icon', 'manifest', 'preload', 'modulepreload', 'prefetch']);
// Hints about origins, not resources: nothing to fetch.
const IGNORED_RELS = new Set(['dns-prefetch', 'preconnect']);
const FEED_TYPES = /^(application\/(rss|atom|feed)\+(xml|json)|application\/rss|application\/atom)/i;

/** Whether a `<link>`'s rel names a web app manifest. */
export function isManifestRel(rel: string | undefined): boolean {
  return (rel ?? '').toLowerCase().split(/\s+/).includes('manifest');
}

/** The kind of a `<link rel=… type=… href>`, or null for hints that name no resource. */
export function linkRelKind(rel: string | undefined, type: string | undefined): LinkKind | null {
  const rels = (rel ?? '').toLowerCase().split(/\s+/).filter(Boolean);
  if (rels.some((r) => IGNORED_RELS.has(r))) return null;
  if (rels.includes('alternate') && type && FEED_TYPES.test(type.trim())) return 'feed';
  if (rels.includes('sitemap')) return 'sitemap';
  if (rels.some((r) => REQUISITE_RELS.has(r))) return 'requisite';
  return 'navigation';
}

/** The delay and separator of a refresh (`5; `, `0,`, `3 `), then an optional `url =`. */
const REFRESH_PREFIX = /^[\t\n\f\r ]*[\d.]*(?:[\t\n\f\r ]*[;,]|[\t\n\f\r ]|$)[\t\n\f\r ]*(?:url[\t\n\f\r ]*=[\t\n\f\r ]*)?/i;

/**
 * The URL of a meta refresh's content (`5; url=/next`, `0;URL='x'`), or null when it names none
 * (`5`, `0; url=`: a reload of the page itself). Read as the HTML standard's declarative refresh
 * steps read it: a quoted URL ends at its closing quote (`'/next'; junk` is `/next`), an unquoted
 * one runs to the end, and content that does not start with a delay (`url=/next`, `5x; url=/y`)
 * is no refresh, in a browser or here.
 */
export function metaRefreshUrl(content: string): string | null {
  const prefix = REFRESH_PREFIX.exec(content);
  if (!prefix) return null;
  let url = content.slice(prefix[0].length);
  const quote = url[0];
  if (quote === '"' || quote === "'") {
    const end = url.indexOf(quote, 1);
    url = url.slice(1, end < 0 ? undefined : end);
  }
  return trimAsciiWhitespace(url) || null;
}

/** Block elements whose text is the context of the links inside them. */
export const CONTEXT_BLOCKS = new Set(['p', 'li', 'td', 'th', 'div', 'section', 'article', 'dd', 'dt', 'blockquote', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'figcaption', 'caption', 'pre', 'address']);

/** Elements that break words apart in the visible text (their boundaries become spaces). */
export const BREAKING = new Set([...CONTEXT_BLOCKS, 'br', 'hr', 'tr', 'table', 'ul', 'ol', 'dl', 'main', 'nav', 'header', 'footer', 'aside', 'form', 'figure', 'option', 'button', 'label', 'img', 'title', 'body', 'html', 'head']);

/** Elements whose text is not visible page text. */
export const HIDDEN_TEXT = new Set(['script', 'style', 'template', 'title', 'noscript', 'svg', 'textarea', 'select']);
