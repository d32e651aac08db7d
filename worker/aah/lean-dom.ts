/**
 * A read-only DOM holding just what XPath 1.0 evaluation (the `xpath` package) and the AAH read:
 * node types and names, parent/child/sibling links, attributes with `item()`, text, and an O(1)
 * `compareDocumentPosition` from document-order numbers assigned once the tree is built.
 *
 * Why not @xmldom/xmldom: its `compareDocumentPosition` scans the common parent's children with
 * a for-in loop, so sorting a node-set is quadratic in the number of siblings; a 4,000-item
 * list took 7.9 s for one `//li[…]/a` and a 40 KB forum page 50 ms for 20 expressions
 * (bench/aah-xpath.ts has the figures for both DOMs). Pages are never modified after parsing,
 * so document order can be numbered once.
 */

const DOCUMENT_POSITION_PRECEDING = 2;
const DOCUMENT_POSITION_FOLLOWING = 4;

/** A node list: an array with the DOM's `item()`. */
export class LeanList<T> extends Array<T> {
  item(i: number): T | null {
    return this[i] ?? null;
  }
}

abstract class LeanNode {
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  parentNode: LeanParent | null = null;
  nextSibling: LeanChild | null = null;
  previousSibling: LeanChild | null = null;
  /** Position in document order (attributes right after their element). */
  order = 0;
  readonly namespaceURI = null;
  readonly prefix = null;
  constructor(readonly ownerDocument: LeanDocument | null) {}

  compareDocumentPosition(other: LeanNode): number {
    return other.order < this.order ? DOCUMENT_POSITION_PRECEDING : other.order > this.order ? DOCUMENT_POSITION_FOLLOWING : 0;
  }
}

// Array subclasses are slow to create; node lists are made on first use (XPath walks
// firstChild/nextSibling and rarely asks for them).
const EMPTY = Object.freeze(new LeanList<never>());

abstract class LeanParent extends LeanNode {
  firstChild: LeanChild | null = null;
  lastChild: LeanChild | null = null;
  private list: LeanList<LeanChild> | undefined;
  get childNodes(): LeanList<LeanChild> {
    if (!this.firstChild) return EMPTY;
    if (!this.list) {
      this.list = new LeanList<LeanChild>();
      for (let c: LeanChild | null = this.firstChild; c; c = c.nextSibling) this.list.push(c);
    }
    return this.list;
  }
  get textContent(): string {
    let s = '';
    for (let c: LeanChild | null = this.firstChild; c; c = c.nextSibling) s += c.textContent;
    return s;
  }
  appendChild(child: LeanChild): LeanChild {
    const last = this.lastChild;
    if (last) {
      last.nextSibling = child;
      child.previousSibling = last;
    } else this.firstChild = child;
    this.lastChild = child;
    child.parentNode = this;
    this.list = undefined;
    return child;
  }
}

export class LeanText extends LeanNode {
  readonly nodeType = 3;
  readonly nodeName = '#text';
  readonly localName = null;
  constructor(doc: LeanDocument, readonly data: string) {
    super(doc);
  }
  get nodeValue(): string {
    return this.data;
  }
  get textContent(): string {
    return this.data;
  }
}

export class LeanAttr extends LeanNode {
  readonly nodeType = 2;
  constructor(doc: LeanDocument, readonly ownerElement: LeanElement, readonly name: string, readonly value: string) {
    super(doc);
  }
  get nodeName(): string {
    return this.name;
  }
  get localName(): string {
    return this.name;
  }
  get nodeValue(): string {
    return this.value;
  }
  get textContent(): string {
    return this.value;
  }
}

export class LeanElement extends LeanParent {
  readonly nodeType = 1;
  private attrs: LeanAttr[] | undefined;
  private attrList: LeanList<LeanAttr> | undefined;
  get attributes(): LeanList<LeanAttr> {
    if (!this.attrs) return EMPTY;
    return (this.attrList ??= LeanList.from(this.attrs) as LeanList<LeanAttr>);
  }
  constructor(doc: LeanDocument, readonly localName: string) {
    super(doc);
  }
  get nodeName(): string {
    return this.localName;
  }
  get tagName(): string {
    return this.localName;
  }
  readonly nodeValue = null;
  getAttribute(name: string): string | null {
    if (this.attrs) for (const a of this.attrs) if (a.name === name) return a.value;
    return null;
  }
  getAttributeNS(_ns: string | null, name: string): string | null {
    return this.getAttribute(name);
  }
  hasAttribute(name: string): boolean {
    return this.getAttribute(name) !== null;
  }
  /** Adds an attribute; a repeated name keeps the first value, as HTML parsers do. */
  setAttribute(name: string, value: string): void {
    if (this.hasAttribute(name)) return;
    (this.attrs ??= []).push(new LeanAttr(this.ownerDocument!, this, name, value));
    this.attrList = undefined;
  }
}

type LeanChild = LeanElement | LeanText;

export class LeanDocument extends LeanParent {
  readonly nodeType = 9;
  readonly nodeName = '#document';
  readonly localName = null;
  readonly nodeValue = null;
  private ids: Map<string, LeanElement> | undefined;
  constructor() {
    super(null);
  }
  get documentElement(): LeanElement | null {
    for (let c: LeanChild | null = this.firstChild; c; c = c.nextSibling) if (c instanceof LeanElement) return c;
    return null;
  }
  getElementById(id: string): LeanElement | null {
    if (!this.ids) {
      this.ids = new Map();
      const visit = (el: LeanElement): void => {
        const v = el.getAttribute('id');
        if (v && !this.ids!.has(v)) this.ids!.set(v, el);
        for (let c: LeanChild | null = el.firstChild; c; c = c.nextSibling) if (c instanceof LeanElement) visit(c);
      };
      if (this.documentElement) visit(this.documentElement);
    }
    return this.ids.get(id) ?? null;
  }
  /** Numbers every node in document order; call once the tree is complete. */
  numberNodes(): void {
    let n = 0;
    const visit = (node: LeanParent | LeanText): void => {
      node.order = n++;
      if (node instanceof LeanElement) for (const a of node.attributes) a.order = n++;
      if (node instanceof LeanParent) for (let c: LeanChild | null = node.firstChild; c; c = c.nextSibling) visit(c);
    };
    visit(this);
  }
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const escapeText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string): string => escapeText(s).replace(/"/g, '&quot;');

/** HTML markup of a node (for `format="html"` fields). */
export function serializeNode(node: Node): string {
  const n = node as unknown as LeanNode;
  if (n instanceof LeanText) return escapeText(n.data);
  if (n instanceof LeanAttr) return escapeText(n.value);
  if (n instanceof LeanElement) {
    const attrs = n.attributes.map((a) => ` ${a.name}="${escapeAttr(a.value)}"`).join('');
    if (VOID.has(n.localName)) return `<${n.localName}${attrs}>`;
    return `<${n.localName}${attrs}>${n.childNodes.map((c) => serializeNode(c as unknown as Node)).join('')}</${n.localName}>`;
  }
  if (n instanceof LeanDocument) return n.childNodes.map((c) => serializeNode(c as unknown as Node)).join('');
  return '';
}
