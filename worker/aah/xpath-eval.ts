/**
 * XPath 1.0 evaluation over the DOM built by {@link parseHtml}, with compiled expressions cached
 * (a knowledge base has a few hundred expressions evaluated on every page), and skipped on pages
 * that lack a string the expression needs (./xpath-prefilter.ts).
 */
import * as xpath from 'xpath';
import { meterNodeVisits } from './lean-dom';
import { xpathTree } from './xpath-tree';
import { indexDocument, mayMatch, needleCheck, requiredStrings, type Clauses, type Needle } from './xpath-prefilter';

/** The compiled-expression API of the `xpath` package (`xpath.parse`), missing from its typings. */
interface Compiled {
  evaluate(options: { node: Node }): { constructor: { name: string }; nodeset(): { toArray(): Node[] } };
  evaluateBoolean(options: { node: Node }): boolean;
  evaluateString(options: { node: Node }): string;
}
const parseXPath = (xpath as unknown as { parse(expression: string): Compiled }).parse;

/** The `xpath` package's node-set, as its `addArray` uses it. */
interface NodeSetInternals {
  nodes: Node[];
  size: number;
  tree: unknown;
}
const nodeSet = xpathTree.XNodeSet.prototype as { addArray(this: NodeSetInternals, nodes: Node[]): void };
const scanningAddArray = nodeSet.addArray;
/**
 * The package's `addArray` looks each node up in the whole set so far: every node list it dedupes
 * (each step's nodes before its predicates, each path's result, each union) cost k²/2 comparisons
 * for k nodes, work in which no node is visited, so the deadline could not stop it (the shipped
 * rules took 10.7 s on a 3.9 MB MediaWiki page of 150,000 edit links, against a 4.9 s budget).
 * Large lists go through a Set; small ones, most of them, are scanned faster than a Set is built.
 */
nodeSet.addArray = function addArray(nodes) {
  if (this.nodes.length + nodes.length <= 64) return scanningAddArray.call(this, nodes);
  const present = new Set(this.nodes);
  for (const node of nodes) {
    if (present.has(node)) continue;
    present.add(node);
    this.nodes.push(node);
    this.size++;
    this.tree = null;
  }
};

// XPath 1.0 core library (W3C XPath 1.0 §4) plus the node-type tests that look like calls.
const XPATH1_FUNCTIONS = new Set([
  'last', 'position', 'count', 'id', 'local-name', 'namespace-uri', 'name',
  'string', 'concat', 'starts-with', 'contains', 'substring-before', 'substring-after',
  'substring', 'string-length', 'normalize-space', 'translate',
  'boolean', 'not', 'true', 'false', 'lang',
  'number', 'sum', 'floor', 'ceiling', 'round',
  'node', 'text', 'comment', 'processing-instruction',
]);

// XPath 1.0's thirteen axes (W3C XPath 1.0 §2.2).
const XPATH1_AXES = new Set([
  'ancestor', 'ancestor-or-self', 'attribute', 'child', 'descendant', 'descendant-or-self', 'following',
  'following-sibling', 'namespace', 'parent', 'preceding', 'preceding-sibling', 'self',
]);

const OPERATOR_NAMES = new Set(['and', 'or', 'div', 'mod']);

/**
 * Longest XPath accepted, in characters (the shipped knowledge base's longest has 273). The
 * `xpath` package parses in superlinear time (100,000 predicates took 0.8 s, 200,000 7.9 s):
 * a 3 MB expression held the cockpit's thread for minutes.
 */
const MAX_XPATH_CHARS = 2_000;

/**
 * Deepest nesting of brackets and parentheses accepted (the shipped knowledge base's deepest
 * is 6): the prefilter and evaluation recurse once per level (1,300 nested predicates overflowed
 * the prefilter's stack).
 */
const MAX_XPATH_NESTING = 32;

/** A compile error: the message says what is wrong with the expression. */
export class XPathCompileError extends Error {}

/**
 * Node visits (lean-dom.ts) between two readings of the clock within one evaluation. A visit
 * takes nanoseconds, up to a microsecond or so where a `preceding::` step grows its node-set
 * from the front (10,000 took 11 ms on average in `//div[count(preceding::div) > …]` over 6,000
 * divs); a reading takes tens of nanoseconds.
 */
const VISITS_PER_DEADLINE_CHECK = 10_000;

/** Thrown by an evaluation started, or still running, past the deadline of {@link XPathEvaluator.withDeadline}. */
export class XPathTimeBudgetError extends Error {
  constructor(readonly budgetMs: number) {
    super(`XPath evaluation stopped: over its ${Math.round(budgetMs)} ms budget`);
    this.name = 'XPathTimeBudgetError';
  }
}

