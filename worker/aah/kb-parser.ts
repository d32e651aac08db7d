/**
 * Knowledge-base XML → {@link KnowledgeBase}, validating every element and attribute name, every
 * enumerated value and every XPath (compiled) and regular expression, with errors that name the
 * line and column. The format is documented in docs/knowledge-base.md and knowledge-base/knowledge-base.xsd.
 */
import { DEFAULT_XML_LIMITS, readXml, type XmlElement, type XmlReadLimits } from './kb-xml-reader';
import { compileXPath } from './xpath-eval';
import { notLinks, startsAtDocumentRoot, treeOf } from './xpath-tree';
import {
  APP_CATEGORIES, type AppCategory, type Application, type ExtractAction, type FieldRule, type KbError,
  type KbParseResult, type LevelRule, type NavigateAction, type Signal,
} from './kb-types';
import { caseInsensitiveRegExp } from '../process/case-insensitive-regexp';
import { patternProblem } from '../process/regexp-safety';

/** Allowed attributes (name → required) and children of each element (knowledge-base.xsd says the same; a test checks). */
export const KB_SCHEMA: Readonly<Record<string, { attrs: Record<string, boolean>; children: string[]; text?: boolean }>> = {
  'knowledge-base': { attrs: { version: true, xmlns: false }, children: ['application'] },
  application: { attrs: { id: true, name: true, category: true, generic: false }, children: ['description', 'detect', 'level', 'navigate', 'extract'] },
  description: { attrs: {}, children: [], text: true },
  detect: { attrs: { threshold: false }, children: ['xpath', 'url', 'header'] },
  xpath: { attrs: { weight: false }, children: [], text: true },
  url: { attrs: { weight: false }, children: [], text: true },
  header: { attrs: { name: true, weight: false }, children: [], text: true },
  level: { attrs: { type: true }, children: ['detect', 'navigate', 'extract'] },
  navigate: { attrs: { id: true, select: true, follow: false, bonus: false }, children: [] },
  extract: { attrs: { id: true, type: true, select: true, optional: false }, children: ['field'] },
  field: { attrs: { name: true, select: true, format: false, required: false }, children: [] },
};

const ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/**
 * The order of an element's children (knowledge-base.xsd's sequences): a child may not come after
 * one of a later rank. Navigate and extract rules share a rank: they mix in any order.
 */
const CHILD_ORDER: Readonly<Record<string, Readonly<Record<string, number>>>> = {
  application: { description: 0, detect: 1, level: 2, navigate: 3, extract: 3 },
  level: { detect: 0, navigate: 1, extract: 1 },
};

/** Parses and validates a knowledge base. Never throws on bad input: errors are returned. */
/**
 * parseKnowledgeBase, for a knowledge base a person writes (the editor's check, Save): a navigation
 * rule that can never yield a link (`//a/text()`, `count(//a)`) is refused at its line too; it was
 * accepted and followed nothing, without a word. Not applied to a crawl's stored copy, so a rule
 * saved before this check still runs as it did.
 */
export function parseWrittenKnowledgeBase(xml: string): KbParseResult {
  const parsed = parseKnowledgeBase(xml);
  if (!parsed.ok) return parsed;
  const rules = parsed.kb.applications.flatMap((app) => [...app.navigate, ...app.levels.flatMap((level) => level.navigate)]);
  const errors = rules.flatMap((rule): KbError[] => {
    const why = notLinks(treeOf(compileXPath(rule.select)));
    return why ? [{ ...rule.at, message: `<navigate>: select "${rule.select}" ${why}: a navigation rule selects links, elements such as <a> or their @href` }] : [];
  });
  return errors.length ? { ok: false, errors: errors.sort((a, b) => a.line - b.line || a.column - b.column) } : parsed;
}

export function parseKnowledgeBase(xml: string, limits: XmlReadLimits = DEFAULT_XML_LIMITS): KbParseResult {
  const read = readXml(xml, limits);
  if (!read.ok) return read;
  const errors: KbError[] = [];
  const err = (el: XmlElement, message: string): void => {
    if (errors.length < limits.maxErrors) errors.push({ ...el.at, message: `<${el.name}>: ${message}` });
  };
  if (read.root.name !== 'knowledge-base') {
    err(read.root, 'the root element must be <knowledge-base>');
    return { ok: false, errors };
  }
  checkStructure(read.root, err);
  const applications: Application[] = [];
  const appIds = new Set<string>();
  for (const el of read.root.children.filter((c) => c.name === 'application')) {
    const app = readApplication(el, err);
    if (!app) continue;
    if (appIds.has(app.id)) err(el, `duplicate application id "${app.id}"`);
    appIds.add(app.id);
    applications.push(app);
  }
  if (errors.length) return { ok: false, errors };
  return { ok: true, kb: { version: read.root.attributes.version, applications } };
}

