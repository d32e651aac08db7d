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

/** A response's or revisit's date and URI, as a request is paired with it. */
const pairedAs = (r: Pick<RecordSummary, 'date' | 'target'>) => `${r.date}\n${r.target === undefined ? '\u0000' : ` ${r.target}`}`;
/**
 * A string of its own: a header value read from a record is a slice of the whole header's text, and
 * kept as it is (a map's key) it kept that text alive, hundreds of bytes a record.
 */
const own = (text: string) => Buffer.from(text, 'utf8').toString('utf8');
/** What the checker keeps of a warcinfo record, and of a record no request pairs with. */
const WARCINFO = '\u0001';
const OTHER = '';

/**
 * Rules across the records of one file: warcinfo first, unique ids, WARC-Warcinfo-ID pointing
 * at this file's warcinfo, each request paired with its response/revisit (same date and URI). The
 * pair may be linked from either side: Tidemark names the response in the request, wget the
 * request in the response.
 *
 * Records are added one at a time, and the checker keeps a short text per record id, not the
 * records: a list of every record's summary (and two maps of them) took about 1 KB a record, 300 MB
 * of heap for a WARC file of 150 MB of small pages, gigabytes for one of 1 GB. A request or a
 * WARC-Warcinfo-ID is judged as soon as the records it points to are read (Tidemark writes the
 * response first), else once the file is read; where ids repeat (an error already), by the records
 * read by then.
 */
export class FileRulesChecker {
  private count = 0;
  private first: string | null = null;
  private readonly duplicates: string[] = [];
  /** Problems of single records, with their place: record, then 0 for its warcinfo, 1 for its pairing. */
  private readonly found: Array<{ at: number; rule: number; problem: string }> = [];
  /** Each id read: WARCINFO, a response's or revisit's pairedAs, or OTHER (the last record with it). */
  private readonly byId = new Map<string, string>();
  /** The first response or revisit naming each id in its WARC-Concurrent-To: its pairedAs. */
  private readonly namedByPartner = new Map<string, string>();
  /** Records judged once the file is read: a WARC-Warcinfo-ID not read yet, a request whose partner is not known yet. */
  private readonly pending: Array<{ at: number; warcinfo?: { id: string; warcinfoId: string }; request?: RecordSummary }> = [];

  /** Records added so far. */
  get records(): number {
    return this.count;
  }

  add(read: RecordSummary): void {
    const r: RecordSummary = {
      type: read.type, id: own(read.id), date: own(read.date), target: read.target === undefined ? undefined : own(read.target),
      warcinfoId: read.warcinfoId === undefined ? undefined : own(read.warcinfoId), concurrentTo: read.concurrentTo.map(own),
    };
    const at = this.count++;
    if (at === 0 && r.type !== 'warcinfo') this.first = `first record is ${r.type}, not warcinfo`;
    if (this.byId.has(r.id)) this.duplicates.push(`duplicate record id ${r.id}`);
    const partner = r.type === 'response' || r.type === 'revisit';
    const paired = partner ? own(pairedAs(r)) : OTHER;
    this.byId.set(r.id, r.type === 'warcinfo' ? WARCINFO : paired);
    if (partner) for (const id of r.concurrentTo) if (!this.namedByPartner.has(id)) this.namedByPartner.set(id, paired);
    if (r.type === 'warcinfo') return;
    if (r.warcinfoId && this.byId.get(r.warcinfoId) !== WARCINFO) this.pending.push({ at, warcinfo: { id: r.id, warcinfoId: r.warcinfoId } });
    if (r.type === 'request' && !this.pairRequest(at, r, false)) this.pending.push({ at, request: r });
  }

  /** The problems found, in record order after the file's own (first record, duplicate ids). */
  finish(): string[] {
    if (!this.count) return ['no WARC records'];
    for (const p of this.pending) {
      if (p.warcinfo && this.byId.get(p.warcinfo.warcinfoId) !== WARCINFO) this.found.push({ at: p.at, rule: 0, problem: `${p.warcinfo.id}: WARC-Warcinfo-ID not in this file` });
      if (p.request) this.pairRequest(p.at, p.request, true);
    }
    this.pending.length = 0;
    const found = this.found.sort((a, b) => a.at - b.at || a.rule - b.rule).map((f) => f.problem);
    return [...(this.first ? [this.first] : []), ...this.duplicates, ...found];
  }

  /**
   * Judges a request by its partner: the first of the records it names that is a response or
   * revisit, else the first response or revisit naming it. False when that is not known yet.
   */
  private pairRequest(at: number, r: RecordSummary, fileRead: boolean): boolean {
    let partner: string | undefined;
    for (const id of r.concurrentTo) {
      const named = this.byId.get(id);
      if (named === undefined && !fileRead) return false;
      if (named !== undefined && named !== WARCINFO && named !== OTHER) {
        partner = named;
        break;
      }
    }
    partner ??= this.namedByPartner.get(r.id);
    if (partner === undefined && !fileRead) return false;
    if (partner === undefined) this.found.push({ at, rule: 1, problem: `request ${r.id} has no concurrent response/revisit` });
    else if (partner !== pairedAs(r)) this.found.push({ at, rule: 1, problem: `request ${r.id} and its response differ in WARC-Date or WARC-Target-URI` });
    return true;
  }
}

/** {@link FileRulesChecker} over a list of records. */
export function checkFileRules(records: RecordSummary[]): string[] {
  const checker = new FileRulesChecker();
  for (const r of records) checker.add(r);
  return checker.finish();
}