/** Compiles expressions once and evaluates them on DOM nodes. Holds only its own cache. */
export class XPathEvaluator {
  /** Expressions evaluated so far (skipped ones included): relaxation's work budget counts them. */
  evaluations = 0;
  /** The clock's time after which evaluations throw (withDeadline), and the budget it came from. */
  private deadline = Infinity;
  private budgetMs = Infinity;
  private readonly cache = new Map<string, { compiled: Compiled; required: Clauses }>();
  /** Per document: whether a needle occurs in it (./xpath-prefilter.ts). */
  private readonly documents = new WeakMap<Node, (needle: Needle) => boolean>();

  /** `now`: the clock of the deadlines, in ms (tests give one that does not depend on the machine's speed). */
  constructor(private readonly now: () => number = () => performance.now()) {}

  private entry(expression: string): { compiled: Compiled; required: Clauses } {
    let entry = this.cache.get(expression);
    if (!entry) {
      const compiled = compileXPath(expression);
      entry = { compiled, required: requiredStrings(compiled) };
      this.cache.set(expression, entry);
    }
    return entry;
  }

  /** Compiles (or fetches from the cache); throws {@link XPathCompileError}. */
  compile(expression: string): Compiled {
    return this.entry(expression).compiled;
  }

  /** What a document must hold for the expression to match (./xpath-prefilter.ts). */
  required(expression: string): Clauses {
    return this.entry(expression).required;
  }

  /** False when the context's document lacks a string the expression needs to match anything. */
  private mayMatch(required: Clauses, context: Node): boolean {
    if (!required.length) return true;
    const doc = context.nodeType === 9 ? context : context.ownerDocument;
    if (!doc) return true;
    let occurs = this.documents.get(doc);
    if (!occurs) this.documents.set(doc, (occurs = needleCheck(indexDocument(doc))));
    return mayMatch(required, occurs);
  }

  /**
   * Runs `fn`, in which every evaluation started or still running more than `ms` from now throws
   * {@link XPathTimeBudgetError}: a page whose markup makes the rules' `//` steps quadratic, or an
   * expression whose axes walk the page once per node, must not hold the crawl's thread for seconds.
   * Within an evaluation the clock is read every {@link VISITS_PER_DEADLINE_CHECK} node visits,
   * which only parseHtml's DOM counts.
   */
  withDeadline<T>(ms: number, fn: () => T): T {
    const outer = { deadline: this.deadline, budgetMs: this.budgetMs };
    this.deadline = Math.min(outer.deadline, this.now() + ms);
    this.budgetMs = ms;
    try {
      return fn();
    } finally {
      ({ deadline: this.deadline, budgetMs: this.budgetMs } = outer);
    }
  }

  private checkDeadline(): void {
    if (this.now() > this.deadline) throw new XPathTimeBudgetError(this.budgetMs);
  }

  /** Counts an evaluation and runs it, checking the deadline before and during it. */
  private evaluate<T>(run: () => T): T {
    this.evaluations++;
    if (this.deadline === Infinity) return run();
    this.checkDeadline();
    return meterNodeVisits(VISITS_PER_DEADLINE_CHECK, () => this.checkDeadline(), run);
  }

  /** Nodes selected by `expression` from `context`; [] if it yields no node-set. */
  select(expression: string, context: Node): Node[] {
    return this.evaluate(() => {
      const { compiled, required } = this.entry(expression);
      if (!this.mayMatch(required, context)) return [];
      const result = compiled.evaluate({ node: context });
      if (result.constructor.name !== 'XNodeSet') return [];
      return result.nodeset().toArray();
    });
  }

  /** True when the expression's boolean value is true (a non-empty node-set, a true test…). */
  test(expression: string, context: Node): boolean {
    return this.evaluate(() => {
      const { compiled, required } = this.entry(expression);
      return this.mayMatch(required, context) && compiled.evaluateBoolean({ node: context });
    });
  }

  /** String value of the first node selected, or of a string-valued expression. */
  string(expression: string, context: Node): string {
    return this.evaluate(() => this.compile(expression).evaluateString({ node: context }));
  }
}

/**
 * Parses an XPath 1.0 expression, also rejecting calls to functions outside XPath 1.0 (the
 * `xpath` package would only fail on them at evaluation time, i.e. in the middle of a crawl).
 */
