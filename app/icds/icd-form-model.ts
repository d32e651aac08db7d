import { icdSchema, type Icd, type IcdInput } from '../../worker/icd/schema';
import { UNKNOWN_FIELD, unknownKeys } from '../../worker/icd/unknown-keys';
import { focusSettingProblems } from '../../worker/icd/focus-settings';
import { plainIssueMessage } from '../../worker/icd/plain-issues';
import type { ApiIssue } from '../lib/client/api';
import { seedItems } from './seed-list';
import { decimalNumber, SETTING_FIELDS, settingForPath, settingMessage, settingSections, settingValuesFromIcd, type SettingValues } from './settings-fields';

/**
 * The ICD form's model, pure: form values (strings, as inputs hold them) ⇄ ICD input, and zod
 * issues → the field each belongs to. The one shared schema (worker/icd/schema.ts) validates.
 */

export interface KeywordRow { term: string; weight: string }
export interface EntityRow { name: string; type: string; aliases: string }
export interface UrlPatternRow { pattern: string; weight: string }

export const MODULES = ['text', 'urlPattern', 'spam', 'entity', 'aah'] as const;
export const MODULE_LABELS: Record<(typeof MODULES)[number], string> = {
  text: 'Text relevance',
  urlPattern: 'URL patterns',
  spam: 'Spam-link filter',
  entity: 'Entity match',
  aah: 'Application-Aware Helper',
};
export const UPDATE_FUNCTIONS = ['FIRST', 'LAST', 'MAX', 'AVG', 'SUM'] as const;
export const ENTITY_TYPES = ['person', 'organisation', 'location', 'event'] as const;

export interface IcdFormValues {
  name: string;
  description: string;
  seeds: string;
  allowedHosts: string;
  include: string;
  exclude: string;
  maxDepth: string;
  maxPages: string;
  maxPagesPerHost: string;
  respectRobots: boolean;
  minDelayMs: string;
  maxDelayMs: string;
  userAgent: string;
  /** Keep the cookies sites set (ICD `cookies`). */
  cookies: boolean;
  focusEnabled: boolean;
  keywords: KeywordRow[];
  entities: EntityRow[];
  topics: string;
  urlPatterns: UrlPatternRow[];
  blacklist: string;
  moduleWeights: Record<(typeof MODULES)[number], string>;
  updateFunction: string;
  batchEnabled: boolean;
  batchBl: string;
  relevanceThreshold: string;
  relevanceWindow: string;
  /** ISO 639-3 code, '' = detect per text. */
  language: string;
  referencePages: string;
  referenceDepth: string;
  /** Capture, recrawl and advanced settings, by field id (settings-fields.ts). */
  settings: SettingValues;
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
const str = (n: number | undefined) => (n === undefined ? '' : String(n));
const num = decimalNumber;

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * `raw` over `defaults`, field by field: a value of the default's type (any list for a list) is
 * kept, one of another type gives way to the default; optional fields the defaults lack are kept
 * when they are plain values.
 */
function overDefaults(defaults: unknown, raw: unknown): unknown {
  if (isPlainObject(defaults)) {
    if (!isPlainObject(raw)) return defaults;
    const out: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(raw)) if (!Object.hasOwn(defaults, key) && ['string', 'number', 'boolean'].includes(typeof value)) out[key] = value;
    for (const key of Object.keys(defaults)) out[key] = overDefaults(defaults[key], raw[key]);
    return out;
  }
  if (Array.isArray(defaults)) return Array.isArray(raw) ? raw : defaults;
  return typeof raw === typeof defaults ? raw : defaults;
}

const text = (v: unknown): string => (typeof v === 'string' ? v : typeof v === 'number' ? String(v) : '');
const texts = (v: unknown): string[] => (Array.isArray(v) ? v.map(text) : []);

