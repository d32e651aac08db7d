/**
 * Pure checks of the WARC.md rules on record headers, one record at a time and across a file.
 * Each returns human-readable problems; an empty list means the rule holds.
 */
import { field } from './parse-heads';
import { parseLabelledDigest } from './warc-digest';
import { PROFILE_IDENTICAL, PROFILE_NOT_MODIFIED, type WarcFields } from './warc-fields';

const TARGETED = new Set(['response', 'resource', 'request', 'revisit']);
const KNOWN_TYPES = new Set([
  'warcinfo', 'response', 'resource', 'request', 'metadata', 'revisit', 'conversion', 'continuation',
]);
const DATE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?Z$/;
const RECORD_ID = /^<urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}>$/i;

/**
 * The rules every single record header must follow. `version` is the record's first line: WARC/1.0's
 * grammar showed WARC-Target-URI in angle brackets, which some writers (GNU wget) still follow and
 * readers strip; WARC/1.1 made the URI bare.
 */
export function checkRecordFields(fields: WarcFields, version = 'WARC/1.1'): string[] {
  const errors: string[] = [];
  const seen = new Set<string>();
  for (const [name] of fields) {
    const key = name.toLowerCase();
    if (seen.has(key) && key !== 'warc-concurrent-to') errors.push(`repeated field ${name}`);
    seen.add(key);
  }
  const type = field(fields, 'WARC-Type');
  const id = field(fields, 'WARC-Record-ID');
  const date = field(fields, 'WARC-Date');
  const length = field(fields, 'Content-Length');
  const target = field(fields, 'WARC-Target-URI');
  if (!type || !KNOWN_TYPES.has(type)) errors.push(`bad WARC-Type ${type}`);
  if (!id || !RECORD_ID.test(id)) errors.push(`bad WARC-Record-ID ${id}`);
  if (!date || !DATE.test(date)) errors.push(`bad WARC-Date ${date}`);
  if (!length || !/^\d+$/.test(length)) errors.push(`bad Content-Length ${length}`);
  if (length && Number(length) > 0 && !field(fields, 'Content-Type')) errors.push('non-empty block without Content-Type');
  if (type === 'warcinfo' && target !== undefined) errors.push('WARC-Target-URI on warcinfo');
  if (type && TARGETED.has(type)) {
    if (!target) errors.push(`no WARC-Target-URI on ${type}`);
    else {
      const uri = version === 'WARC/1.0' && /^<[^<>]*>$/.test(target) ? target.slice(1, -1) : target;
      if (uri.startsWith('<') || /\s/.test(uri)) errors.push(`WARC-Target-URI not bare: ${target}`);
    }
  }
  for (const name of ['WARC-Block-Digest', 'WARC-Payload-Digest']) {
    const d = field(fields, name);
    // WARC 1.1 recommends no algorithm: Tidemark writes sha1 in base32, warcio.js and Browsertrix sha256 in base16.
    if (d !== undefined && !parseLabelledDigest(d)) errors.push(`${name} is no digest of a known algorithm: ${d}`);
  }
  if (type !== 'warcinfo' && !field(fields, 'WARC-Block-Digest')) errors.push('no WARC-Block-Digest');
  if (type === 'warcinfo' && !field(fields, 'WARC-Filename')) errors.push('warcinfo without WARC-Filename');
  if (type === 'response' && !field(fields, 'WARC-Payload-Digest')) errors.push('response without WARC-Payload-Digest');
  if (type === 'revisit') errors.push(...checkRevisit(fields, version));
  const truncated = field(fields, 'WARC-Truncated');
  if (truncated !== undefined && !['length', 'time', 'disconnect', 'unspecified'].includes(truncated)) {
    errors.push(`bad WARC-Truncated ${truncated}`);
  }
  return errors;
}

/**
 * The revisit profiles of a record's WARC version: WARC/1.0 (ISO 28500:2009, as Heritrix 3 and wget
 * write it) named them under `/warc/1.0/`, WARC/1.1 under `/warc/1.1/`.
 */
