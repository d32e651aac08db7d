/**
 * Lenient HTML → DOM for XPath 1.0 (bench/aah-xpath.ts chose this pair: htmlparser2 events build a
 * {@link LeanDocument}, queried by the `xpath` package).
 *
 * Real-world tag soup is the norm on forums and blogs, so the tokenizer is htmlparser2 (implied
 * end tags, void elements, unquoted attributes, entities) and the tree is always one `html`
 * element under the document, whatever the page does before or after its `<html>` tag. Element
 * and attribute names are lower-cased and carry no namespace, so knowledge-base authors write
 * `//div[@class='post']` exactly as they would in a browser's HTML document.
 */
import { boundedParser } from '../extract/bounded-parser';
import { LeanDocument, LeanElement, LeanText } from './lean-dom';

/** The small part of the W3C DOM the builder needs; xmldom and slimdom both provide it. */
export interface DomFactory<D> {
  document: D;
  createElement(name: string): unknown;
  createText(text: string): unknown;
  setAttribute(element: unknown, name: string, value: string): void;
  append(parent: unknown, child: unknown): void;
  root(): unknown;
}

// Deeper pages exist only to attack recursive evaluators; no real template nests this far.
const MAX_DEPTH = 256;

const BLOCK_CONTAINERS = new Set([
  'html', 'head', 'body', 'div', 'ul', 'ol', 'dl', 'table', 'thead', 'tbody', 'tfoot', 'tr',
  'section', 'article', 'nav', 'header', 'footer', 'main', 'aside', 'form', 'select', 'fieldset',
]);

/** How to read the markup. */
export interface HtmlParseOptions {
  /** The page was served as XHTML (application/xhtml+xml): self-closed elements end there, CDATA sections are text. */
  xhtml?: boolean;
}

/** Whether a Content-Type names XHTML, which browsers parse as XML. */
export function isXhtml(contentType: string | undefined): boolean {
  return /^\s*application\/xhtml\+xml\s*(;|$)/i.test(contentType ?? '');
}

/**
 * Feeds `html` through htmlparser2 into `factory`. Nesting deeper than 256 open elements is
 * flattened (children attach to the 256th) so a hostile page cannot blow the evaluator's stack.
 */
export function buildDom<D>(html: string, factory: DomFactory<D>, options: HtmlParseOptions = {}): D {
  const root = factory.root();
  const stack: unknown[] = [root];
  const names: string[] = ['html'];
  let text = '';
  // The page's body once opened, with its attribute names: a later <body> or <head> makes no element.
  let body: { element: unknown; attributes: Set<string> } | undefined;
  const flush = (): void => {
    // Whitespace-only text between block elements is a fifth of a page's nodes and never part of
    // a value; dropping it makes every `//` step cheaper. Between inline elements it separates
    // words ("<b>Fri</b> <b>Mar</b>"), so there it stays.
    if (text && (/\S/.test(text) || !BLOCK_CONTAINERS.has(names[names.length - 1]))) {
      factory.append(stack[stack.length - 1], factory.createText(text));
    }
    text = '';
  };
  const parser = boundedParser(
    {
      onopentag(name, attribs) {
        flush();
        if (name === 'html') {
          // As browsers do: a late or repeated <html> only adds attributes to the root.
          for (const [k, v] of Object.entries(attribs)) factory.setAttribute(root, k, v);
          return;
        }
        // As browsers do: once the page has a body, a <body> (pasted into a post) only adds the
        // attributes the body lacks and a <head> is ignored; made elements, they tore the post apart.
        if (name === 'body' && body) {
          for (const [k, v] of Object.entries(attribs)) {
            if (!body.attributes.has(k)) factory.setAttribute(body.element, k, v);
            body.attributes.add(k);
          }
          return;
        }
        if (name === 'head' && body) return;
        if ((name === 'head' || name === 'body') && names.length > 1) {
          // A stray unclosed element before <head>/<body> (tag soup) must not swallow the page.
          stack.length = 1;
          names.length = 1;
        }
        const el = factory.createElement(name);
        for (const [k, v] of Object.entries(attribs)) factory.setAttribute(el, k, v);
        factory.append(stack[stack.length - 1], el);
        if (name === 'body') body = { element: el, attributes: new Set(Object.keys(attribs)) };
        if (stack.length < MAX_DEPTH) {
          stack.push(el);
          names.push(name);
        }
      },
      onclosetag(name) {
        flush();
        // </body> closes nothing in browsers either: what follows it is still the body's (or the post's).
        if (name === 'html' || name === 'body') return;
        // Close up to the matching open element (htmlparser2 already closed implied ones).
        const at = names.lastIndexOf(name);
        if (at > 0) {
          stack.length = at;
          names.length = at;
        }
      },
      ontext(data) {
        text += data;
      },
    },
    // XHTML is XML: `<div/>` is empty and CDATA is text (in text/html both would be read otherwise).
    { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true, recognizeSelfClosing: options.xhtml, recognizeCDATA: options.xhtml },
  );
  parser.write(html);
  parser.end();
  flush();
  return factory.document;
}

/** Lean DOM factory: a document whose root is `<html>`, numbered once built. */
function leanFactory(): DomFactory<LeanDocument> {
  const document = new LeanDocument();
  const root = document.appendChild(new LeanElement(document, 'html'));
  return {
    document,
    createElement: (name) => new LeanElement(document, name),
    createText: (text) => new LeanText(document, text),
    setAttribute: (el, name, value) => (el as LeanElement).setAttribute(name, value),
    append: (parent, child) => (parent as LeanElement).appendChild(child as LeanElement),
    root: () => root,
  };
}

/**
 * Parses HTML leniently into a DOM ready for XPath. The result implements the read-only part of
 * the W3C DOM that XPath evaluation and the AAH use (see lean-dom.ts), typed as `Document`.
 */
export function parseHtml(html: string, options: HtmlParseOptions = {}): Document {
  const doc = buildDom(html, leanFactory(), options);
  doc.numberNodes();
  return doc as unknown as Document;
}