/**
 * Form values for an ICD, with the schema's defaults filled in for a new one. A stored ICD the
 * schema now refuses (stored before a bound was added) is shown as stored, so the form names its
 * faults; built from the defaults instead, a save would have replaced every setting with them.
 */
export function formValuesFromIcd(input: IcdInput | null): IcdFormValues {
  const defaults = icdSchema.parse({ name: 'x', seeds: ['http://x.invalid/'] });
  const parsed = icdSchema.safeParse(input ?? { name: 'x', seeds: ['http://x.invalid/'] });
  const icd = parsed.success ? parsed.data : (overDefaults(defaults, input) as Icd);
  const raw = input ?? null;
  const f = icd.focus;
  return {
    name: raw?.name ?? '',
    description: raw?.description ?? '',
    seeds: raw ? texts(raw.seeds).join('\n') : '',
    allowedHosts: icd.scope.allowedHosts.join('\n'),
    include: icd.scope.include.join('\n'),
    exclude: icd.scope.exclude.join('\n'),
    maxDepth: str(icd.scope.maxDepth),
    maxPages: str(icd.scope.maxPages),
    maxPagesPerHost: str(icd.scope.maxPagesPerHost),
    respectRobots: icd.politeness.respectRobots,
    minDelayMs: str(icd.politeness.minDelayMs),
    maxDelayMs: str(icd.politeness.maxDelayMs),
    userAgent: icd.userAgent,
    cookies: icd.cookies,
    focusEnabled: f.enabled,
    keywords: f.keywords.map((k) => ({ term: text(k?.term), weight: text(k?.weight) })),
    entities: f.entities.map((e) => ({ name: text(e?.name), type: text(e?.type), aliases: texts(e?.aliases).join('\n') })),
    topics: f.topics.join('\n'),
    urlPatterns: f.urlPatterns.map((p) => ({ pattern: text(p?.pattern), weight: text(p?.weight) })),
    blacklist: f.blacklist.join('\n'),
    moduleWeights: Object.fromEntries(MODULES.map((m) => [m, str(f.moduleWeights[m])])) as IcdFormValues['moduleWeights'],
    updateFunction: f.updateFunction,
    batchEnabled: f.batch.enabled,
    batchBl: str(f.batch.bl),
    relevanceThreshold: str(f.relevanceThreshold),
    relevanceWindow: str(f.relevanceWindow),
    language: f.language ?? '',
    referencePages: str(f.referenceCrawl.maxPages),
    referenceDepth: str(f.referenceCrawl.maxDepth),
    settings: settingValuesFromIcd(icd),
  };
}

/**
 * The ICD the form describes, on top of `base` (the stored definition), so settings the form
 * does not show (topic terms, politeness on/off) are kept.
 */
export function icdFromFormValues(v: IcdFormValues, base: IcdInput | null): IcdInput {
  const b = (base ?? {}) as Partial<IcdInput>;
  const weights = Object.fromEntries(MODULES.map((m) => [m, num(v.moduleWeights[m])]));
  const settings = settingSections(v.settings, b);
  return {
    ...b,
    ...settings,
    name: v.name,
    description: v.description,
    seeds: seedItems(v.seeds).map((s) => s.url),
    scope: {
      ...settings.scope,
      allowedHosts: lines(v.allowedHosts),
      include: lines(v.include),
      exclude: lines(v.exclude),
      maxDepth: num(v.maxDepth),
      maxPages: num(v.maxPages),
      maxPagesPerHost: num(v.maxPagesPerHost),
    },
    politeness: { ...settings.politeness, respectRobots: v.respectRobots, minDelayMs: num(v.minDelayMs), maxDelayMs: num(v.maxDelayMs) },
    userAgent: v.userAgent.trim() === '' ? undefined : v.userAgent,
    cookies: v.cookies,
    focus: {
      ...withoutLanguage(b.focus),
      enabled: v.focusEnabled,
      keywords: v.keywords.filter((k) => k.term.trim() || k.weight.trim()).map((k) => ({ term: k.term, weight: num(k.weight) })),
      entities: v.entities
        .filter((e) => e.name.trim() || e.aliases.trim())
        .map((e) => ({ name: e.name, type: e.type as (typeof ENTITY_TYPES)[number], aliases: lines(e.aliases) })),
      topics: lines(v.topics),
      urlPatterns: v.urlPatterns.filter((p) => p.pattern.trim() || p.weight.trim()).map((p) => ({ pattern: p.pattern, weight: num(p.weight) as number })),
      blacklist: lines(v.blacklist),
      moduleWeights: weights as NonNullable<IcdInput['focus']>['moduleWeights'],
      updateFunction: v.updateFunction as (typeof UPDATE_FUNCTIONS)[number],
      batch: { enabled: v.batchEnabled, bl: num(v.batchBl) },
      relevanceThreshold: num(v.relevanceThreshold),
      relevanceWindow: num(v.relevanceWindow),
      ...(v.language.trim() ? { language: v.language.trim().toLowerCase() } : {}),
      referenceCrawl: { maxPages: num(v.referencePages), maxDepth: num(v.referenceDepth) },
    },
  };
}

