/**
 * The syntax tree of a compiled XPath expression (the `xpath` package's `parse` result), for the
 * analyses that read it: the prefilter (./xpath-prefilter.ts) and the knowledge-base parser's
 * check that a field starts from its object (`startsAtDocumentRoot`).
 */
import * as xpathModule from 'xpath';

type Class = abstract new (...args: never[]) => unknown;
// The classes the package exports at run time but leaves out of its typings, the syntax tree's
// and the node-set's (on its CommonJS exports object: Node's ES-module view of the package names
// only some of them).
export const xpathTree = ((xpathModule as { default?: unknown }).default ?? xpathModule) as Record<
  'XPath' | 'XString' | 'PathExpr' | 'FunctionCall' | 'AndOperation' | 'OrOperation' | 'BarOperation' | 'EqualsOperation' | 'XNodeSet', Class
> & { NodeTest: { NameTestQName: Class; TEXT: number; COMMENT: number; PI: number } };

/** The root of a compiled expression's tree: xpath.parse() wraps it in XPath objects. */
export function treeOf(compiled: unknown): unknown {
  let tree = (compiled as { expression?: unknown }).expression;
  while (tree instanceof xpathTree.XPath) tree = (tree as { expression?: unknown }).expression;
  return tree;
}

interface PathShape {
  filter?: unknown;
  locationPath?: { absolute: boolean };
}

/**
 * True when the nodes an expression selects are reached from the document, not from the context
 * node: an absolute path (`/x`, `//x`), also inside parentheses (`(//h2)[1]`, `(//h2)/a`), either
 * side of a union (`.//x | //y`), or `id()`, which looks the whole document up. Predicates may
 * look anywhere (`.//a[@href = //link/@href]` still selects below the context), so they are not
 * read; nor are the arguments of functions other than `id()`, which give no nodes.
 */
export function startsAtDocumentRoot(tree: unknown): boolean {
  if (tree instanceof xpathTree.PathExpr) {
    const p = tree as unknown as PathShape;
    // A path after a filter (`(…)[1]/a`) goes on from the filter's nodes.
    if (p.filter !== undefined) return startsAtDocumentRoot(p.filter);
    return p.locationPath?.absolute === true;
  }
  if (tree instanceof xpathTree.BarOperation) {
    const { lhs, rhs } = tree as unknown as { lhs: unknown; rhs: unknown };
    return startsAtDocumentRoot(lhs) || startsAtDocumentRoot(rhs);
  }
  if (tree instanceof xpathTree.FunctionCall) return (tree as unknown as { functionName: string }).functionName === 'id';
  return false;
}

interface StepShape {
  nodeTest?: { type?: number };
}

/**
 * Why the nodes an expression selects can never be links (elements such as `<a>`, or their
 * `@href`): its value is a number, string or boolean (`count(…)`, `string(…)`, a comparison), or its
 * last step selects text, comments or processing instructions (`//a/text()`). Null when it may
 * select elements or attributes (a union, when either side may).
 */
export function notLinks(tree: unknown): string | null {
  if (tree instanceof xpathTree.PathExpr) {
    const p = tree as unknown as PathShape & { locationPath?: { steps?: StepShape[] } };
    const last = p.locationPath?.steps?.at(-1);
    if (last) {
      const type = last.nodeTest?.type;
      const { TEXT, COMMENT, PI } = xpathTree.NodeTest;
      return type === TEXT || type === COMMENT || type === PI ? 'selects text, comments or processing instructions, not elements' : null;
    }
    return p.filter === undefined ? null : notLinks(p.filter);
  }
  if (tree instanceof xpathTree.BarOperation) {
    const { lhs, rhs } = tree as unknown as { lhs: unknown; rhs: unknown };
    const left = notLinks(lhs);
    return left !== null && notLinks(rhs) !== null ? left : null;
  }
  if (tree instanceof xpathTree.FunctionCall) {
    const name = (tree as unknown as { functionName: string }).functionName;
    return name === 'id' ? null : `is a ${name}() value, not nodes`;
  }
  return 'is a number, a string or a boolean, not nodes';
}
