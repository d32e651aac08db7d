import type { z } from 'zod';
import { icdSchema, type Icd } from './schema';
import { plainIssueMessage } from './plain-issues';

/**
 * A crawl's stored ICD that today's rules refuse (an earlier version accepted it: an exclude pattern
 * that can backtrack, a weight over 1,000…), repaired by replacing only its refused fields, so the
 * crawl goes on as the same crawl: its seeds and every other setting stay as stored. Pure: the CLI
 * (an ICD file given again) and the cockpit (fields corrected on the crawl's page) apply it.
 */

/**
 * How the reason of a crawl paused for its refused settings begins (the worker's words; a version
 * before the correction was possible marked such a crawl failed with them too, and icdRepairRefusal
 * tells such a failed crawl by it).
 */
export const STORED_ICD_REFUSED = "This crawl's definition has settings this version of Tidemark refuses (an earlier version accepted them)";

/** The ICD's sections: an issue inside one is at the section's field (`scope.exclude`), whatever its depth. */
const SECTIONS: ReadonlySet<string> = new Set(['scope', 'politeness', 'limits', 'warc', 'focus', 'aah', 'coherence']);

/**
 * The field an issue at `path` is in, the unit a repair replaces: `scope.exclude` for
 * `scope.exclude.0` (the whole list, so a pattern may be dropped as well as rewritten),
 * `focus.keywords` for `focus.keywords.3.weight`, `seeds` for `seeds.2`, a section when the
 * issue is of the section itself; `(root)` for one of the whole definition.
 */
export function refusedFieldOf(path: readonly PropertyKey[]): string {
  if (path.length === 0) return '(root)';
  const [section, field] = path;
  return SECTIONS.has(String(section)) && typeof field === 'string' ? `${String(section)}.${field}` : String(section);
}

/** A stored field today's rules refuse: its value as stored, and why (one message per issue). */
export interface RefusedField {
  field: string;
  value: unknown;
  problems: string[];
}