/** The base's focus minus its language: the form shows the language, so an emptied field clears it. */
function withoutLanguage(focus: IcdInput['focus']): IcdInput['focus'] {
  if (!focus) return focus;
  const { language: _shown, ...rest } = focus;
  return rest;
}

/** Fields shown as one-item-per-line text areas: an issue on item i is reported as its line. */
const LINE_FIELDS: Record<string, string> = {
  seeds: 'seeds',
  'scope.allowedHosts': 'allowedHosts',
  'scope.include': 'include',
  'scope.exclude': 'exclude',
  'focus.topics': 'topics',
  'focus.blacklist': 'blacklist',
};

/** List settings, shown one item per line like LINE_FIELDS. */
const LINE_SETTINGS = SETTING_FIELDS.filter((f) => f.kind.type === 'lines').map((f) => f.path.join('.'));

/** Where a schema path is shown in the form: the form field's id. */
export function fieldIdForPath(path: readonly PropertyKey[]): string {
  const parts = path.map(String);
  const joined = parts.join('.');
  for (const [prefix, id] of Object.entries(LINE_FIELDS)) if (joined === prefix || joined.startsWith(`${prefix}.`)) return id;
  const setting = settingForPath(parts);
  if (setting) return setting.id;
  const [section, key, index, sub] = parts;
  if (section === 'focus' && (key === 'keywords' || key === 'entities' || key === 'urlPatterns')) {
    if (index === undefined) return key;
    return `${key}.${index}.${sub ?? (key === 'entities' ? 'name' : key === 'keywords' ? 'term' : 'pattern')}`;
  }
  const simple: Record<string, string> = {
    name: 'name',
    description: 'description',
    userAgent: 'userAgent',
    cookies: 'cookies',
    'scope.maxDepth': 'maxDepth',
    'scope.maxPages': 'maxPages',
    'scope.maxPagesPerHost': 'maxPagesPerHost',
    'politeness.respectRobots': 'respectRobots',
    'politeness.minDelayMs': 'minDelayMs',
    'politeness.maxDelayMs': 'maxDelayMs',
    'focus.enabled': 'focusEnabled',
    'focus.updateFunction': 'updateFunction',
    'focus.batch.enabled': 'batchEnabled',
    'focus.batch.bl': 'batchBl',
    'focus.relevanceThreshold': 'relevanceThreshold',
    'focus.relevanceWindow': 'relevanceWindow',
    'focus.language': 'language',
    'focus.referenceCrawl.maxPages': 'referencePages',
    'focus.referenceCrawl.maxDepth': 'referenceDepth',
  };
  if (simple[joined]) return simple[joined]!;
  if (section === 'focus' && key === 'moduleWeights' && index) return `moduleWeights.${index}`;
  return 'form';
}

