/**
 * The crawls list's filters, shared by the list (which sends them) and GET /api/crawls (which
 * applies them in SQL): pure, so both mean the same by a status group.
 */

/** The status groups the list filters by: what an archivist looks for among hundreds of crawls. */
export const STATUS_GROUPS = {
  '': { label: 'Any status', statuses: null },
  active: { label: 'Running or starting', statuses: ['created', 'running', 'pausing', 'stopping'] },
  paused: { label: 'Paused', statuses: ['paused'] },
  ended: { label: 'Finished or stopped', statuses: ['finished', 'stopped'] },
  failed: { label: 'Failed', statuses: ['failed'] },
} as const satisfies Record<string, { label: string; statuses: readonly string[] | null }>;

export type StatusGroup = keyof typeof STATUS_GROUPS;

/** Whether `value` names a status group ('' included: any status). */
export function isStatusGroup(value: string): value is StatusGroup {
  return Object.hasOwn(STATUS_GROUPS, value);
}

export interface CrawlListFilter {
  group: StatusGroup;
  /** Text the crawl's name or #id holds, in any case. */
  name: string;
  page: number;
}

/** Crawls shown on one page of the list. */
export const CRAWLS_PER_PAGE = 50;

/** The query string of GET /api/crawls for a page of the list under `filter`. */
export function crawlListParams(filter: CrawlListFilter, perPage = CRAWLS_PER_PAGE): URLSearchParams {
  const params = new URLSearchParams({ page: String(filter.page), pageSize: String(perPage) });
  if (filter.group) params.set('status', filter.group);
  const name = filter.name.trim();
  if (name) params.set('q', name);
  return params;
}

/** How many pages `total` crawls fill (1 when there are none: the list still has a page). */
export function pageCount(total: number, perPage = CRAWLS_PER_PAGE): number {
  return Math.max(1, Math.ceil(total / perPage));
}

/** The crawl id a search text names (`7` or `#7`), or null. */
export function crawlIdIn(text: string): number | null {
  const m = /^#?([1-9]\d{0,14})$/.exec(text.trim());
  return m ? Number(m[1]) : null;
}

/**
 * What a crawl picker lists, in words: how many crawls match `search` (all of them without one),
 * and, past the `listed` it shows, that only the newest are listed.
 */
export function pickerMatchWords(search: string, total: number, listed: number): string {
  if (total === 0) return search ? `No crawl matches “${search}”.` : 'No crawl yet.';
  const n = total.toLocaleString('en-US');
  const what = total === 1 ? (search ? `1 crawl matches “${search}”` : '1 crawl') : search ? `${n} crawls match “${search}”` : `${n} crawls`;
  if (total > listed) return `${what}; the newest ${listed.toLocaleString('en-US')} are listed: search by name or #id for an older one.`;
  return `${what}.`;
}
