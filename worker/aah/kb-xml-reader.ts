/**
 * Reads knowledge-base XML into a small element tree with source positions, refusing what makes
 * XML dangerous to accept from strangers: a DOCTYPE (so no entity declarations: no XXE, no
 * billion laughs), entity references beyond the five predefined ones and character references,
 * documents over a size cap, and nesting beyond a depth cap. The tokenizer is saxes, which
 * never fetches or expands anything itself; the explicit refusals make the messages clear.
 */
import { SaxesParser } from 'saxes';
import type { KbError, SourcePosition } from './kb-types';

/** An element as read: name, attributes, text content, children, and where it starts. */
export interface XmlElement {
  name: string;
  attributes: Record<string, string>;
  text: string;
  children: XmlElement[];
  at: SourcePosition;
}

export interface XmlReadLimits {
  /** Largest accepted document, in UTF-8 bytes. */
  maxBytes: number;
  /** Deepest accepted element nesting (the knowledge-base format needs 6). */
  maxDepth: number;
  /** Stop after this many errors: a broken file should not produce a million messages. */
  maxErrors: number;
}

export const DEFAULT_XML_LIMITS: XmlReadLimits = { maxBytes: 5 * 1024 * 1024, maxDepth: 32, maxErrors: 50 };

/**
 * Most characters a route reads as a knowledge base before the parser weighs it: its byte limit
 * (a character takes at least one byte), so the parser's message, with line and size, decides alike
 * for the editor's check, Save and the tester.
 */
export const KB_MAX_CHARS = DEFAULT_XML_LIMITS.maxBytes;

const MB = 1024 * 1024;
const UNDEFINED_ENTITY =
  'entity reference not allowed: only &lt; &gt; &amp; &quot; &apos; and character references (&#...;) may be used';

class Abort extends Error {}

/** Parses `xml`; returns the root element or the errors (each with 1-based line and column). */
export function readXml(
  xml: string,
  limits: XmlReadLimits = DEFAULT_XML_LIMITS,
): { ok: true; root: XmlElement } | { ok: false; errors: KbError[] } {
  const bytes = utf8Length(xml);
  if (bytes > limits.maxBytes) {
    return {
      ok: false,
      errors: [{ line: 1, column: 1, message: `knowledge base is ${(bytes / MB).toFixed(1)} MB; the limit is ${(limits.maxBytes / MB).toFixed(1)} MB` }],
    };
  }
  const errors: KbError[] = [];
  const parser = new SaxesParser({ position: true });
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let tagStart: SourcePosition = { line: 1, column: 1 };
  const fail = (message: string, at: SourcePosition = { line: parser.line, column: parser.column }, fatal = false): void => {
    errors.push({ ...at, message });
    if (fatal || errors.length >= limits.maxErrors) throw new Abort();
  };

  parser.on('error', (err) => {
    const message = err.message.replace(/^\d+:\d+: /, '').replace(/\.$/, '');
    fail(/undefined entity/.test(message) ? UNDEFINED_ENTITY : message);
  });
  parser.on('doctype', () =>
    fail('DOCTYPE is not allowed in a knowledge base (no DTDs, no entity declarations)', undefined, true),
  );
  parser.on('opentagstart', (tag) => {
    tagStart = { line: parser.line, column: Math.max(1, parser.column - tag.name.length - 1) };
  });
  parser.on('opentag', (tag) => {
    if (stack.length >= limits.maxDepth) fail(`elements nested deeper than ${limits.maxDepth} levels`, tagStart, true);
    const el: XmlElement = { name: tag.name, attributes: { ...(tag.attributes as Record<string, string>) }, text: '', children: [], at: tagStart };
    if (stack.length) stack[stack.length - 1].children.push(el);
    else if (root) fail('more than one root element', tagStart);
    else root = el;
    stack.push(el);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const onText = (text: string): void => {
    if (stack.length) stack[stack.length - 1].text += text;
    else if (text.trim()) fail('text outside the root element');
  };
  parser.on('text', onText);
  parser.on('cdata', onText);

  try {
    parser.write(xml).close();
  } catch (err) {
    if (!(err instanceof Abort)) fail((err as Error).message.replace(/^\d+:\d+: /, ''));
  }
  if (!errors.length && !root) fail('empty document: no root element');
  return errors.length ? { ok: false, errors } : { ok: true, root: root! };
}

// TextEncoder rather than Buffer: the cockpit editor validates in the browser with this code.
function utf8Length(s: string): number {
  return new TextEncoder().encode(s).length;
}
