import type { IcdInput } from '../../worker/icd/schema';

/**
 * The ICD's settings beyond scope, politeness and focus, as form fields: capture and recrawl
 * (shown), and the engine's limits (under "Advanced"). One table drives the form, its values ⇄
 * ICD conversion and where a schema issue is shown, so adding a setting is one line here.
 */

type Section = 'coherence' | 'aah' | 'politeness' | 'scope' | 'limits' | 'warc';

export type SettingKind =
  | { type: 'number'; /** The form shows value ÷ scale (bytes as MB). */ scale?: number; step?: number }
  | { type: 'lines' }
  /** One line of text, stored as typed (trimmed by the schema). */
  | { type: 'text' }
  | { type: 'boolean' }
  | { type: 'choice'; options: readonly { value: string; label: string }[] }
  /** A choice among the knowledge bases stored in the cockpit (listed when the form is shown). */
  | { type: 'knowledgeBase' };

export interface SettingField {
  /** The form control's id. */
  id: string;
  path: readonly [Section, string];
  label: string;
  hint?: string;
  kind: SettingKind;
  group: 'capture' | 'advanced';
  /** Heading of the advanced fields it is shown under. */
  heading?: string;
  /** The boolean setting (its id) without which this one has no effect: the control is disabled while it is off. */
  enabledBy?: string;
}

const MB = 1024 * 1024;
const numberKind = (extra: Omit<Extract<SettingKind, { type: 'number' }>, 'type'> = {}): SettingKind => ({ type: 'number', ...extra });