export function compileXPath(expression: string): Compiled {
  if (!expression.trim()) throw new XPathCompileError('empty XPath expression');
  // Checked before parsing, which these limits keep to milliseconds.
  if (expression.length > MAX_XPATH_CHARS) {
    const start = JSON.stringify(`${expression.slice(0, 40)}…`);
    throw new XPathCompileError(`invalid XPath ${start}: ${expression.length.toLocaleString('en-US')} characters, over the limit of ${MAX_XPATH_CHARS.toLocaleString('en-US')}`);
  }
  const bare = expression.replace(/"[^"]*"|'[^']*'/g, '""');
  const nesting = nestingDepth(bare);
  if (nesting > MAX_XPATH_NESTING) {
    throw new XPathCompileError(`invalid XPath ${JSON.stringify(expression)}: brackets and parentheses nested ${nesting} deep, over the limit of ${MAX_XPATH_NESTING}`);
  }
  let compiled: Compiled;
  try {
    compiled = parseXPath(expression);
  } catch (err) {
    throw new XPathCompileError(`invalid XPath ${JSON.stringify(expression)}: ${(err as Error).message}`);
  }
  for (const m of bare.matchAll(/([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)\s*\(/g)) {
    const name = m[1];
    // `a and (b or c)`: operator names before a parenthesis are operators, not calls.
    if (!XPATH1_FUNCTIONS.has(name) && !OPERATOR_NAMES.has(name)) {
      throw new XPathCompileError(`invalid XPath ${JSON.stringify(expression)}: unknown function ${name}()`);
    }
  }
  // The `xpath` package parses these, then throws on every page (an unbound prefix, an undeclared
  // variable) or silently selects nothing (an axis it does not know): refused here instead.
  for (const m of bare.matchAll(/\$([A-Za-z_][\w.-]*(?::[A-Za-z_][\w.-]*)?)/g)) {
    throw new XPathCompileError(`invalid XPath ${JSON.stringify(expression)}: variable $${m[1]} (a knowledge base declares no variables)`);
  }
  for (const m of bare.matchAll(/(?<![\w.:-])([A-Za-z_][\w.-]*)\s*::/g)) {
    if (!XPATH1_AXES.has(m[1])) throw new XPathCompileError(`invalid XPath ${JSON.stringify(expression)}: unknown axis "${m[1]}::"`);
  }
  for (const m of bare.matchAll(/(?<![\w.:-])([A-Za-z_][\w.-]*):(?=[A-Za-z_*])/g)) {
    // `xml:` is bound by XPath itself (`@xml:lang`); no other prefix is.
    if (m[1] !== 'xml') throw new XPathCompileError(`invalid XPath ${JSON.stringify(expression)}: namespace prefix "${m[1]}:" (HTML pages are matched without namespaces: write the local name)`);
  }
  return compiled;
}

/** How deep `[` and `(` nest in an expression whose string literals are blanked out. */
function nestingDepth(code: string): number {
  let depth = 0;
  let deepest = 0;
  for (const c of code) {
    if (c === '[' || c === '(') deepest = Math.max(deepest, ++depth);
    else if (c === ']' || c === ')') depth--;
  }
  return deepest;
}

// Elements that start a new line of text when rendered: their boundaries separate words.
const BLOCKS = new Set([
  'address', 'article', 'aside', 'blockquote', 'br', 'dd', 'div', 'dl', 'dt', 'figcaption', 'figure', 'footer',
  'form', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'header', 'hr', 'li', 'main', 'nav', 'ol', 'p', 'pre', 'section',
  'table', 'td', 'th', 'tr', 'ul',
]);
const INVISIBLE = new Set(['script', 'style', 'template']);

/**
 * Text of a node as a reader sees it: an attribute's value, or an element's text with block
 * boundaries and `<br>` as line breaks (`textContent` would glue "planks?<br>Mine" together),
 * scripts and styles left out, runs of spaces collapsed.
 */
export function nodeText(node: Node): string {
  if (node.nodeType === 2) return (node as Attr).value.replace(/\s+/g, ' ').trim();
  const out: string[] = [];
  const walk = (n: Node): void => {
    if (n.nodeType === 3 || n.nodeType === 4) {
      out.push((n.nodeValue ?? '').replace(/\s+/g, ' '));
      return;
    }
    if (n.nodeType !== 1 && n.nodeType !== 9) return;
    const name = n.nodeName.toLowerCase();
    if (INVISIBLE.has(name)) return;
    const block = BLOCKS.has(name);
    if (block) out.push('\n');
    for (let c = n.firstChild; c; c = c.nextSibling) walk(c);
    if (block) out.push('\n');
  };
  walk(node);
  return out.join('').replace(/ *\n[\n ]*/g, '\n').replace(/ {2,}/g, ' ').trim();
}
