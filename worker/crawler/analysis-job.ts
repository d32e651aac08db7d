import type { PageLink } from '../analyze';
import type { HtmlPage } from './focus-scorer';

/**
 * A page as it crosses to the analysis thread. postMessage clones objects field by field: a 43 KB
 * page's 52 link objects and 52 resolutions cost twice as much as the HTML. As a few strings and one
 * typed array the whole job crosses in about half the CPU time (~40 µs instead of ~85 µs, both
 * threads together). Canonical URLs never hold a line break, so lines separate them.
 */
export interface PackedPage {
  url: string;
  html: string;
  /** One line per link: its URL. */
  urls: string;
  /** One line per link: its kind ('' when it has none). */
  kinds: string;
  /** Per link, the AAH's bonus; NaN where it gave none. Absent when no link has one. */
  bonuses?: Float64Array;
  /** [index, anchorText, context] of the links that carry texts (the crawl's own pass collects none). */
  texts?: [number, string, string][];
  /** The resolutions (HtmlPage.resolved) whose reference holds no line break: references, then results ('' for null). */
  resolvedFrom?: string;
  resolvedTo?: string;
  /** HtmlPage.encoding. */
  encoding?: string;
}

export function packPage(page: HtmlPage): PackedPage {
  const { links } = page;
  const packed: PackedPage = { url: page.url, html: page.html, urls: lines(links, (l) => l.url), kinds: lines(links, (l) => l.kind ?? '') };
  if (page.encoding) packed.encoding = page.encoding;
  if (links.some((l) => l.aahBonus !== undefined)) packed.bonuses = Float64Array.from(links, (l) => l.aahBonus ?? NaN);
  const texts: [number, string, string][] = [];
  links.forEach((l, i) => {
    if (l.anchorText || l.context) texts.push([i, l.anchorText ?? '', l.context ?? '']);
  });
  if (texts.length) packed.texts = texts;
  if (page.resolved?.size) {
    const from: string[] = [];
    const to: string[] = [];
    for (const [raw, url] of page.resolved) {
      if (raw.includes('\n')) continue; // resolved again on the other side
      from.push(raw);
      to.push(url ?? '');
    }
    if (from.length) {
      packed.resolvedFrom = from.join('\n');
      packed.resolvedTo = to.join('\n');
    }
  }
  return packed;
}

export function unpackPage(packed: PackedPage): HtmlPage {
  const urls = split(packed.urls);
  const kinds = split(packed.kinds);
  const links: PageLink[] = urls.map((url, i) => {
    const link: PageLink = { url, anchorText: '', context: '' };
    if (kinds[i]) link.kind = kinds[i];
    const bonus = packed.bonuses?.[i];
    if (bonus !== undefined && !Number.isNaN(bonus)) link.aahBonus = bonus;
    return link;
  });
  for (const [i, anchorText, context] of packed.texts ?? []) Object.assign(links[i]!, { anchorText, context });
  const page: HtmlPage = { url: packed.url, html: packed.html, links };
  if (packed.encoding) page.encoding = packed.encoding;
  if (packed.resolvedFrom !== undefined && packed.resolvedTo !== undefined) {
    const from = packed.resolvedFrom.split('\n');
    const to = packed.resolvedTo.split('\n');
    page.resolved = new Map(from.map((raw, i) => [raw, to[i] || null]));
  }
  return page;
}

/** The buffers a packed page can hand over rather than copy. */
export function transferablesOf(packed: PackedPage): ArrayBuffer[] {
  return packed.bonuses ? [packed.bonuses.buffer as ArrayBuffer] : [];
}

function lines(links: readonly PageLink[], field: (l: PageLink) => string): string {
  return links.map(field).join('\n');
}

/** Inverse of lines(): no links make '', which is no line rather than one empty line. */
function split(s: string): string[] {
  return s === '' ? [] : s.split('\n');
}
