import { z } from 'zod';
import { HOST_OF_URL_SQL } from '../store/sql-url';
import { urlContainsTextSql } from '../store/text-search-sql';

/**
 * A collection: the part of a crawl a manager exports. Without a selection an export hands out the
 * crawl's WARC files as written (taken into the export's folder); with one, new WARC files hold copies of the chosen records only (each
 * record is its own gzip member, so a copy is the member's bytes: digests stay valid). Pure: the
 * selection's schema and SQL, and which records a collection needs.
 */

const STATUS_CLASSES = ['2xx', '3xx', '4xx', '5xx'] as const;
/** A page's status in a visit–revisit capture (CoherencePage.status). */
/** What an export hands out: the WARC files and their CDXJ index, or one WACZ package of them (wacz-package.ts). */
export const EXPORT_FORMATS = ['warc', 'wacz'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const COHERENCE_STATUSES = ['unchanged', 'content-changed', 'links-changed', 'missing'] as const;
const lines = (max: number, what: string) =>
  z.array(z.string().trim().min(1, `an empty ${what}`).max(2000)).max(max, `at most ${max} ${what}s`);

/** What goes into a collection: captures matching every given filter (an empty list: no filter). */
export const collectionSelectionSchema = z
  .object({
    /** Host names (with port when not the default), as in the capture's URL, in either case; a URL names its host (selectedHost). */
    hosts: lines(1000, 'host').default([]),
    /** MIME types or their prefixes ("text/html", "image/"). */
    mimeTypes: lines(100, 'MIME type').default([]),
    statusClasses: z.array(z.enum(STATUS_CLASSES)).max(4).default([]),
    /** Text the capture's URL contains, as the captures' filter matches it (store/text-search-sql.ts). */
    urlContains: z.string().trim().max(2000).default(''),
    /** Pages of a visit–revisit capture with these statuses (their visit and their revisit, not later recrawls of them). */
    coherence: z.array(z.enum(COHERENCE_STATUSES)).max(4).default([]),
    /**
     * Whether the selected pages bring their requisites, so that they replay as captured (see
     * takesRequisites). Absent: yes, unless the selection filters by MIME type.
     */
    requisites: z.boolean().optional(),
  })
  .strict();

export type CollectionSelection = z.infer<typeof collectionSelectionSchema>;

/** True when the selection filters nothing (the export is then the crawl's own files, requisites and all). */
export function selectsEverything(s: CollectionSelection): boolean {
  return !s.hosts.length && !s.mimeTypes.length && !s.statusClasses.length && !s.urlContains && !s.coherence.length;
}

type SelectionText = Partial<Record<'hosts' | 'mimeTypes' | 'statusClasses' | 'coherence', readonly string[]>> & { urlContains?: string; requisites?: boolean };

/**
 * Whether a collection brings its pages' requisites (images, stylesheets, scripts, fonts, frames:
 * collection-walk.ts): as asked, else yes, as Browsertrix and pywb collections replay their pages
 * whole, unless the selection filters by MIME type: a manager who asked for `text/html` gets only
 * HTML. Asked for with a MIME filter, they are those of its types only.
 */
export function takesRequisites(s: Pick<SelectionText, 'mimeTypes' | 'requisites'>): boolean {
  return s.requisites ?? !s.mimeTypes?.length;
}

/** One line for people (and the collection's warcinfo record); absent filters are none. */
export function describeSelection(s: SelectionText): string {
  const parts: string[] = [];
  if (s.hosts?.length) parts.push(`hosts ${s.hosts.join(', ')}`);
  if (s.mimeTypes?.length) parts.push(`MIME types ${s.mimeTypes.join(', ')}`);
  if (s.statusClasses?.length) parts.push(`statuses ${s.statusClasses.join(', ')}`);
  if (s.urlContains) parts.push(`URLs containing "${s.urlContains}"`);
  if (s.coherence?.length) parts.push(`pages ${s.coherence.join(', ')} between visit and revisit`);
  if (!parts.length) return 'every capture';
  if (takesRequisites(s)) parts.push("with the pages' requisites");
  return parts.join('; ');
}

/**
 * describeSelection of an export's stored selection: one stored before requisites existed took
 * none (the export request now stores whether it takes them).
 */
export function describeStoredSelection(s: SelectionText): string {
  return describeSelection({ requisites: false, ...s });
}

/** Whether a capture's MIME type is one of `mimeTypes` or starts with one, in either case, as selectionSql matches it. */
export function mimeSelected(mime: string | null, mimeTypes: readonly string[]): boolean {
  const lower = mime?.toLowerCase();
  return lower !== undefined && mimeTypes.some((m) => lower.startsWith(m.toLowerCase()));
}


/**
 * A host of the selection as the captures' URLs write it (lower case, with its port when not the
 * scheme's default, IDN in punycode): an entry pasted as a URL (`HTTP://127.0.0.1:4102/`) or with a
 * path names its host, as an ICD's allowedHosts entry does; a bare host keeps the port written.
 */
export function selectedHost(entry: string): string {
  const text = entry.trim().toLowerCase();
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//.test(text);
  // The root's trailing dot is no part of the captures' hosts (canonical URLs drop it).
  if (!withScheme && !/[/?#]/.test(text) && /^[\x00-\x7f]*$/.test(text)) return text.replace(/\.(?=(?::\d+)?$)/, '');
  try {
    const url = new URL(withScheme ? text : `http://${text}`);
    // Without a scheme, a port written is kept even when it is http's default (an https site on port 80).
    const port = withScheme ? url.port : (/^[^/?#]*?:(\d+)(?:[/?#]|$)/.exec(text)?.[1] ?? '');
    return url.hostname.replace(/\.$/, '') + (port ? `:${port}` : '');
  } catch {
    return text;
  }
}

/** The WHERE clause (after `crawlId = ?`) and its parameters that pick a selection's captures. */
export function selectionSql(s: CollectionSelection): { where: string; params: (string | number)[] } {
  const clauses: string[] = [];
  const params: (string | number)[] = [];
  if (s.hosts.length) {
    clauses.push(`lower(${HOST_OF_URL_SQL}) IN (${s.hosts.map(() => '?').join(', ')})`);
    params.push(...s.hosts.map(selectedHost));
  }
  if (s.mimeTypes.length) {
    // A prefix match, by hand: LIKE would read "_" and "%" in a MIME type as wildcards.
    clauses.push(`(${s.mimeTypes.map(() => 'substr(lower(mime), 1, ?) = ?').join(' OR ')})`);
    for (const m of s.mimeTypes) params.push(m.length, m.toLowerCase());
  }
  if (s.statusClasses.length) {
    clauses.push(`status / 100 IN (${s.statusClasses.map(() => '?').join(', ')})`);
    params.push(...s.statusClasses.map((c) => Number(c[0])));
  }
  if (s.urlContains) {
    // As the captures' and crawl log's filters match it: letters in either case, other scripts read in the URL as decoded.
    const contains = urlContainsTextSql(['url'], s.urlContains);
    clauses.push(contains.sql);
    params.push(...(contains.params as string[]));
  }
  if (s.coherence.length) {
    // The page's visit and revisit only, the captures its status compares (the revisit's time is
    // its capture's, or later when the revisit failed): a recrawl round's later capture of it was
    // compared with nothing here, and the certificate vouches for none. `fetchedAt` is unqualified
    // so that it is the capture's the clause is applied to (an aliased one in a subquery too):
    // CoherencePage has no such column.
    clauses.push(
      `EXISTS (SELECT 1 FROM CoherencePage p WHERE p.crawlId = Capture.crawlId AND p.url = Capture.url AND p.status IN (${s.coherence.map(() => '?').join(', ')})` +
      ' AND fetchedAt BETWEEN p.visitedAt AND COALESCE(p.revisitedAt, p.visitedAt))',
    );
    params.push(...s.coherence);
  }
  return { where: clauses.length ? clauses.map((c) => ` AND ${c}`).join('') : '', params };
}

/**
 * `SELECT <columns>` over the captures (responses and revisits) of one crawl that a selection
 * picks, with `also` (e.g. "AND recordType = 'revisit'") added: run it with the crawl id, then `params`.
 */
export function selectedCapturesSql(s: CollectionSelection, columns: string, also = ''): { sql: string; params: (string | number)[] } {
  const { where, params } = selectionSql(s);
  return { sql: `SELECT ${columns} FROM Capture WHERE crawlId = ? AND recordType IN ('response', 'revisit') ${also}${where}`, params };
}

/**
 * `SELECT captures, bytes` of the collection a selection makes: the selected responses and revisits,
 * the captures it holds besides (`added`: Capture ids of the redirects' targets and the pages'
 * requisites, collection-additions.ts), and the response each revisit among them repeats (its
 * payload's first in the crawl, as the writer copies it along: planCollection) when they lack it;
 * `bind` gives the parameters from the crawl id and those ids. The preview counted the selection
 * alone: a selection of revisits whose payloads another host served said half of what the
 * collection held, and one of moved pages left out where they went.
 */
export function collectionSizeSql(s: CollectionSelection): { sql: string; bind: (crawlId: number, added: readonly number[]) => (string | number)[] } {
  const { sql: selected, params } = selectedCapturesSql(s, 'id, size, recordType, payloadDigest');
  const sql = `WITH sel AS (${selected} UNION SELECT id, size, recordType, payloadDigest FROM Capture WHERE crawlId = ? AND id IN (SELECT value FROM json_each(?))),
    repeated AS (SELECT DISTINCT payloadDigest FROM sel WHERE recordType = 'revisit' AND payloadDigest IS NOT NULL),
    originals AS (SELECT MIN(c.id) AS id FROM Capture c JOIN repeated r ON c.payloadDigest = r.payloadDigest WHERE c.crawlId = ? AND c.recordType = 'response' GROUP BY c.payloadDigest)
    SELECT COUNT(*) AS captures, COALESCE(SUM(size), 0) AS bytes FROM (SELECT id, size FROM sel UNION SELECT c.id, c.size FROM originals o JOIN Capture c ON c.id = o.id)`;
  return { sql, bind: (crawlId, added) => [crawlId, ...params, crawlId, JSON.stringify(added), crawlId] };
}

/** A record of the crawl's WARC files, as a member scan reads its header. */
export interface StoredRecordHead {
  file: string;
  offset: number;
  length: number;
  type: string;
  id: string;
  concurrentTo: string[];
  /** WARC-Refers-To of a revisit: the record holding its payload. */
  refersTo?: string;
  /** WARC-Payload-Digest of a response or revisit. */
  payloadDigest?: string;
}

/**
 * Whether a scanned record may belong to the collection, so that planning holds only those, not
 * the whole crawl's: warcinfo records, the chosen ones, records concurrent to them, and responses
 * with a payload one of the chosen revisits refers to (the revisit names which in WARC-Refers-To).
 */
export function mayBeNeeded(r: StoredRecordHead, chosen: Pick<ReadonlySet<string>, 'has'>, revisitDigests: Pick<ReadonlySet<string>, 'has'>): boolean {
  return (
    r.type === 'warcinfo' ||
    chosen.has(r.id) ||
    r.concurrentTo.some((id) => chosen.has(id)) ||
    (r.type === 'response' && r.payloadDigest !== undefined && revisitDigests.has(r.payloadDigest))
  );
}

/** A gzip member to copy into the collection, from a source file. */
export interface MemberCopy {
  file: string;
  offset: number;
  length: number;
  type: string;
  /**
   * True when the record starts a capture: it is concurrent to no record before it, and none
   * before it is concurrent to it. A collection file may end only before such a record, so that a
   * request, its response and their metadata stay in one file, whatever order they were written in.
   */
  startsGroup: boolean;
}

/**
 * The response holding a revisit's payload (undefined for any other record): the record it names in
 * WARC-Refers-To, or, when it names none the scan found, the first response with its payload digest
 * (replay tools find the payload by the digest too).
 */
function originals(records: readonly StoredRecordHead[], byId: ReadonlyMap<string, StoredRecordHead>): (r: StoredRecordHead) => StoredRecordHead | undefined {
  const byDigest = new Map<string, StoredRecordHead>();
  for (const r of records) if (r.type === 'response' && r.payloadDigest && !byDigest.has(r.payloadDigest)) byDigest.set(r.payloadDigest, r);
  return (r) => {
    if (r.type !== 'revisit') return undefined;
    const named = r.refersTo ? byId.get(r.refersTo) : undefined;
    return named?.type === 'response' ? named : r.payloadDigest ? byDigest.get(r.payloadDigest) : undefined;
  };
}

/**
 * The chosen revisits whose payload no scanned response holds: a replay tool could not show them,
 * so a collection of them is refused, naming them, rather than handed out as if whole.
 */
export function revisitsWithoutOriginal(records: readonly StoredRecordHead[], chosen: ReadonlySet<string>): StoredRecordHead[] {
  const originalOf = originals(records, new Map(records.map((r) => [r.id, r])));
  return records.filter((r) => r.type === 'revisit' && chosen.has(r.id) && !originalOf(r));
}

/**
 * The records a collection of `chosen` response/revisit records needs, in the order to write
 * them: for each source file that holds any (files in the given order), its warcinfo record first
 * (every record names it in WARC-Warcinfo-ID), then in file order the chosen records, the records
 * concurrent to them (their request and metadata) and, for a revisit, the response holding its
 * payload (the record it refers to, else one with its payload digest: replay tools read the payload
 * there), wherever it is.
 */
export function planCollection(records: readonly StoredRecordHead[], chosen: ReadonlySet<string>): MemberCopy[] {
  const byId = new Map(records.map((r) => [r.id, r]));
  const originalOf = originals(records, byId);
  const wanted = new Set<string>();
  for (const id of chosen) {
    const r = byId.get(id);
    if (!r) continue;
    wanted.add(id);
    const original = originalOf(r);
    if (original) wanted.add(original.id);
  }
  for (const r of records) if (r.concurrentTo.some((id) => wanted.has(id) && chosen.has(id))) wanted.add(r.id);
  const files = [...new Set(records.map((r) => r.file))];
  const plan: MemberCopy[] = [];
  for (const file of files) {
    const inFile = records.filter((r) => r.file === file);
    if (!inFile.some((r) => wanted.has(r.id))) continue;
    const earlier = new Set<string>();
    const pointedAt = new Set<string>();
    for (const r of inFile) {
      if (r.type !== 'warcinfo' && !wanted.has(r.id)) continue;
      const startsGroup = !r.concurrentTo.some((id) => earlier.has(id)) && !pointedAt.has(r.id);
      plan.push({ file, offset: r.offset, length: r.length, type: r.type, startsGroup });
      earlier.add(r.id);
      for (const id of r.concurrentTo) pointedAt.add(id);
    }
  }
  return plan;
}
