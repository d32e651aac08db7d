/**
 * Single-step rewrites of an XPath expression, for adaptation: the expression is split into
 * string literals and code so replacements never land inside a literal by accident.
 */

/** A rewritten expression and a short human description of the change. */
export interface Rewrite {
  expression: string;
  mutation: string;
}

interface Part {
  literal: boolean;
  text: string;
}

function split(expression: string): Part[] {
  const parts: Part[] = [];
  const re = /"[^"]*"|'[^']*'/g;
  let last = 0;
  for (const m of expression.matchAll(re)) {
    if (m.index > last) parts.push({ literal: false, text: expression.slice(last, m.index) });
    parts.push({ literal: true, text: m[0] });
    last = m.index + m[0].length;
  }
  if (last < expression.length) parts.push({ literal: false, text: expression.slice(last) });
  return parts;
}

const join = (parts: Part[]): string => parts.map((p) => p.text).join('');

/** Name tests: a name after `/`, `[`, `(`, `|`, `::` or at the start, not a function or an axis. */
const NAME_TEST = /(^|[/[(|]|::)(\s*)([A-Za-z_][\w-]*)(?![\w-])(?!\s*\()(?!\s*::)/g;

/** Name-test matches in code part `i`; `^` counts only at the very start of the expression. */
function nameTestsIn(parts: Part[], i: number): RegExpMatchArray[] {
  return [...parts[i].text.matchAll(NAME_TEST)].filter((m) => m[1] !== '' || i === 0);
}

/** Element names used as name tests in `expression` (not inside literals). */
export function nameTests(expression: string): string[] {
  const names: string[] = [];
  const parts = split(expression);
  parts.forEach((p, i) => {
    if (!p.literal) for (const m of nameTestsIn(parts, i)) names.push(m[3]);
  });
  return names;
}

/** Class/id-like tokens inside the string literals of `expression` (e.g. `' post '` → `post`). */
export function literalTokens(expression: string): string[] {
  const out: string[] = [];
  for (const p of split(expression)) {
    if (!p.literal) continue;
    const inner = p.text.slice(1, -1).trim();
    if (/^[\w-]+$/.test(inner) && !/^\d+$/.test(inner)) out.push(inner);
  }
  return out;
}

/** `@class` ↔ `@id`, one occurrence at a time. */
export function swapClassId(expression: string): Rewrite[] {
  const out: Rewrite[] = [];
  const parts = split(expression);
  parts.forEach((p, i) => {
    if (p.literal) return;
    for (const m of p.text.matchAll(/@(class|id)\b/g)) {
      const to = m[1] === 'class' ? 'id' : 'class';
      const copy = parts.slice();
      copy[i] = { literal: false, text: p.text.slice(0, m.index) + '@' + to + p.text.slice(m.index + m[0].length) };
      out.push({ expression: join(copy), mutation: `@${m[1]} → @${to}` });
    }
  });
  return out;
}

/** `@a='v'` → `contains(@a,'v')`, one occurrence at a time. */
export function equalsToContains(expression: string): Rewrite[] {
  const out: Rewrite[] = [];
  const re = /@([\w-]+)\s*=\s*("[^"]*"|'[^']*')/g;
  for (const m of expression.matchAll(re)) {
    // Only outside literals: the match must start in code, which holds when the preceding text has balanced quotes.
    const before = expression.slice(0, m.index);
    if (split(before).some((p) => p.literal && p.text.length === 1)) continue;
    const rewritten = `${before}contains(@${m[1]},${m[2]})${expression.slice(m.index + m[0].length)}`;
    out.push({ expression: rewritten, mutation: `@${m[1]}=${m[2]} → contains()` });
  }
  return out;
}

/** Each class/id-like literal token replaced by each of `values` (padding spaces kept). */
export function replaceLiteralValues(expression: string, values: readonly string[]): Rewrite[] {
  const out: Rewrite[] = [];
  const parts = split(expression);
  parts.forEach((p, i) => {
    if (!p.literal) return;
    const quote = p.text[0];
    const inner = p.text.slice(1, -1);
    const token = inner.trim();
    if (!/^[\w-]+$/.test(token) || /^\d+$/.test(token)) return;
    for (const v of values) {
      if (v === token || v.includes(quote)) continue;
      const copy = parts.slice();
      copy[i] = { literal: true, text: quote + inner.replace(token, v) + quote };
      out.push({ expression: join(copy), mutation: `'${token}' → '${v}'` });
    }
  });
  return out;
}

// Templates swap an element for one of its kind (h3 → h2, div → section, b → strong) far more
// often than across kinds, so those are tried first.
const FAMILIES: readonly (readonly string[])[] = [
  ['h1', 'h2', 'h3', 'h4', 'h5', 'h6'],
  ['div', 'section', 'article', 'main', 'aside', 'header', 'footer', 'nav', 'figure'],
  ['p', 'blockquote', 'pre'],
  ['span', 'a', 'strong', 'b', 'em', 'i', 'small', 'bdi', 'cite', 'abbr', 'time', 'font'],
  ['ul', 'ol', 'dl'],
  ['li', 'dt', 'dd'],
  ['table', 'tbody', 'tr', 'td', 'th'],
];
const familyOf = (tag: string): number => FAMILIES.findIndex((f) => f.includes(tag));

/** `tags` with those of the same family as `tag` first (stable otherwise). */
export function byFamily(tag: string, tags: readonly string[]): string[] {
  const family = familyOf(tag);
  if (family < 0) return [...tags];
  return [...tags.filter((t) => familyOf(t) === family), ...tags.filter((t) => familyOf(t) !== family)];
}

/** Each name test replaced by each of `tags` (same family first), one occurrence at a time. */
export function replaceNameTests(expression: string, tags: readonly string[]): Rewrite[] {
  const out: Rewrite[] = [];
  const parts = split(expression);
  parts.forEach((p, i) => {
    if (p.literal) return;
    for (const m of nameTestsIn(parts, i)) {
      const start = m.index! + m[1].length + m[2].length;
      for (const tag of byFamily(m[3], tags)) {
        if (tag === m[3]) continue;
        const copy = parts.slice();
        copy[i] = { literal: false, text: p.text.slice(0, start) + tag + p.text.slice(start + m[3].length) };
        out.push({ expression: join(copy), mutation: `${m[3]} → ${tag}` });
      }
    }
  });
  return out;
}

/**
 * Literal token → `value` together with the name test just before it → `tag`: a page whose
 * `<article class="post">` became `<div class="entry">` needs both at once.
 */
export function replaceValueAndTag(expression: string, pairs: readonly { value: string; tag: string }[]): Rewrite[] {
  const out: Rewrite[] = [];
  for (const { value, tag } of pairs) {
    for (const r of replaceLiteralValues(expression, [value])) {
      // The changed literal is the first position where the strings differ; retag the name test before it.
      let at = 0;
      while (at < expression.length && expression[at] === r.expression[at]) at++;
      const head = r.expression.slice(0, at);
      const headParts = split(head);
      const tests = headParts.flatMap((p, idx) => {
        if (p.literal) return [];
        const offset = join(headParts.slice(0, idx)).length;
        return nameTestsIn(headParts, idx).map((m) => ({ start: offset + m.index! + m[1].length + m[2].length, name: m[3] }));
      });
      const last = tests[tests.length - 1];
      if (!last || last.name === tag) continue;
      const expr = r.expression.slice(0, last.start) + tag + r.expression.slice(last.start + last.name.length);
      out.push({ expression: expr, mutation: `${r.mutation}, ${last.name} → ${tag}` });
    }
  }
  return out;
}
