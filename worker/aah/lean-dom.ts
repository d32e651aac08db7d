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
 *
 * The DOM properties count node visits (see {@link meterNodeVisits}); the tree's own code reads
 * the plain links (`parent`, `first`, `next`…) instead.
 */

const DOCUMENT_POSITION_PRECEDING = 2;
const DOCUMENT_POSITION_FOLLOWING = 4;

// Visits left before `onVisits` runs. Outside meterNodeVisits nothing checks, yet the count goes
// on (a no-op called every 2^30 visits): one decrement costs less than asking whether anyone counts.
const UNMETERED = 2 ** 30;
let visitsLeft = UNMETERED;
let visitsPerCall = UNMETERED;
let onVisits: () => void = () => {};

function visit(nodes: number): void {
  if ((visitsLeft -= nodes) < 0) {
    visitsLeft = visitsPerCall;
    onVisits();
  }
}

/**
 * Runs `fn`, calling `check` after every `every` node visits: a read of a node's parent, child or
 * sibling, of its value, or of a child or attribute list (one visit per node in it). XPath
 * evaluation reaches nodes only that way, so a `check` that throws stops an evaluation however
 * long its axes walk. Scopes nest; the outer one's count resumes after the inner one.
 */
export function meterNodeVisits<T>(every: number, check: () => void, fn: () => T): T {
  const outer = { left: visitsLeft, every: visitsPerCall, check: onVisits };
  visitsLeft = visitsPerCall = every;
  onVisits = check;
  try {
    return fn();
  } finally {
    ({ left: visitsLeft, every: visitsPerCall, check: onVisits } = outer);
  }
}

/** A node list: an array with the DOM's `item()`. */
export class LeanList<T> extends Array<T> {
  item(i: number): T | null {
    return this[i] ?? null;
  }
}

abstract class LeanNode {
  abstract readonly nodeType: number;
  abstract readonly nodeName: string;
  parent: LeanParent | null = null;
  next: LeanChild | null = null;
  previous: LeanChild | null = null;
  /** Position in document order (attributes right after their element). */
  order = 0;
  readonly namespaceURI = null;
  readonly prefix = null;
  constructor(readonly ownerDocument: LeanDocument | null) {}

  get parentNode(): LeanParent | null {
    visit(1);
    return this.parent;
  }
  get nextSibling(): LeanChild | null {
    visit(1);
    return this.next;
  }
  get previousSibling(): LeanChild | null {
    visit(1);
    return this.previous;
  }

  compareDocumentPosition(other: LeanNode): number {
    return other.order < this.order ? DOCUMENT_POSITION_PRECEDING : other.order > this.order ? DOCUMENT_POSITION_FOLLOWING : 0;
  }
}

// Array subclasses are slow to create; node lists are made on first use (XPath walks
// firstChild/nextSibling and rarely asks for them).
const EMPTY = Object.freeze(new LeanList<never>());

abstract class LeanParent extends LeanNode {
  first: LeanChild | null = null;
  last: LeanChild | null = null;
  private list: LeanList<LeanChild> | undefined;
  get firstChild(): LeanChild | null {
    visit(1);
    return this.first;
  }
  get lastChild(): LeanChild | null {
    visit(1);
    return this.last;
  }
  get childNodes(): LeanList<LeanChild> {
    if (!this.first) return EMPTY;
    if (!this.list) {
      this.list = new LeanList<LeanChild>();
      for (let c: LeanChild | null = this.first; c; c = c.next) this.list.push(c);
    }
    visit(this.list.length);
    return this.list;
  }
  get textContent(): string {
    let s = '';
    for (let c: LeanChild | null = this.first; c; c = c.next) s += c.textContent;
    return s;
  }
  appendChild(child: LeanChild): LeanChild {
    const last = this.last;
    if (last) {
      last.next = child;
      child.previous = last;
    } else this.first = child;
    this.last = child;
    child.parent = this;
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
    visit(1);
    return this.data;
  }
  get textContent(): string {
    return this.data;
  }
}

export class LeanAttr extends LeanNode {
  readonly nodeType = 2;
  constructor(doc: LeanDocument, readonly ownerElement: LeanElement, readonly name: string, readonly text: string) {
    super(doc);
  }
  get nodeName(): string {
    return this.name;
  }
  get localName(): string {
    return this.name;
  }
  get value(): string {
    visit(1);
    return this.text;
  }
  get nodeValue(): string {
    visit(1);
    return this.text;
  }
  get textContent(): string {
    return this.text;
  }
}

export class LeanElement extends LeanParent {
  readonly nodeType = 1;
  private attrs: LeanAttr[] | undefined;
  private attrList: LeanList<LeanAttr> | undefined;
  get attributes(): LeanList<LeanAttr> {
    if (!this.attrs) return EMPTY;
    visit(this.attrs.length);
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
    if (this.attrs) for (const a of this.attrs) if (a.name === name) return a.text;
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
    for (let c: LeanChild | null = this.first; c; c = c.next) if (c instanceof LeanElement) return c;
    return null;
  }
  getElementById(id: string): LeanElement | null {
    if (!this.ids) {
      this.ids = new Map();
      const index = (el: LeanElement): void => {
        const v = el.getAttribute('id');
        if (v && !this.ids!.has(v)) this.ids!.set(v, el);
        for (let c: LeanChild | null = el.first; c; c = c.next) if (c instanceof LeanElement) index(c);
      };
      if (this.documentElement) index(this.documentElement);
    }
    return this.ids.get(id) ?? null;
  }
  /** Numbers every node in document order; call once the tree is complete. */
  numberNodes(): void {
    let n = 0;
    const assignOrder = (node: LeanParent | LeanText): void => {
      node.order = n++;
      if (node instanceof LeanElement) for (const a of node.attributes) a.order = n++;
      if (node instanceof LeanParent) for (let c: LeanChild | null = node.first; c; c = c.next) assignOrder(c);
    };
    assignOrder(this);
  }
}

const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link', 'meta', 'source', 'track', 'wbr']);
const escapeText = (s: string): string => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string): string => escapeText(s).replace(/"/g, '&quot;');

/** HTML markup of a node (for `format="html"` fields). */
export function serializeNode(node: Node): string {
  const n = node as unknown as LeanNode;
  if (n instanceof LeanText) return escapeText(n.data);
  if (n instanceof LeanAttr) return escapeText(n.text);
  if (n instanceof LeanElement) {
    const attrs = n.attributes.map((a) => ` ${a.name}="${escapeAttr(a.text)}"`).join('');
    if (VOID.has(n.localName)) return `<${n.localName}${attrs}>`;
    return `<${n.localName}${attrs}>${n.childNodes.map((c) => serializeNode(c as unknown as Node)).join('')}</${n.localName}>`;
  }
  if (n instanceof LeanDocument) return n.childNodes.map((c) => serializeNode(c as unknown as Node)).join('');
  return '';
}
