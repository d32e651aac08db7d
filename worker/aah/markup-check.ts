/**
 * Detection ruled out from the page's markup summary, before any DOM is built: the link
 * extractor already saw every element, attribute name and attribute value (worker/extract,
 * MarkupSummary). When no application of the knowledge base could reach its threshold even if
 * every signal that might match did, the page has no application and the AAH does not parse it —
 * on a site without a known application that parse was most of the AAH's cost on a host's first
 * pages.
 *
 * A signal "might match" when the page holds what its XPath needs (./xpath-prefilter.ts): element
 * and attribute names and attribute values from the summary (decoded as the DOM's are); strings in
 * text from the page's source, as written or with its character references decoded.
 */
import { decodeHTML } from 'entities';
import type { KnowledgeBase, Signal } from './kb-types';
import { mayMatch, type Needle } from './xpath-prefilter';
import type { XPathEvaluator } from './xpath-eval';

/** The names and attribute values a page's markup is made of (worker/extract's MarkupSummary). */
export interface MarkupSummary {
  elementNames: ReadonlySet<string>;
  attributeNames: ReadonlySet<string>;
  attributeValues: string;
}

// The DOM builder always makes an html root element, whatever the source says (html-dom.ts).
const ALWAYS_THERE = 'ehtml';

/** Whether a needle is in the page, from its summary and (for text) its source. */
export function markupNeedles(markup: MarkupSummary, source: () => string): (needle: Needle) => boolean {
  const found = new Map<Needle, boolean>();
  let decoded: string | undefined;
  const text = (value: string): boolean => {
    const html = source();
    if (html.includes(value)) return true;
    return html.includes('&') && (decoded ??= decodeHTML(html)).includes(value);
  };
  return (needle) => {
    let hit = found.get(needle);
    if (hit !== undefined) return hit;
    const value = needle.slice(1);
    switch (needle[0]) {
      case 'e': hit = needle === ALWAYS_THERE || markup.elementNames.has(value); break;
      case 'n': hit = markup.attributeNames.has(value); break;
      case 'a': hit = markup.attributeValues.includes(value); break;
      default: hit = markup.attributeValues.includes(value) || text(value);
    }
    found.set(needle, hit);
    return hit;
  };
}

/**
 * False when no application can be detected on the page: for every application, the weights of
 * the signals that might match stay under its threshold.
 */
export function markupMayDetect(
  kb: KnowledgeBase, ev: XPathEvaluator,
  page: { markup: MarkupSummary; source: () => string; url: string; headers: Record<string, string> },
): boolean {
  const occurs = markupNeedles(page.markup, page.source);
  const mightMatch = (s: Signal): boolean => {
    switch (s.kind) {
      case 'xpath':
        return mayMatch(ev.required(s.expression), occurs);
      case 'url':
        return s.pattern.test(page.url);
      case 'header': {
        const value = page.headers[s.name];
        return value !== undefined && s.pattern.test(value);
      }
    }
  };
  return kb.applications.some((app) => {
    let score = 0;
    for (const s of app.detection.signals) if (mightMatch(s)) score += s.weight;
    return score >= app.detection.threshold;
  });
}