export const SETTING_FIELDS: readonly SettingField[] = [
  {
    id: 'captureMode',
    path: ['coherence', 'mode'],
    label: 'Capture mode',
    hint: 'Visit–revisit fetches every page again after the first pass, to prove which pages did not change during the capture.',
    kind: {
      type: 'choice',
      options: [
        { value: 'snapshot', label: 'Snapshot (one visit per page)' },
        { value: 'snapshot-organ-pipes', label: 'Snapshot, hottest pages in the middle (less blur)' },
        { value: 'visit-revisit', label: 'Visit–revisit (coherence certificate)' },
      ],
    },
    group: 'capture',
  },
  { id: 'maxDurationMinutes', path: ['scope', 'maxDurationMinutes'], label: 'Time limit (minutes)', hint: '0: none. Past it the crawl visits no more URLs and finishes; pauses do not count.', kind: numberKind(), group: 'capture' },
  { id: 'extraHops', path: ['scope', 'extraHops'], label: 'Extra hops beyond the scope (0–3)', hint: 'Also capture pages outside the scope up to this many links away from an in-scope page (1: the pages it links to elsewhere, not their own links out). Redirects do not count; back in scope the count starts again.', kind: numberKind(), group: 'capture' },
  { id: 'maxBytes', path: ['scope', 'maxBytes'], label: 'Size limit (MB)', hint: '0: none. Once the captures add up to this much the crawl visits no more URLs and finishes.', kind: numberKind({ scale: MB }), group: 'capture' },
  { id: 'recrawlIntervalMinutes', path: ['coherence', 'recrawlIntervalMinutes'], label: 'Recrawl every (minutes)', hint: '0: no scheduled recrawls. A crawl with recrawls or feeds runs until it is stopped.', kind: numberKind(), group: 'capture' },
  { id: 'feeds', path: ['coherence', 'feeds'], label: 'Feeds to monitor', hint: 'RSS, Atom or JSON Feed URLs, one per line; their new articles are fetched first.', kind: { type: 'lines' }, group: 'capture' },
  { id: 'minFeedPollMinutes', path: ['coherence', 'minFeedPollMinutes'], label: 'Poll a feed at most every (minutes)', kind: numberKind(), group: 'capture' },
  { id: 'aahEnabled', path: ['aah', 'enabled'], label: 'Recognise web applications with the knowledge base', kind: { type: 'boolean' }, group: 'capture' },
  {
    id: 'aahKnowledgeBase',
    path: ['aah', 'knowledgeBase'],
    label: 'Knowledge base',
    hint: 'One of those on the Knowledge base page. A crawl keeps a copy of it as it is when the crawl is started: later edits change the next crawls.',
    kind: { type: 'knowledgeBase' },
    group: 'capture',
    enabledBy: 'aahEnabled',
  },

  { id: 'concurrency', path: ['politeness', 'concurrency'], label: 'Fetches at once', hint: 'Politeness allows one per host at a time, so more than the number of hosts adds nothing.', kind: numberKind(), group: 'advanced', heading: 'Politeness' },
  { id: 'delayFactor', path: ['politeness', 'delayFactor'], label: 'Delay factor', hint: 'Wait this many times the last response time (within min and max delay).', kind: numberKind({ step: 0.1 }), group: 'advanced', heading: 'Politeness' },
  { id: 'ignoreRobotsFor', path: ['politeness', 'ignoreRobotsFor'], label: 'Ignore robots.txt for', hint: 'URL prefixes, one per line, e.g. https://example.org/private/ (without a scheme: http and https).', kind: { type: 'lines' }, group: 'advanced', heading: 'Politeness' },

  { id: 'surtPrefixes', path: ['scope', 'surtPrefixes'], label: 'SURT prefixes in scope', hint: 'Besides the seeds\' hosts; one per line, e.g. (org,example,)/news', kind: { type: 'lines' }, group: 'advanced', heading: 'Scope' },
  {
    id: 'queryHandling',
    path: ['scope', 'queryHandling'],
    label: 'Query strings',
    kind: { type: 'choice', options: [{ value: 'keep', label: 'Keep as found' }, { value: 'sort', label: 'Sort parameters' }, { value: 'strip', label: 'Strip' }] },
    group: 'advanced',
    heading: 'Scope',
  },
  { id: 'maxUrlLength', path: ['scope', 'maxUrlLength'], label: 'Max URL length', kind: numberKind(), group: 'advanced', heading: 'Scope' },
  { id: 'maxQueryVariantsPerPath', path: ['scope', 'maxQueryVariantsPerPath'], label: 'Query variants per path (trap cap)', kind: numberKind(), group: 'advanced', heading: 'Scope' },
  { id: 'maxCalendarDates', path: ['scope', 'maxCalendarDates'], label: 'Calendar dates per path (trap cap)', kind: numberKind(), group: 'advanced', heading: 'Scope' },
  { id: 'maxOutLinksPerPage', path: ['scope', 'maxOutLinksPerPage'], label: 'Links followed per page', kind: numberKind(), group: 'advanced', heading: 'Scope' },
  { id: 'includeRequisites', path: ['scope', 'includeRequisites'], label: 'Fetch page requisites (CSS, scripts, images) out of scope', kind: { type: 'boolean' }, group: 'advanced', heading: 'Scope' },
  { id: 'includeFavicon', path: ['scope', 'includeFavicon'], label: 'Fetch each site\'s /favicon.ico, as a browser does', kind: { type: 'boolean' }, group: 'advanced', heading: 'Scope' },
  { id: 'submitGetForms', path: ['scope', 'submitGetForms'], label: 'Fetch GET forms as a browser submits them, with their default values', hint: 'Off: the form\'s action as written, as Heritrix takes it. On, every page\'s search and sort forms are fetched, once a page.', kind: { type: 'boolean' }, group: 'advanced', heading: 'Scope' },
  { id: 'allowPrivateAddresses', path: ['scope', 'allowPrivateAddresses'], label: 'Fetch from private, loopback and link-local addresses (cloud metadata included) whatever the seeds are', kind: { type: 'boolean' }, group: 'advanced', heading: 'Scope' },

  { id: 'connectTimeoutMs', path: ['limits', 'connectTimeoutMs'], label: 'Connect timeout (ms)', kind: numberKind(), group: 'advanced', heading: 'Fetching' },
  { id: 'headersTimeoutMs', path: ['limits', 'headersTimeoutMs'], label: 'Headers timeout (ms)', kind: numberKind(), group: 'advanced', heading: 'Fetching' },
  { id: 'totalTimeoutMs', path: ['limits', 'totalTimeoutMs'], label: 'Total timeout per fetch (ms)', kind: numberKind(), group: 'advanced', heading: 'Fetching' },
  { id: 'maxRetries', path: ['limits', 'maxRetries'], label: 'Retries on 5xx and connection errors', kind: numberKind(), group: 'advanced', heading: 'Fetching' },
  { id: 'hostFailuresBeforeBackoff', path: ['limits', 'hostFailuresBeforeBackoff'], label: 'URLs without answer before a host is backed off', hint: 'In a row, after their retries; 0: never back off.', kind: numberKind(), group: 'advanced', heading: 'Fetching' },
  { id: 'hostBackoffMs', path: ['limits', 'hostBackoffMs'], label: 'First back-off of a host without answer (ms)', hint: 'Then one URL is tried; the wait doubles while none answers, up to 30 minutes.', kind: numberKind(), group: 'advanced', heading: 'Fetching' },
  { id: 'hostGiveUpMs', path: ['limits', 'hostGiveUpMs'], label: 'Give up a host without answer after (ms)', hint: 'Its waiting URLs then fail as host-unreachable; 0: never.', kind: numberKind(), group: 'advanced', heading: 'Fetching' },
  { id: 'maxBodyBytes', path: ['limits', 'maxBodyBytes'], label: 'Max response size (MB)', hint: 'Longer responses are stored cut, marked WARC-Truncated.', kind: numberKind({ scale: MB, step: 0.1 }), group: 'advanced', heading: 'Fetching' },
  { id: 'verifyCertificates', path: ['limits', 'verifyCertificates'], label: 'Verify HTTPS certificates', hint: 'Off: sites whose certificate is expired, self-signed or for another name are archived too, as Heritrix and Browsertrix do.', kind: { type: 'boolean' }, group: 'advanced', heading: 'Fetching' },
  { id: 'maxDecodedBytes', path: ['limits', 'maxDecodedBytes'], label: 'Max decompressed size (MB)', hint: 'Stops compression bombs.', kind: numberKind({ scale: MB, step: 0.1 }), group: 'advanced', heading: 'Fetching' },

  { id: 'warcOperator', path: ['warc', 'operator'], label: 'Operator (in each WARC file\'s warcinfo)', hint: 'Who made the capture: the archive and a contact, e.g. "Harbour Library web archive, archive@example.org".', kind: { type: 'text' }, group: 'advanced', heading: 'WARC' },
  { id: 'rotateBytes', path: ['warc', 'rotateBytes'], label: 'WARC file size (MB)', hint: 'A new file is started past this size.', kind: numberKind({ scale: MB }), group: 'advanced', heading: 'WARC' },
  { id: 'gzipLevel', path: ['warc', 'gzipLevel'], label: 'Gzip level (0–9)', hint: '1 is fast; higher levels save a little space for much more CPU.', kind: numberKind(), group: 'advanced', heading: 'WARC' },
];

