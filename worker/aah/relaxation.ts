/**
 * Relaxed candidates for an extraction action that extracts nothing on a page of its level
 * (ARCOMEM's AAH adaptation): rewrite the object expression and, for fields that come out
 * empty, each field expression, with values from the knowledge base (same category) and from
 * the page. Pure: a function of the action, the vocabulary and the page.
 */
import { extractObjects, fieldValue, type ExtractionExpressions } from './actions';
import type { ExtractAction, FieldRule } from './kb-types';
import type { PageContext } from './page-context';
import { XPathTimeBudgetError } from './xpath-eval';
import {
  equalsToContains, replaceLiteralValues, replaceNameTests, replaceValueAndTag, swapClassId, type Rewrite,
} from './xpath-rewrite';

/** Words the rewrites draw from. */
export interface Vocabulary {
  /** Element names used in the knowledge base's expressions. */
  kbTags: readonly string[];
  /** Class/id tokens from the expressions of applications of the same category. */
  categoryValues: readonly string[];
  /** Element names the knowledge base uses in fields of each name (title → h1, h2, a…), tried first. */
  fieldTags: Readonly<Record<string, readonly string[]>>;
}

/** A relaxed rule: new object and field expressions, and what was changed. */
export interface RelaxedCandidate {
  select: string;
  fields: Record<string, string>;
  mutations: string[];
}

// Elements that never hold a Web object or a field: rewriting to them only costs time.
const USELESS_TAGS = new Set(['html', 'head', 'body', 'script', 'style', 'meta', 'link', 'br', 'hr', 'title', 'base', 'noscript', 'img', 'input']);
const MAX_OBJECTS = 500;
const MAX_FIELD_OPTIONS = 12;
/**
 * XPath evaluations one relaxation may spend. Rewrites × objects × fields can run into the
 * hundreds of thousands on a page of many nested tables (a generated one took 700,000 and 10 s);
 * relaxing the shipped applications' rules on the test sites' pages takes at most ~1,200.
 */
export const MAX_RELAX_EVALUATIONS = 10_000;
const LONGEST_TEXT_FIELDS = new Set(['body', 'text', 'content']);

/** Class tokens and ids used at least twice on the page (Web objects repeat), most frequent first, with their commonest tag. */
export function pageVocabulary(page: PageContext): { values: { value: string; tag: string; count: number }[]; tags: string[] } {
  const counts = new Map<string, Map<string, number>>();
  const tags = new Set<string>();
  const visit = (el: Element): void => {
    const tag = el.nodeName;
    if (!USELESS_TAGS.has(tag)) tags.add(tag);
    const tokens = (el.getAttribute('class') ?? '').split(/\s+/);
    const id = el.getAttribute('id');
    if (id) tokens.push(id.replace(/\d+$/, '')); // post1234 → post: ids numbered per object
    for (const t of tokens) {
      if (!/^[A-Za-z_][\w-]*$/.test(t)) continue;
      const byTag = counts.get(t) ?? new Map<string, number>();
      byTag.set(tag, (byTag.get(tag) ?? 0) + 1);
      counts.set(t, byTag);
    }
    for (let c = el.firstChild; c; c = c.nextSibling) if (c.nodeType === 1) visit(c as Element);
  };
  if (page.dom.documentElement) visit(page.dom.documentElement);
  const values = [...counts.entries()]
    .map(([value, byTag]) => {
      const [tag] = [...byTag.entries()].sort((a, b) => b[1] - a[1])[0];
      return { value, tag, count: [...byTag.values()].reduce((a, b) => a + b, 0) };
    })
    .filter((v) => v.count >= 2)
    .sort((a, b) => b.count - a.count)
    .slice(0, 40);
  return { values, tags: [...tags] };
}

/** Rewrites of one expression, cheapest ideas first (the order is the candidates' rank). */
function rewrites(expression: string, vocab: Vocabulary, pageVocab: ReturnType<typeof pageVocabulary>, field?: string): Rewrite[] {
  const onPage = new Set(pageVocab.values.map((v) => v.value));
  const kbValues = vocab.categoryValues.filter((v) => onPage.has(v));
  const tags = [...new Set([...vocab.kbTags.filter((t) => pageVocab.tags.includes(t)), ...pageVocab.tags])];
  const fieldTags = field ? (vocab.fieldTags[field] ?? []).filter((t) => pageVocab.tags.includes(t)) : [];
  return [
    ...swapClassId(expression),
    ...equalsToContains(expression),
    ...replaceNameTests(expression, fieldTags),
    ...replaceLiteralValues(expression, kbValues),
    ...replaceNameTests(expression, tags),
    ...replaceLiteralValues(expression, pageVocab.values.map((v) => v.value).filter((v) => !kbValues.includes(v))),
    ...replaceValueAndTag(expression, pageVocab.values),
  ];
}

// Objects nested in one another mean the expression matched a wrapper and its parts.
function disjoint(nodes: Node[]): boolean {
  const set = new Set(nodes);
  return nodes.every((n) => {
    for (let p = n.parentNode; p; p = p.parentNode) if (set.has(p)) return false;
    return true;
  });
}

/** Does this rule "work" on the page: at least one object, every object complete. */
export function ruleWorks(type: string, expr: ExtractionExpressions, page: PageContext): boolean {
  const nodes = page.ev.select(expr.select, page.dom);
  if (!nodes.length) return false;
  const objects = extractObjects(type, expr, '', page);
  if (objects.length !== nodes.length) return false;
  const optional = expr.fields.filter((f) => !f.required).length;
  if (expr.fields.every((f) => !f.required)) {
    // With nothing required, an object must still fill at least half of its fields.
    return objects.every((o) => Object.keys(o.fields).length * 2 >= optional);
  }
  return true;
}

