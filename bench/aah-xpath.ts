/**
 * Which DOM + XPath 1.0 pair should the AAH use? Parses a generated ~40 KB forum page and runs
 * ~20 knowledge-base expressions with each candidate; prints ms per page (parse, query, total)
 * and checks that the candidates select the same number of nodes.
 *
 *   node --import tsx bench/aah-xpath.ts [--pages N]
 */
import * as xpath from 'xpath';
import { parseHTML } from 'linkedom';
import * as slimdom from 'slimdom';
import fontoxpath from 'fontoxpath';
import { buildDom, parseHtml, type DomFactory } from '../worker/aah/html-dom';
import { BENCH_EXPRESSIONS, generateTopicPage } from './aah-fixture-pages';

interface Candidate {
  name: string;
  parse(html: string): unknown;
  query(doc: unknown, expressions: readonly string[]): number[];
}

// `xpath.parse` (compile once, evaluate many) exists but is missing from the package's typings.
const { parse } = xpath as unknown as { parse(e: string): { select(o: { node: Node; isHtml: boolean }): Node[] } };
const compiled = new Map(BENCH_EXPRESSIONS.map((e) => [e, parse(e)]));
const xpathCounts = (doc: unknown, exprs: readonly string[], isHtml: boolean): number[] =>
  exprs.map((e) => compiled.get(e)!.select({ node: doc as Node, isHtml }).length);

function slimdomFactory(): DomFactory<slimdom.Document> {
  const document = new slimdom.Document();
  const html = document.createElement('html');
  document.appendChild(html);
  return {
    document,
    createElement: (name) => {
      try { return document.createElement(name); } catch { return document.createElement('invalid-name'); }
    },
    createText: (text) => document.createTextNode(text),
    setAttribute: (el, name, value) => {
      try { (el as slimdom.Element).setAttribute(name, value); } catch { /* name not valid XML: dropped */ }
    },
    append: (parent, child) => (parent as slimdom.Node).appendChild(child as slimdom.Node),
    root: () => html,
  };
}

const candidates: Candidate[] = [
  {
    name: 'htmlparser2 → @xmldom/xmldom + xpath',
    parse: (html) => parseHtml(html),
    query: (doc, exprs) => xpathCounts(doc, exprs, false),
  },
  {
    name: 'linkedom + xpath (isHtml)',
    parse: (html) => {
      // xpath 0.0.34 stops walking at linkedom's doctype node, which linkedom will not remove.
      return parseHTML(html.replace(/^\s*<!doctype[^>]*>/i, '')).document;
    },
    query: (doc, exprs) => xpathCounts(doc, exprs, true),
  },
  {
    name: 'htmlparser2 → slimdom + fontoxpath',
    parse: (html) => buildDom(html, slimdomFactory()),
    query: (doc, exprs) => exprs.map((e) => fontoxpath.evaluateXPathToNodes(e, doc).length),
  },
];

function measure(c: Candidate, pages: string[]): { parse: number; query: number; counts: number[] } {
  for (const p of pages.slice(0, 3)) c.query(c.parse(p), BENCH_EXPRESSIONS); // warm-up (JIT, caches)
  let parse = 0;
  let query = 0;
  let counts: number[] = [];
  for (const p of pages) {
    const t0 = performance.now();
    const doc = c.parse(p);
    const t1 = performance.now();
    counts = c.query(doc, BENCH_EXPRESSIONS);
    query += performance.now() - t1;
    parse += t1 - t0;
  }
  return { parse: parse / pages.length, query: query / pages.length, counts };
}

const n = Number(process.argv[process.argv.indexOf('--pages') + 1]) || 50;
const pages = Array.from({ length: n }, (_, i) => generateTopicPage(40_000, i + 1, 1));
console.log(`${n} pages of ~${Math.round(pages[0].length / 1000)} KB, ${BENCH_EXPRESSIONS.length} expressions`);
let reference: number[] | undefined;
for (const c of candidates) {
  const r = measure(c, pages);
  reference ??= r.counts;
  const agree = r.counts.every((x, i) => x === reference![i]);
  console.log(
    `${c.name.padEnd(40)} parse ${r.parse.toFixed(2)} ms  query ${r.query.toFixed(2)} ms  ` +
      `total ${(r.parse + r.query).toFixed(2)} ms/page  ${agree ? 'same results' : 'DIFFERENT counts ' + r.counts.join(',')}`,
  );
}
console.log('reference node counts:', reference?.join(','));
