/**
 * A necessary condition for an XPath expression to match, read from its syntax tree: strings that
 * must occur in the document, element and attribute names it must contain.
 * `//meta[@name='generator' and starts-with(@content,'WordPress')]` cannot select anything from a
 * page whose attribute values nowhere contain "WordPress", so that page is answered without
 * walking its tree. Detection runs a few dozen such expressions on every page until a host's
 * application is known; most of them name a class, an id or a generator, and most pages contain
 * none of them (bench/politeness: 35% of the crawl's CPU went into detection before this).
 *
 * The analysis is conservative: a sub-expression it does not understand (not(), comparisons,
 * translate(), variables…) requires nothing, so the condition can only be weaker than the truth,
 * never stronger — an expression is never reported as unable to match when it could.
 */
import { treeOf, xpathTree as xpath } from './xpath-tree';

/**
 * What must be in the document, as a kind letter and a value: `v…` a string in some text or
 * attribute value, `a…` a string in some attribute value, `e…` an element of that (lower-case)
 * name, `n…` an attribute of that name.
 */
export type Needle = string;
/** Every clause must have one of its needles in the document; [] = no requirement known. */
export type Clauses = Needle[][];

const ATTRIBUTE_AXIS = 2;
const NAMESPACE_AXIS = 8;

// Longest run without whitespace: what normalize-space() and concat(' ', …, ' ') leave intact.
function token(literal: string): string | undefined {
  let best = '';
  for (const t of literal.split(/\s+/)) if (t.length > best.length) best = t;
  return best || undefined;
}

function literalOf(e: unknown): string | undefined {
  if (e instanceof xpath.XString) return (e as unknown as { str: string }).str;
  if (e instanceof xpath.PathExpr) {
    const p = e as unknown as PathShape;
    if (!p.locationPath && !p.filterPredicates?.length) return literalOf(p.filter);
  }
  return undefined;
}

interface StepShape {
  axis: number;
  nodeTest: unknown;
  predicates: unknown[];
}
interface PathShape {
  filter?: unknown;
  filterPredicates?: unknown[];
  locationPath?: { steps: StepShape[] };
}
interface CallShape {
  functionName: string;
  arguments: unknown[];
}
interface BinaryShape {
  lhs: unknown;
  rhs: unknown;
}

/**
 * Where the string value of `e` comes from when it is a node's string value with at most its
 * whitespace changed (node-sets, `normalize-space(x)`, `string(x)`, `concat(' ', x, ' ')`), so
 * that a literal's tokens found in it are in the document: `a` an attribute value, `v` any text
 * or attribute value; null otherwise.
 */
function nodeTextSource(e: unknown): 'a' | 'v' | null {
  if (e instanceof xpath.PathExpr) {
    const p = e as unknown as PathShape;
    if (p.locationPath && p.filter === undefined) return p.locationPath.steps.at(-1)?.axis === ATTRIBUTE_AXIS ? 'a' : 'v';
    if (p.locationPath || p.filterPredicates?.length) return null;
    return nodeTextSource(p.filter);
  }
  if (e instanceof xpath.FunctionCall) {
    const { functionName: name, arguments: args } = e as unknown as CallShape;
    if (name === 'normalize-space' || name === 'string') return args.length === 0 ? 'v' : args.length === 1 ? nodeTextSource(args[0]) : null;
    if (name === 'concat') {
      // Exactly one node text between whitespace-only literals: nothing can join two texts.
      const texts = args.filter((a) => literalOf(a) === undefined);
      const spacesOnly = args.every((a) => literalOf(a) === undefined || token(literalOf(a)!) === undefined);
      return texts.length === 1 && spacesOnly ? nodeTextSource(texts[0]) : null;
    }
  }
  return null;
}

/** A literal's token as a needle in `source`, or [] when either is unknown. */
function literalNeedle(source: 'a' | 'v' | null, lit: string | undefined): Clauses {
  const t = lit === undefined ? undefined : token(lit);
  return source && t ? [[source + t]] : [];
}

/** A named step selects elements (or attributes) of that name: one must exist. */
function stepNeedle(step: StepShape): Clauses {
  if (step.axis === NAMESPACE_AXIS || !(step.nodeTest instanceof xpath.NodeTest.NameTestQName)) return [];
  const { localName, prefix } = step.nodeTest as { localName: string; prefix: string | null };
  if (prefix) return [];
  return [[(step.axis === ATTRIBUTE_AXIS ? 'n' : 'e') + localName.toLowerCase()]];
}

// `A or B`: one string of A's clause or of B's must occur; every pairing of clauses is a valid clause.
function either(a: Clauses, b: Clauses): Clauses {
  if (!a.length || !b.length) return [];
  const out: Clauses = [];
  for (const x of a) for (const y of b) if (out.length < 16) out.push([...x, ...y]);
  return out;
}