export type SettingValues = Record<string, string | boolean>;

/**
 * The options of the knowledge-base select: the stored knowledge bases (`stored`, undefined while
 * they load) and, when the ICD names one that is not stored, that one too, saying so: a crawl of
 * it would be refused, and the select must not show another name than the one saved.
 */
export function knowledgeBaseOptions(stored: readonly string[] | undefined, current: string): { value: string; label: string }[] {
  const options = (stored ?? []).map((name) => ({ value: name, label: name }));
  if (current && !stored?.includes(current)) options.unshift({ value: current, label: stored ? `${current} (not stored: a crawl of it is refused)` : current });
  return options;
}

type Sections = Partial<Record<Section, Record<string, unknown>>>;

/** Form values of the settings, from a parsed ICD (defaults filled in). */
export function settingValuesFromIcd(icd: Record<Section, Record<string, unknown>>): SettingValues {
  const out: SettingValues = {};
  for (const f of SETTING_FIELDS) {
    const value = icd[f.path[0]][f.path[1]];
    if (f.kind.type === 'boolean') out[f.id] = value === true;
    else if (f.kind.type === 'lines') out[f.id] = ((value as string[] | undefined) ?? []).join('\n');
    else if (f.kind.type === 'number') out[f.id] = value === undefined ? '' : String(Number(value) / (f.kind.scale ?? 1));
    else out[f.id] = String(value ?? '');
  }
  return out;
}

const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);

/** The settings' sections of an ICD, each on top of the stored one (`base`). */
export function settingSections(values: SettingValues, base: Partial<IcdInput>): Sections {
  const out: Sections = {};
  for (const f of SETTING_FIELDS) {
    const [section, key] = f.path;
    const into = (out[section] ??= { ...((base[section] as Record<string, unknown> | undefined) ?? {}) });
    const value = values[f.id];
    if (f.kind.type === 'boolean') into[key] = value === true;
    else if (f.kind.type === 'lines') into[key] = lines(String(value ?? ''));
    else if (f.kind.type === 'choice' || f.kind.type === 'knowledgeBase') into[key] = String(value ?? '') || undefined;
    else if (f.kind.type === 'text') into[key] = String(value ?? '');
    else into[key] = numberOf(String(value ?? ''), f.kind.scale ?? 1);
  }
  return out;
}

/**
 * A number field's value written in decimal (an exponent too: a tiny stored weight shows as 1e-7),
 * else NaN, which the schema names; undefined when empty. Number() alone also reads 0x10 and 0b1.
 */
export function decimalNumber(text: string): number | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  return /^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t) ? Number(t) : Number.NaN;
}

/** An empty field takes the default; scaled fields are whole numbers of the unit's base (bytes). */
function numberOf(text: string, scale: number): number | undefined {
  const n = decimalNumber(text);
  return n === undefined || scale === 1 || !Number.isFinite(n) ? n : Math.round(n * scale);
}

/** The setting a schema path belongs to (a line of a list field included), if any. */
export function settingForPath(path: readonly string[]): SettingField | undefined {
  return SETTING_FIELDS.find((f) => path[0] === f.path[0] && path[1] === f.path[1]);
}

/** A schema message for the form: bounds of a field shown in MB are stated in MB too. */
export function settingMessage(field: SettingField, message: string): string {
  const scale = field.kind.type === 'number' ? field.kind.scale : undefined;
  if (!scale) return message;
  return message.replace(/-?\d+(\.\d+)?/g, (n) => `${Number((Number(n) / scale).toPrecision(3))} MB`);
}

/** True when one of the form field `ids` is an advanced setting: that section must be open to show its error. */
export function touchesAdvanced(ids: readonly string[]): boolean {
  return ids.some((id) => SETTING_FIELDS.some((f) => f.group === 'advanced' && f.id === id));
}
