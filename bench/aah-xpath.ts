/**
 * Which DOM + XPath 1.0 pair should the AAH use? Each candidate parses generated ~40 KB forum
 * pages and runs ~20 knowledge-base expressions; prints ms per page (parse, query, total) and
 * whether it selects the same nodes as the others. A second case, one `//li[…]/a` over a
 * 4,000-item list, exposes node-set sorting that is quadratic in the number of siblings.
 *
 *   node --import tsx bench/aah-xpath.ts [--pages N]
 */
import * as xpath from 'xpath';
import { DOMImplementation } from '@xmldom/xmldom';
import { parseHTML } from 'linkedom';
import * as slimdom from 'slimdom';
import fontoxpath from 'fontoxpath';
import { createRequire } from 'node:module';
import { buildDom, parseHtml, type DomFactory } from '../worker/aah/html-dom';
import { BENCH_EXPRESSIONS, generateTopicPage } from './aah-fixture-pages';

interface Candidate {
  name: string;
  parse(html: string): unknown;
  count(doc: unknown, expression: string): number;
}

// `xpath.parse` (compile once, evaluate many) exists but is missing from the package's typings.
type Compiled = { select(o: { node: unknown; isHtml: boolean }): unknown[] };
const { parse } = xpath as unknown as { parse(e: string): Compiled };
const compiledCache = new Map<string, Compiled>();
const compiled = (e: string): Compiled => compiledCache.get(e) ?? compiledCache.set(e, parse(e)).get(e)!;

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
      try { (el as slimdom.Element).setAttribute(name, value); } catch { /* not an XML name: dropped */ }
    },
    append: (parent, child) => (parent as slimdom.Node).appendChild(child as slimdom.Node),
    root: () => html,
  };
}

// wicked-good-xpath installs `createExpression` on whatever object is passed as the document.
const wgx: { createExpression(e: string, r: null): { evaluate(n: unknown, type: number): { snapshotLength: number } } } = {} as never;
// (The package ships no typings, hence require.)
const wgxpath = createRequire(import.meta.url)('wicked-good-xpath') as { install(w: unknown, force: boolean): void };
wgxpath.install({ document: wgx }, true);
// xpath 0.0.34 stops walking at linkedom's doctype node, which linkedom will not remove.
const linkedomParse = (html: string): unknown => parseHTML(html.replace(/^\s*<!doctype[^>]*>/i, '')).document;

const candidates: Candidate[] = [
  { name: 'htmlparser2 → lean DOM + xpath (chosen)', parse: parseHtml, count: (d, e) => compiled(e).select({ node: d, isHtml: false }).length },
  { name: 'htmlparser2 → @xmldom/xmldom + xpath', parse: (h) => buildDom(h, xmldomFactory()), count: (d, e) => compiled(e).select({ node: d, isHtml: false }).length },
  { name: 'linkedom + xpath (isHtml)', parse: linkedomParse, count: (d, e) => compiled(e).select({ node: d, isHtml: true }).length },
  { name: 'htmlparser2 → slimdom + fontoxpath', parse: (h) => buildDom(h, slimdomFactory()), count: (d, e) => fontoxpath.evaluateXPathToNodes(e, d as slimdom.Node).length },
  { name: 'linkedom + wicked-good-xpath', parse: linkedomParse, count: (d, e) => wgx.createExpression(e, null).evaluate(d, 7).snapshotLength },
];

function measure(c: Candidate, pages: string[]): { parse: number; query: number; counts: number[] } {
  for (const p of pages.slice(0, 3)) BENCH_EXPRESSIONS.forEach((e) => c.count(c.parse(p), e)); // warm-up
  let parse = 0;
  let query = 0;
  let counts: number[] = [];
  for (const p of pages) {
    const t0 = performance.now();
    const doc = c.parse(p);
    const t1 = performance.now();
    counts = BENCH_EXPRESSIONS.map((e) => c.count(doc, e));
    query += performance.now() - t1;
    parse += t1 - t0;
  }
  return { parse: parse / pages.length, query: query / pages.length, counts };
}

const n = Number(process.argv[process.argv.indexOf('--pages') + 1]) || 30;
const pages = Array.from({ length: n }, (_, i) => generateTopicPage(40_000, i + 1, 1));
const list = `<html><body><ul>${'<li class="cat-item"><a href="/c">c</a></li>'.repeat(4000)}</ul></body></html>`;
const LIST_EXPR = "//li[contains(@class,'cat-item')]/a";
console.log(`${n} pages of ~${Math.round(pages[0].length / 1000)} KB, ${BENCH_EXPRESSIONS.length} expressions; list case: ${LIST_EXPR} over 4,000 <li>`);
let reference: number[] | undefined;
for (const c of candidates) {
  const r = measure(c, pages);
  reference ??= r.counts;
  const agree = r.counts.every((x, i) => x === reference![i]);
  const doc = c.parse(list);
  const t = performance.now();
  const listCount = c.count(doc, LIST_EXPR);
  const listMs = performance.now() - t;
  console.log(
    `${c.name.padEnd(42)} parse ${r.parse.toFixed(2).padStart(6)} ms  query ${r.query.toFixed(2).padStart(6)} ms  ` +
      `total ${(r.parse + r.query).toFixed(2).padStart(6)} ms/page  list ${listMs.toFixed(0).padStart(5)} ms (${listCount})  ` +
      (agree ? 'same results' : `DIFFERENT: ${r.counts.join(',')}`),
  );
}
console.log('reference node counts:', reference?.join(','));