/**
 * The message shown for an issue: items of a line field are named by their line. `seedLines` is the
 * line of each seed (seedItems): a line may hold several, so a seed's index is not its line.
 */
export function messageForIssue(issue: { path: readonly PropertyKey[]; message: string }, seedLines: readonly number[] = []): string {
  const parts = issue.path.map(String);
  const joined = parts.join('.');
  const setting = settingForPath(parts);
  if (setting && setting.kind.type !== 'lines') return settingMessage(setting, issue.message);
  for (const prefix of [...Object.keys(LINE_FIELDS), ...LINE_SETTINGS]) {
    if (joined.startsWith(`${prefix}.`)) {
      const index = Number(joined.slice(prefix.length + 1).split('.')[0]);
      if (Number.isInteger(index)) return `Line ${(prefix === 'seeds' ? seedLines[index] : undefined) ?? index + 1}: ${issue.message}`;
    }
  }
  return issue.message;
}

export type FieldErrors = Record<string, string[]>;

/** Groups issues (from zod on the client or a 400 from the server) by form field; `seedLines` as in messageForIssue. */
export function fieldErrors(issues: readonly { path: readonly PropertyKey[]; message: string }[], seedLines: readonly number[] = []): FieldErrors {
  const out: FieldErrors = {};
  for (const issue of issues) {
    const id = fieldIdForPath(issue.path);
    const message = messageForIssue(issue, seedLines);
    (out[id] ??= []).includes(message) || out[id]!.push(message);
  }
  return out;
}

/** Validates form values with the shared schema; issues grouped by field, or the ICD when valid. */
export function validateForm(values: IcdFormValues, base: IcdInput | null): { icd: IcdInput; errors: FieldErrors } {
  const icd = icdFromFormValues(values, base);
  const result = icdSchema.safeParse(icd, { error: plainIssueMessage });
  // Valid field by field, a focus may still never work (all weights 0): the server refuses it too.
  const issues = result.success ? focusSettingProblems(result.data.focus) : result.error.issues;
  return { icd, errors: fieldErrors(issues, seedLinesOf(values)) };
}

/** The issues of a save the server refused, for the form whose `values` were sent. */
export function issuesFromApi(issues: ApiIssue[], values?: IcdFormValues): FieldErrors {
  return fieldErrors(issues, values ? seedLinesOf(values) : []);
}

const seedLinesOf = (values: IcdFormValues): number[] => seedItems(values.seeds).map((s) => s.line);

/**
 * An ICD file (as `npx tidemark crawl` reads it) for the form: the definition, or why it cannot
 * be loaded — not JSON, or not a valid ICD (each issue with the field it concerns).
 */
export function icdFromJsonText(text: string): { icd: IcdInput } | { errors: string[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (err) {
    return { errors: [`Not JSON: ${(err as Error).message}`] };
  }
  const result = icdSchema.safeParse(json, { error: plainIssueMessage });
  if (!result.success) return { errors: result.error.issues.map((i) => (i.path.length ? `${i.path.join('.')}: ${i.message}` : i.message)) };
  // As `tidemark crawl` and the API do, a misspelt field is refused rather than left to its default.
  const unknown = unknownKeys(json, result.data);
  if (unknown.length) return { errors: unknown.map((path) => `${path}: ${UNKNOWN_FIELD}`) };
  return { icd: json as IcdInput };
}

/** A file name for an ICD's JSON: its name in lower case, words joined by dashes. */
export function icdFileName(name: string): string {
  // NFKD splits accented letters into letter + combining mark; the marks are dropped.
  const slug = name.toLowerCase().normalize('NFKD').replace(/\p{M}/gu, '').replace(/[^a-z0-9]+/g, '-').replace(/^-+|-+$/g, '').slice(0, 60);
  return `${slug || 'crawl-definition'}.icd.json`;
}
