/**
 * A page as the AAH sees it: its DOM, its URL, the base URL its links resolve against, and its
 * response headers with lower-cased names. Built once per page and handed to every rule.
 */
import { isXhtml, parseHtml } from './html-dom';
import { XPathEvaluator, nodeText } from './xpath-eval';
import type { MarkupSummary } from '../extract';
import { baseHrefUrl, isInPageReference, resolveReference, type QueryHandling } from '../url';

/**
 * What the crawler hands to `analysePage`: an HTML page (call it for HTML responses only), as
 * `html` or as a `dom` from {@link parseHtml} (parse once, share with other stages). Any W3C
 * DOM works as `dom`, but only parseHtml's keeps XPath linear in the number of siblings, and
 * counts the node visits that let the time budget stop an evaluation midway.
 */
export interface PageInput {
  url: string;
  /** Host the detection cache is keyed on; defaults to the URL's host. */
  host?: string;
  status?: number;
  headers?: Record<string, string | string[] | undefined>;
  html?: string;
  dom?: Document;
  /**
   * The markup's names and attribute values, when the caller has them (the crawler's link
   * extraction does): a host still looking for its application skips the DOM on pages that rule
   * every application out (./markup-check.ts).
   */
  markup?: MarkupSummary;
  /**
   * The page's encoding when its URL queries are not UTF-8 (url/query-encoding.ts queryEncodingOf of
   * the charset the page was decoded with): its links' queries are encoded in it, as the link
   * extraction and browsers encode them. Unset for UTF-8.
   */
  encoding?: string;
  /**
   * The crawl's query handling, with which an in-page anchor (`#x`) under a `<base>` naming this page
   * once canonical is told from a link to another document, as the link extraction tells it. 'keep'
   * when unset.
   */
  queryHandling?: QueryHandling;
}

export interface PageContext {
  url: string;
  host: string;
  readonly baseUrl: string;
  /** PageInput.encoding: the links' queries are encoded in it. */
  encoding?: string;
  /** PageInput.queryHandling. */
  queryHandling?: QueryHandling;
  headers: Record<string, string>;
  dom: Document;
  ev: XPathEvaluator;
}

/** Builds the context; throws on an invalid page URL (a crawler bug, not a page problem). */
export function createPageContext(page: PageInput, ev: XPathEvaluator): PageContext {
  const url = new URL(page.url);
  const headers = normaliseHeaders(page.headers);
  const dom = page.dom ?? parseHtml(page.html ?? '', { xhtml: isXhtml(headers['content-type']) });
  let baseUrl: string | undefined;
  return {
    url: url.href,
    host: page.host ?? url.host,
    // Lazy: only pages of a detected application resolve links.
    get baseUrl() {
      return (baseUrl ??= baseUrlOf(dom, url.href, page.encoding));
    },
    // Read when a link is resolved, as the base is: the caller may work it out only then.
    get encoding() {
      return page.encoding;
    },
    queryHandling: page.queryHandling,
    headers,
    dom,
    ev,
  };
}

/** Response headers with lower-case names, repeated ones joined by newlines. */
export function normaliseHeaders(raw: PageInput['headers']): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [k, v] of Object.entries(raw ?? {})) {
    if (v !== undefined) headers[k.toLowerCase()] = Array.isArray(v) ? v.join('\n') : v;
  }
  return headers;
}

// HTML: the first <base> with an href wins, resolved against the document URL as the link
// extraction resolves it. A plain walk in document order: it stops in <head> on real pages, where
// an XPath would visit every node.
function baseUrlOf(dom: Document, url: string, encoding: string | undefined): string {
  const stack: Node[] = [dom];
  while (stack.length) {
    const n = stack.pop()!;
    if (n.nodeType === 1 && n.nodeName.toLowerCase() === 'base') {
      const href = (n as Element).getAttribute('href');
      if (href) return baseHrefUrl(href, url, encoding) ?? url;
    }
    const kids: Node[] = [];
    for (let c = n.firstChild; c; c = c.nextSibling) kids.push(c);
    for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  }
  return url;
}

/**
 * The canonical http(s) URL a selected node points to, as the link extraction resolves the same
 * reference (url/canonicalize.ts resolveReference: only ASCII whitespace trimmed, the query in the
 * page's encoding), so a rule's verdict names the URL the crawl found: an attribute node's value
 * (`//a/@href`), or an element's `href` (`//a`, `//area`, `//link`). Undefined when none, and for an
 * in-page anchor (`#comments`), which the link extraction drops too: it named the page itself, which
 * a follow rule then added to the page's links and a do-not-follow rule excluded.
 */
export function linkTarget(node: Node, page: Pick<PageContext, 'url' | 'baseUrl' | 'encoding' | 'queryHandling'>): string | undefined {
  let raw: string | null = null;
  if (node.nodeType === 2) raw = (node as Attr).value;
  else if (node.nodeType === 1) raw = (node as Element).getAttribute('href');
  if (!raw || isInPageReference(raw, page.baseUrl, page.url, { queryHandling: page.queryHandling })) return undefined;
  return resolveReference(raw, page.baseUrl, { encoding: page.encoding }) || undefined;
}

export { nodeText };