type Report = (el: XmlElement, message: string) => void;

/** Unknown elements and attributes, missing required attributes, stray text. */
function checkStructure(el: XmlElement, err: Report): void {
  const spec = KB_SCHEMA[el.name];
  for (const [name, required] of Object.entries(spec.attrs)) {
    if (required && !(name in el.attributes)) err(el, `missing attribute "${name}"`);
  }
  for (const name of Object.keys(el.attributes)) {
    if (!(name in spec.attrs)) err(el, `unknown attribute "${name}" (allowed: ${Object.keys(spec.attrs).join(', ') || 'none'})`);
  }
  if (!spec.text && el.text.trim()) err(el, 'text is not allowed here');
  checkOrder(el, err);
  for (const child of el.children) {
    if (!spec.children.includes(child.name)) {
      const known = child.name in KB_SCHEMA ? `not allowed inside <${el.name}>` : 'unknown element';
      err(child, `${known} (allowed: ${spec.children.join(', ') || 'none'})`);
    } else checkStructure(child, err);
  }
}

/** Children out of the order CHILD_ORDER gives, each reported once, at the first it should precede. */
function checkOrder(el: XmlElement, err: Report): void {
  const order = CHILD_ORDER[el.name];
  if (!order) return;
  let latest: XmlElement | null = null;
  for (const child of el.children) {
    const rank = order[child.name];
    if (rank === undefined) continue;
    if (latest && rank < order[latest.name]!) err(child, `must come before <${latest.name}> (the order: ${Object.keys(order).join(', ')})`);
    else latest = child;
  }
}

function readApplication(el: XmlElement, err: Report): Application | undefined {
  const { id = '', name = '', category = '' } = el.attributes;
  if (id && !ID.test(id)) err(el, `id "${id}" must be lower-case letters, digits, '.', '_' or '-'`);
  if (category && !APP_CATEGORIES.includes(category as AppCategory)) {
    err(el, `category "${category}" is not one of ${APP_CATEGORIES.join(', ')}`);
  }
  const detects = el.children.filter((c) => c.name === 'detect');
  if (detects.length !== 1) err(el, 'needs exactly one <detect>');
  if (el.children.filter((c) => c.name === 'description').length > 1) err(el, 'takes at most one <description>');
  const ruleIds = new Set<string>();
  const uniqueRule = (rule: XmlElement): void => {
    const rid = rule.attributes.id;
    if (rid && ruleIds.has(rid)) err(rule, `duplicate rule id "${rid}" in application "${id}"`);
    if (rid && !ID.test(rid)) err(rule, `id "${rid}" must be lower-case letters, digits, '.', '_' or '-'`);
    ruleIds.add(rid);
  };
  const levels: LevelRule[] = [];
  for (const lv of el.children.filter((c) => c.name === 'level')) {
    const type = lv.attributes.type;
    if (type !== 'intermediate' && type !== 'terminal') {
      err(lv, `type "${type ?? ''}" must be intermediate or terminal`);
      continue;
    }
    const lvDetect = lv.children.filter((c) => c.name === 'detect');
    if (lvDetect.length !== 1) err(lv, 'needs exactly one <detect>');
    // Silently ignored it would mislead: a level matches when any one of its signals does.
    for (const d of lvDetect) if ('threshold' in d.attributes) err(d, "a level's <detect> takes no threshold: the level matches when any of its signals matches (the threshold is the application's)");
    const rules = lv.children.filter((c) => c.name === 'navigate' || c.name === 'extract');
    rules.forEach(uniqueRule);
    levels.push({
      level: type,
      detect: lvDetect[0] ? readSignals(lvDetect[0], err) : [],
      navigate: lv.children.filter((c) => c.name === 'navigate').map((c) => readNavigate(c, err)),
      extract: lv.children.filter((c) => c.name === 'extract').map((c) => readExtract(c, err)),
      at: lv.at,
    });
  }
  el.children.filter((c) => c.name === 'navigate' || c.name === 'extract').forEach(uniqueRule);
  const generic = readBoolean(el, 'generic', false, err);
  const threshold = detects[0] ? readNumber(detects[0], 'threshold', 1, err, 0.001, 1000) : 1;
  if (!id || !name || !category) return undefined;
  return {
    id,
    name,
    category: category as AppCategory,
    generic,
    detection: { threshold, signals: detects[0] ? readSignals(detects[0], err) : [] },
    levels,
    navigate: el.children.filter((c) => c.name === 'navigate').map((c) => readNavigate(c, err)),
    extract: el.children.filter((c) => c.name === 'extract').map((c) => readExtract(c, err)),
    at: el.at,
  };
}

