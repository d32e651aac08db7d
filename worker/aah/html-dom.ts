/**
 * Lenient HTML → DOM for XPath 1.0 (bench/aah-xpath.ts chose this pair: htmlparser2 events build an
 * `@xmldom/xmldom` document, queried by the `xpath` package).
 *
 * Real-world tag soup is the norm on forums and blogs, so the tokenizer is htmlparser2 (implied
 * end tags, void elements, unquoted attributes, entities) and the tree is always one `html`
 * element under the document, whatever the page does before or after its `<html>` tag. Element
 * and attribute names are lower-cased and carry no namespace, so knowledge-base authors write
 * `//div[@class='post']` exactly as they would in a browser's HTML document.
 */
import { Parser } from 'htmlparser2';
import { DOMImplementation } from '@xmldom/xmldom';

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
const MAX_DEPTH = 512;

const BLOCK_CONTAINERS = new Set([
  'html', 'head', 'body', 'div', 'ul', 'ol', 'dl', 'table', 'thead', 'tbody', 'tfoot', 'tr',
  'section', 'article', 'nav', 'header', 'footer', 'main', 'aside', 'form', 'select', 'fieldset',
]);

/**
 * Feeds `html` through htmlparser2 into `factory`. Nesting deeper than 512 open elements is
 * flattened (children attach to the 512th) so a hostile page cannot blow the evaluator's stack.
 */
export function buildDom<D>(html: string, factory: DomFactory<D>): D {
  const root = factory.root();
  const stack: unknown[] = [root];
  const names: string[] = ['html'];
  let text = '';
  const flush = (): void => {
    // Whitespace-only text between block elements is a fifth of a page's nodes and never part of
    // a value; dropping it makes every `//` step cheaper. Between inline elements it separates
    // words ("<b>Fri</b> <b>Mar</b>"), so there it stays.
    if (text && (/\S/.test(text) || !BLOCK_CONTAINERS.has(names[names.length - 1]))) {
      factory.append(stack[stack.length - 1], factory.createText(text));
    }
    text = '';
  };
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        flush();
        if (name === 'html') {
          // As browsers do: a late or repeated <html> only adds attributes to the root.
          for (const [k, v] of Object.entries(attribs)) factory.setAttribute(root, k, v);
          return;
        }
        if ((name === 'head' || name === 'body') && names.length > 1) {
          // A stray unclosed element before <head>/<body> (tag soup) must not swallow the page.
          stack.length = 1;
          names.length = 1;
        }
        const el = factory.createElement(name);
        for (const [k, v] of Object.entries(attribs)) factory.setAttribute(el, k, v);
        factory.append(stack[stack.length - 1], el);
        if (stack.length < MAX_DEPTH) {
          stack.push(el);
          names.push(name);
        }
      },
      onclosetag(name) {
        flush();
        if (name === 'html') return;
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
    { lowerCaseTags: true, lowerCaseAttributeNames: true, decodeEntities: true },
  );
  parser.write(html);
  parser.end();
  flush();
  return factory.document;
}

/** xmldom factory: a namespace-less XML document whose root is `<html>`. */
function xmldomFactory(): DomFactory<Document> {
  const document = new DOMImplementation().createDocument(null, 'html', null) as unknown as Document;
  return {
    document,
    createElement: (name) => document.createElement(name),
    createText: (text) => document.createTextNode(text),
    setAttribute: (el, name, value) => (el as Element).setAttribute(name, value),
    append: (parent, child) => (parent as Node).appendChild(child as Node),
    root: () => document.documentElement,
  };
}

/** Parses HTML leniently into a DOM `Document` ready for {@link selectNodes}. */
export function parseHtml(html: string): Document {
  return buildDom(html, xmldomFactory());
}