/** What a repair replaced: a field's stored value and the value it has now. */
export interface FieldReplacement {
  field: string;
  before: unknown;
  after: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/** The value of `field` (`seeds`, `scope.exclude`) in a definition; undefined when it has none. */
export function fieldValue(definition: unknown, field: string): unknown {
  let at: unknown = definition;
  for (const key of field.split('.')) at = isRecord(at) ? at[key] : undefined;
  return at;
}

/** `definition` with `field` set to `value` (a copy; the sections it passes through copied too). */
function withField(definition: Record<string, unknown>, field: string, value: unknown): Record<string, unknown> {
  const [section, key] = field.split('.') as [string, string | undefined];
  if (key === undefined) return { ...definition, [section]: value };
  return { ...definition, [section]: { ...(isRecord(definition[section]) ? definition[section] : {}), [key]: value } };
}

/** Parses a stored definition as today's rules do (fields of an older version dropped); messages in words. */
const parseStored = (definition: unknown) => icdSchema.safeParse(definition, { error: plainIssueMessage });

/** The stored definition's fields today's rules refuse, in the order of their first issue; empty when it is accepted. */
export function refusedFields(stored: unknown): RefusedField[] {
  const parsed = parseStored(stored);
  return parsed.success ? [] : groupByField(stored, parsed.error.issues);
}

function groupByField(stored: unknown, issues: readonly z.core.$ZodIssue[]): RefusedField[] {
  const byField = new Map<string, RefusedField>();
  for (const issue of issues) {
    const field = refusedFieldOf(issue.path);
    const entry = byField.get(field) ?? { field, value: field === '(root)' ? stored : fieldValue(stored, field), problems: [] };
    entry.problems.push(`${issue.path.map(String).join('.') || '(root)'}: ${issue.message}`);
    byField.set(field, entry);
  }
  return [...byField.values()];
}

/** What a repair came to: the ICD to resume with and what it replaced, or why not. */
export type IcdRepair =
  | { repaired: Icd; replaced: FieldReplacement[] }
  /** Not a repair of this crawl (a field that is not refused, seeds dropped…), or nothing to repair. */
  | { refused: string }
  /** The corrected definition is still refused by today's rules: the issues, at their fields. */
  | { invalid: readonly z.core.$ZodIssue[] };

/**
 * The stored definition with each refused field replaced by its value in `corrections` (field →
 * value), parsed by today's rules. Only refused fields may be corrected: the crawl keeps every other
 * setting, its seeds included (a refused seed may be corrected or dropped; the others stay), so its
 * captures and frontier remain those of one crawl. A refused field left out of `corrections` keeps
 * its stored value, and so stays refused (`invalid`).
 */
export function repairStoredIcd(stored: Record<string, unknown>, corrections: Readonly<Record<string, unknown>>): IcdRepair {
  const parsed = parseStored(stored);
  if (parsed.success) return { refused: 'Its stored settings are all accepted by this version of Tidemark: there is nothing to correct' };
  const refused = groupByField(stored, parsed.error.issues);
  const refusedNames = new Set(refused.map((r) => r.field));
  const other = Object.keys(corrections).filter((field) => !refusedNames.has(field));
  if (other.length) {
    return { refused: `Only the settings this version refuses may be replaced (${[...refusedNames].join(', ')}), not ${other.join(', ')}: a crawl keeps its other settings` };
  }
  if ('seeds' in corrections) {
    const missing = seedsDropped(stored, parsed.error.issues, corrections.seeds);
    if (missing.length) return { refused: `A crawl keeps its seeds: only a refused seed may be corrected or dropped, and ${missing.join(' ')} would be dropped` };
  }
  let definition = stored;
  for (const [field, value] of Object.entries(corrections)) definition = withField(definition, field, value);
  const repaired = parseStored(definition);
  if (!repaired.success) return { invalid: repaired.error.issues };
  const replaced = Object.keys(corrections).map((field) => ({ field, before: fieldValue(stored, field), after: fieldValue(repaired.data, field) }));
  return { repaired: repaired.data, replaced };
}

/** The stored seeds today's rules accept (each seed an issue is about left out). */
function seedsAccepted(stored: Record<string, unknown>, issues: readonly z.core.$ZodIssue[]): unknown[] {
  const before = Array.isArray(stored.seeds) ? stored.seeds : [];
  const refusedAt = new Set(issues.filter((i) => i.path[0] === 'seeds' && typeof i.path[1] === 'number').map((i) => i.path[1] as number));
  return before.filter((_, i) => !refusedAt.has(i));
}

/** The stored seeds today's rules accept that `seeds` (the corrected list) leaves out. */
function seedsDropped(stored: Record<string, unknown>, issues: readonly z.core.$ZodIssue[], seeds: unknown): string[] {
  const kept = new Set(Array.isArray(seeds) ? seeds : []);
  return seedsAccepted(stored, issues).filter((seed) => !kept.has(seed)).map(String);
}

/**
 * The stored definition as the crawl's views read it (its reports, its relevance chart): each
 * refused field left to today's default, a refused seed left out, so a crawl that waits for its
 * settings to be corrected still shows what it captured. Null when even that is refused. Never to
 * crawl with, nor to judge URLs by: a refused exclude pattern left out would take what it excluded.
 */
export function viewableIcd(stored: unknown): Icd | null {
  const parsed = parseStored(stored);
  if (parsed.success) return parsed.data;
  if (!isRecord(stored)) return null;
  let definition = stored;
  for (const { field } of groupByField(stored, parsed.error.issues)) {
    if (field === '(root)') return null;
    definition = withField(definition, field, field === 'seeds' ? seedsAccepted(stored, parsed.error.issues) : undefined);
  }
  const viewed = parseStored(definition);
  return viewed.success ? viewed.data : null;
}

/** A replacement in one line: `scope.exclude ["(a+)+$"] → ["a+$"]`. */
export function replacementLine({ field, before, after }: FieldReplacement): string {
  return `${field} ${JSON.stringify(before) ?? '(none)'} → ${JSON.stringify(after) ?? '(none)'}`;
}