/** Ranked relaxed candidates (at most `limit`) for `action`, each of which works on `page`. */
export function relaxAction(action: ExtractAction, vocab: Vocabulary, page: PageContext, limit = 5): RelaxedCandidate[] {
  const pageVocab = pageVocabulary(page);
  const objectRewrites: Rewrite[] = [{ expression: action.select, mutation: '' }, ...rewrites(action.select, vocab, pageVocab)];
  const seen = new Set<string>();
  const found: { candidate: RelaxedCandidate; filled: number; count: number; rank: number }[] = [];
  // Past the budget, the candidates found so far are all there is.
  const budget = page.ev.evaluations + MAX_RELAX_EVALUATIONS;
  const exhausted = (): boolean => page.ev.evaluations >= budget;
  for (const [rank, rw] of objectRewrites.entries()) {
    if (exhausted()) break;
    if (seen.has(rw.expression)) continue;
    seen.add(rw.expression);
    let nodes: Node[];
    try {
      nodes = page.ev.select(rw.expression, page.dom);
    } catch (err) {
      if (err instanceof XPathTimeBudgetError) throw err;
      continue; // a rewrite can produce an expression the engine rejects; just not a candidate
    }
    if (!nodes.length || nodes.length > MAX_OBJECTS || !disjoint(nodes)) continue;
    const fields: Record<string, string> = {};
    const mutations = rw.mutation ? [`object: ${rw.mutation}`] : [];
    const taken: Node[][] = nodes.map(() => []);
    let filled = 0;
    for (const f of action.fields) {
      const chosen = chooseField(f, nodes, taken, vocab, pageVocab, page, exhausted);
      fields[f.name] = chosen.select;
      if (chosen.mutation) mutations.push(`${f.name}: ${chosen.mutation}`);
      if (chosen.filled) filled++;
    }
    if (!mutations.length) continue; // the original rule itself: it already failed
    const candidate = { select: rw.expression, fields, mutations };
    const expr = { select: candidate.select, fields: action.fields.map((f) => ({ ...f, select: fields[f.name] })) };
    if (ruleWorks(action.type, expr, page)) found.push({ candidate, filled, count: nodes.length, rank });
    if (found.length >= limit * 4) break;
  }
  found.sort((a, b) => b.filled - a.filled || b.count - a.count || a.candidate.mutations.length - b.candidate.mutations.length || a.rank - b.rank);
  return found.slice(0, limit).map((f) => f.candidate);
}

const elementOf = (n: Node): Node => (n.nodeType === 2 ? ((n as Attr).ownerElement as Node) : n);

function overlaps(a: Node, others: readonly Node[]): boolean {
  const ea = elementOf(a);
  return others.some((o) => {
    const eo = elementOf(o);
    if (ea === eo) return a.nodeType !== 2 && o.nodeType !== 2;
    for (let p = ea.parentNode; p; p = p.parentNode) if (p === eo) return o.nodeType !== 2;
    for (let p = eo.parentNode; p; p = p.parentNode) if (p === ea) return a.nodeType !== 2;
    return false;
  });
}

/**
 * Keeps the field's expression when it fills most objects, else the first rewrite that does
 * without overlapping the fields chosen before it: the body is not the wrapper holding the
 * title, the title is not the date (`taken[i]` holds object i's nodes already used by fields).
 */
function chooseField(
  field: FieldRule,
  objects: Node[],
  taken: Node[][],
  vocab: Vocabulary,
  pageVocab: ReturnType<typeof pageVocabulary>,
  page: PageContext,
  exhausted: () => boolean,
): { select: string; mutation: string; filled: boolean } {
  const attempt = (select: string, isRewrite: boolean): Node[][] | undefined => {
    try {
      const selected = objects.map((o) => page.ev.select(select, o).filter((n) => fieldValue({ select: '.', format: field.format }, n, page)));
      const filled = selected.filter((nodes) => nodes.length > 0);
      if (filled.length * 2 <= objects.length) return undefined;
      if (!isRewrite) return selected;
      // A rewrite must pick one node per object (`.//div` picks every div of a post) that no
      // earlier field already uses.
      if (filled.some((nodes) => nodes.length > 1)) return undefined;
      if (selected.some((nodes, i) => nodes.some((n) => overlaps(n, taken[i])))) return undefined;
      return selected;
    } catch (err) {
      if (err instanceof XPathTimeBudgetError) throw err;
      return undefined;
    }
  };
  const keep = (selected: Node[][]): void => selected.forEach((nodes, i) => taken[i].push(...nodes));
  const original = attempt(field.select, false);
  if (original) {
    keep(original);
    return { select: field.select, mutation: '', filled: true };
  }
  const options: { rw: Rewrite; selected: Node[][] }[] = [];
  for (const rw of rewrites(field.select, vocab, pageVocab, field.name)) {
    if (exhausted()) break;
    const selected = attempt(rw.expression, true);
    if (selected) options.push({ rw, selected });
    if (options.length >= MAX_FIELD_OPTIONS) break;
  }
  if (options.length) {
    // The body of a post is its longest block of text (the classic boilerplate-removal cue);
    // other fields take the first rewrite, the vocabulary being ordered by likelihood.
    const textLength = (o: (typeof options)[number]): number =>
      o.selected.flat().reduce((n, node) => n + fieldValue({ select: '.', format: 'text' }, node, page).length, 0);
    const best = LONGEST_TEXT_FIELDS.has(field.name) ? options.reduce((a, b) => (textLength(b) > textLength(a) ? b : a)) : options[0];
    keep(best.selected);
    return { select: best.rw.expression, mutation: best.rw.mutation, filled: true };
  }
  return { select: field.select, mutation: '', filled: false };
}
