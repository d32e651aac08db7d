import { Parser, type Handler, type ParserOptions } from 'htmlparser2';

/** Most elements a parse keeps open at once: the bound of Blink's and WebKit's HTML parsers. */
export const MAX_OPEN_ELEMENTS = 512;

/** The parts of htmlparser2's Parser (12.0) this bound relies on; declared private there. */
interface ParserInternals {
  /** Open elements, innermost first. */
  stack: string[];
  emitOpenTag(name: string): void;
  popElement(implied: boolean): void;
  isVoidElement(name: string): boolean;
}

const ParserWithInternals = Parser as unknown as new (handler: Partial<Handler>, options?: ParserOptions) => ParserInternals;
if (typeof ParserWithInternals.prototype.emitOpenTag !== 'function' || typeof ParserWithInternals.prototype.popElement !== 'function') {
  throw new Error('htmlparser2 changed its Parser internals: worker/extract/bounded-parser.ts needs updating');
}

/** Closes the innermost open element first when one more would pass the bound (see boundedParser). */
class BoundedParser extends ParserWithInternals {
  emitOpenTag(name: string): void {
    if (this.stack.length >= MAX_OPEN_ELEMENTS && !this.isVoidElement(name)) this.popElement(true);
    super.emitOpenTag(name);
  }
}

/**
 * An htmlparser2 Parser that keeps at most MAX_OPEN_ELEMENTS elements open. htmlparser2 keeps its
 * open elements innermost first and adds each with Array#unshift, so every start tag costs time in
 * proportion to the depth: 100,000 nested <div> (0.5 MB) took 3.5 s to parse, and a page made of
 * them would hold the crawl's thread for as long (upstream: fb55/htmlparser2#2481, not released).
 * As browsers do, an element that would open deeper closes the innermost open one first (an
 * implied close, reported to the handler), so it becomes that element's sibling instead of its
 * child. Every tag, text and attribute still reaches the handler.
 */
export function boundedParser(handler: Partial<Handler>, options?: ParserOptions): Parser {
  return new BoundedParser(handler, options) as unknown as Parser;
}