function predicates(list: unknown[] | undefined): Clauses {
  // A positional predicate ([1], [last()]) requires nothing; every other one must hold on a selected node.
  return (list ?? []).flatMap((p) => whenTrue(p));
}

/** Clauses implied by the expression's boolean value being true (a node-set: being non-empty). */
export function whenTrue(e: unknown): Clauses {
  if (e instanceof xpath.AndOperation) {
    const { lhs, rhs } = e as unknown as BinaryShape;
    return [...whenTrue(lhs), ...whenTrue(rhs)];
  }
  if (e instanceof xpath.OrOperation || e instanceof xpath.BarOperation) {
    const { lhs, rhs } = e as unknown as BinaryShape;
    return either(whenTrue(lhs), whenTrue(rhs));
  }
  if (e instanceof xpath.EqualsOperation) {
    const { lhs, rhs } = e as unknown as BinaryShape;
    const left = literalNeedle(nodeTextSource(rhs), literalOf(lhs));
    return left.length ? left : literalNeedle(nodeTextSource(lhs), literalOf(rhs));
  }
  if (e instanceof xpath.PathExpr) {
    const p = e as unknown as PathShape;
    const steps = p.locationPath?.steps.flatMap((s) => [...stepNeedle(s), ...predicates(s.predicates)]) ?? [];
    const filter = p.filter === undefined ? [] : whenTrue(p.filter);
    return [...filter, ...predicates(p.filterPredicates), ...steps];
  }
  if (e instanceof xpath.FunctionCall) {
    const { functionName: name, arguments: args } = e as unknown as CallShape;
    if ((name === 'contains' || name === 'starts-with') && args.length === 2) return literalNeedle(nodeTextSource(args[0]), literalOf(args[1]));
    if (name === 'boolean' && args.length === 1) return whenTrue(args[0]);
  }
  return [];
}

/** Clauses of a compiled expression (`xpath.parse`'s result) that hold whenever it matches. */
export function requiredStrings(compiled: unknown): Clauses {
  const tree = treeOf(compiled);
  // Clauses naming the same needles: one of each, rarest-looking (longest) needles first.
  const seen = new Set<string>();
  const out: Clauses = [];
  for (const clause of whenTrue(tree)) {
    const sorted = [...new Set(clause)].sort((a, b) => b.length - a.length);
    const key = sorted.join('\0');
    if (!seen.has(key)) {
      seen.add(key);
      out.push(sorted);
    }
  }
  return out;
}

/** What a document holds, for {@link occursIn}. */
export interface DocumentIndex {
  /** Text of all text nodes in document order (an element's string value is a piece of it), then the other values, NUL-separated. */
  readonly values: string;
  /** Attribute values, NUL-separated. */
  readonly attributeValues: string;
  /** Lower case. */
  readonly elementNames: ReadonlySet<string>;
  readonly attributeNames: ReadonlySet<string>;
}

/** Indexes a document (any W3C-like DOM): one walk in document order. */
export function indexDocument(doc: Node): DocumentIndex {
  let text = '';
  const others: string[] = [];
  const attrs: string[] = [];
  const elementNames = new Set<string>();
  const attributeNames = new Set<string>();
  const stack: Node[] = [doc];
  while (stack.length) {
    const n = stack.pop()!;
    const type = n.nodeType;
    if (type === 3 || type === 4) text += n.nodeValue ?? '';
    else if (type === 7 || type === 8) others.push(n.nodeValue ?? '');
    else {
      if (type === 1) elementNames.add(n.nodeName.toLowerCase());
      const list = (n as Element).attributes;
      if (list) {
        for (let i = 0; i < list.length; i++) {
          attrs.push(list[i].value);
          attributeNames.add(list[i].name.toLowerCase());
        }
      }
      for (let c = n.lastChild; c; c = c.previousSibling) stack.push(c);
    }
  }
  const attributeValues = attrs.join('\0');
  return { values: `${text}\0${others.join('\0')}\0${attributeValues}`, attributeValues, elementNames, attributeNames };
}

/** Whether one needle is in the indexed document. */
export function occursIn(index: DocumentIndex, needle: Needle): boolean {
  const value = needle.slice(1);
  switch (needle[0]) {
    case 'a': return index.attributeValues.includes(value);
    case 'e': return index.elementNames.has(value);
    case 'n': return index.attributeNames.has(value);
    default: return index.values.includes(value);
  }
}

/** {@link occursIn} for one document, remembering each needle's answer (knowledge-base literals repeat). */
export function needleCheck(index: DocumentIndex): (needle: Needle) => boolean {
  const found = new Map<Needle, boolean>();
  return (needle) => {
    let hit = found.get(needle);
    if (hit === undefined) found.set(needle, (hit = occursIn(index, needle)));
    return hit;
  };
}

/** False when some clause has none of its needles in the document (then the expression cannot match). */
export function mayMatch(clauses: Clauses, occurs: (needle: Needle) => boolean): boolean {
  return clauses.every((clause) => clause.some(occurs));
}
