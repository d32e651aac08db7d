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
import { decodeTextRefs } from '../extract/char-refs';
import type { MarkupSummary } from '../extract';
import { scoreOf, signalMatchesWith } from './detection';
import type { KnowledgeBase, Signal } from './kb-types';
import { mayMatch, needleCheck, type DocumentIndex } from './xpath-prefilter';
import type { XPathEvaluator } from './xpath-eval';

/**
 * The summary as a document index: the DOM builder always adds an html root element (html-dom.ts);
 * text comes from the source, read only if a needle asks for it.
 */
export function markupIndex(markup: MarkupSummary, source: () => string): DocumentIndex {
  let values: string | undefined;
  return {
    attributeValues: markup.attributeValues,
    elementNames: new Set([...markup.elementNames, 'html']),
    attributeNames: markup.attributeNames,
    get values() {
      if (values === undefined) {
        const raw = source();
        const decoded = decodeTextRefs(raw);
        values = `${markup.attributeValues}\0${raw}${decoded === raw ? '' : `\0${decoded}`}`;
      }
      return values;
    },
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
  const occurs = needleCheck(markupIndex(page.markup, page.source));
  const mightMatch = (s: Signal) => signalMatchesWith(s, page.url, page.headers, (expression) => mayMatch(ev.required(expression), occurs));
  return kb.applications.some((app) => scoreOf(app, mightMatch) >= app.detection.threshold);
}