function readSignals(detect: XmlElement, err: Report): Signal[] {
  if (!detect.children.length) err(detect, 'needs at least one <xpath>, <url> or <header>');
  const signals: Signal[] = [];
  for (const s of detect.children) {
    const weight = readNumber(s, 'weight', 1, err, 0, 1000);
    const text = s.text.trim();
    if (s.name === 'xpath' && checkXPath(s, text, err)) signals.push({ kind: 'xpath', expression: text, weight, at: s.at });
    if (s.name === 'url' || s.name === 'header') {
      const pattern = readRegExp(s, text, err);
      if (!pattern) continue;
      if (s.name === 'url') signals.push({ kind: 'url', pattern, weight, at: s.at });
      else signals.push({ kind: 'header', name: (s.attributes.name ?? '').toLowerCase(), pattern, weight, at: s.at });
    }
  }
  return signals;
}

function readNavigate(el: XmlElement, err: Report): NavigateAction {
  const select = el.attributes.select ?? '';
  checkXPath(el, select, err);
  const follow = readBoolean(el, 'follow', true, err);
  const bonus = readNumber(el, 'bonus', follow ? 0.1 : 0, err, 0, 1);
  if (!follow && 'bonus' in el.attributes) err(el, 'a do-not-follow rule (follow="false") takes no bonus');
  return { id: el.attributes.id ?? '', select, follow, bonus, at: el.at };
}

function readExtract(el: XmlElement, err: Report): ExtractAction {
  const select = el.attributes.select ?? '';
  checkXPath(el, select, err);
  const fields: FieldRule[] = el.children.map((f) => {
    const format = f.attributes.format ?? 'text';
    if (format !== 'text' && format !== 'html') err(f, `format "${format}" must be text or html`);
    const fselect = f.attributes.select ?? '';
    // A field starts from its object; `(//h2)[1]` starts at the document root although it does not start with '/'.
    if (checkXPath(f, fselect, err) && startsAtDocumentRoot(treeOf(compileXPath(fselect)))) {
      err(f, `select "${fselect}" must be relative to the object (start from it, as .//h2, h2 or (.//h2)[1] do), not from the document root`);
    }
    return { name: f.attributes.name ?? '', select: fselect, format: format === 'html' ? 'html' : 'text', required: readBoolean(f, 'required', false, err), at: f.at };
  });
  if (!fields.length) err(el, 'needs at least one <field>');
  const names = new Set<string>();
  for (const f of fields) {
    if (names.has(f.name)) err(el, `duplicate field "${f.name}"`);
    names.add(f.name);
  }
  const optional = readBoolean(el, 'optional', false, err);
  return { id: el.attributes.id ?? '', type: el.attributes.type ?? '', select, fields, optional, at: el.at };
}

function checkXPath(el: XmlElement, expression: string, err: Report): boolean {
  try {
    compileXPath(expression);
    return true;
  } catch (e) {
    err(el, (e as Error).message);
    return false;
  }
}

/**
 * A `<url>` or `<header>` signal's pattern, compiled case-insensitively as it runs; refused as the
 * ICD's patterns are (regexp-safety.ts): it runs on every page's URL and headers, on the crawl's
 * thread and the cockpit's tester, and `(?=(a+)+#)` held the cockpit 20 s on a 49-character URL.
 */
function readRegExp(el: XmlElement, source: string, err: Report): RegExp | undefined {
  if (!source) {
    err(el, 'empty pattern');
    return undefined;
  }
  const problem = patternProblem(source, { caseInsensitive: true, subject: el.name === 'header' ? 'header value' : 'URL' });
  if (problem !== null) {
    err(el, problem.charAt(0).toLowerCase() + problem.slice(1));
    return undefined;
  }
  return caseInsensitiveRegExp(source);
}

function readBoolean(el: XmlElement, name: string, fallback: boolean, err: Report): boolean {
  const v = el.attributes[name];
  if (v === undefined) return fallback;
  if (v !== 'true' && v !== 'false') err(el, `${name}="${v}" must be true or false`);
  return v === 'true';
}

function readNumber(el: XmlElement, name: string, fallback: number, err: Report, min: number, max: number): number {
  const v = el.attributes[name];
  if (v === undefined) return fallback;
  const n = Number(v);
  if (v.trim() === '' || !Number.isFinite(n) || n < min || n > max) {
    err(el, `${name}="${v}" must be a number from ${min} to ${max}`);
    return fallback;
  }
  return n;
}