function revisitProfiles(version: string): { identical: string; notModified: string } {
  const v10 = (uri: string) => uri.replace('/warc/1.1/', '/warc/1.0/');
  return version === 'WARC/1.0' ? { identical: v10(PROFILE_IDENTICAL), notModified: v10(PROFILE_NOT_MODIFIED) } : { identical: PROFILE_IDENTICAL, notModified: PROFILE_NOT_MODIFIED };
}

function checkRevisit(fields: WarcFields, version: string): string[] {
  const errors: string[] = [];
  const profile = field(fields, 'WARC-Profile');
  const profiles = revisitProfiles(version);
  if (profile !== profiles.identical && profile !== profiles.notModified) errors.push(`bad WARC-Profile ${profile} for ${version}`);
  if (!field(fields, 'WARC-Refers-To-Target-URI')) errors.push('revisit without WARC-Refers-To-Target-URI');
  const refDate = field(fields, 'WARC-Refers-To-Date');
  if (!refDate || !DATE.test(refDate)) errors.push(`revisit with bad WARC-Refers-To-Date ${refDate}`);
  if (!field(fields, 'WARC-Payload-Digest')) errors.push('revisit without WARC-Payload-Digest');
  if (profile === profiles.identical && Number(field(fields, 'Content-Length')) > 0 && field(fields, 'WARC-Truncated') !== 'length') {
    errors.push('identical-payload-digest revisit keeps headers without WARC-Truncated: length');
  }
  return errors;
}

/** The header facts the cross-record rules need. */
export interface RecordSummary {
  type: string;
  id: string;
  date: string;
  target?: string;
  warcinfoId?: string;
  concurrentTo: string[];
}

/** Summarises a record's fields for {@link checkFileRules}. */
export function summarize(fields: WarcFields): RecordSummary {
  return {
    type: field(fields, 'WARC-Type') ?? '',
    id: field(fields, 'WARC-Record-ID') ?? '',
    date: field(fields, 'WARC-Date') ?? '',
    target: field(fields, 'WARC-Target-URI'),
    warcinfoId: field(fields, 'WARC-Warcinfo-ID'),
    concurrentTo: fields.filter(([n]) => n.toLowerCase() === 'warc-concurrent-to').map(([, v]) => v),
  };
}

/**
 * Rules across the records of one file: warcinfo first, unique ids, WARC-Warcinfo-ID pointing
 * at this file's warcinfo, each request paired with its response/revisit (same date and URI). The
 * pair may be linked from either side: Tidemark names the response in the request, wget the
 * request in the response.
 */
export function checkFileRules(records: RecordSummary[]): string[] {
  const errors: string[] = [];
  if (!records.length) return ['no WARC records'];
  if (records[0].type !== 'warcinfo') errors.push(`first record is ${records[0].type}, not warcinfo`);
  const byId = new Map<string, RecordSummary>();
  /** Who names each record in its WARC-Concurrent-To. */
  const namedBy = new Map<string, RecordSummary[]>();
  for (const r of records) {
    if (byId.has(r.id)) errors.push(`duplicate record id ${r.id}`);
    byId.set(r.id, r);
    for (const id of r.concurrentTo) {
      const names = namedBy.get(id);
      if (names) names.push(r);
      else namedBy.set(id, [r]);
    }
  }
  for (const r of records) {
    if (r.type === 'warcinfo') continue;
    if (r.warcinfoId && byId.get(r.warcinfoId)?.type !== 'warcinfo') errors.push(`${r.id}: WARC-Warcinfo-ID not in this file`);
    if (r.type !== 'request') continue;
    const linked = [...r.concurrentTo.map((id) => byId.get(id)), ...(namedBy.get(r.id) ?? [])];
    const partner = linked.find((p) => p && (p.type === 'response' || p.type === 'revisit'));
    if (!partner) errors.push(`request ${r.id} has no concurrent response/revisit`);
    else if (partner.date !== r.date || partner.target !== r.target) {
      errors.push(`request ${r.id} and its response differ in WARC-Date or WARC-Target-URI`);
    }
  }
  return errors;
}
