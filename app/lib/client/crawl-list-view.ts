/**
 * The crawls list's filters and pages, over the crawls the list read (all of them, newest first):
 * pure, so the page, its counts and its pager agree.
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

export interface CrawlListFilter {
  group: StatusGroup;
  /** Text the crawl's name or #id holds, in any case. */
  name: string;
  page: number;
}

/** Crawls shown on one page of the list. */
export const CRAWLS_PER_PAGE = 50;

/** The crawls the filter selects, the page of them to show (kept within the pages there are), and how many in all. */
export function crawlListPage<T extends { id: number; name: string; status: string }>(crawls: readonly T[], filter: CrawlListFilter, perPage = CRAWLS_PER_PAGE): { items: T[]; total: number; page: number } {
  const statuses: readonly string[] | null = STATUS_GROUPS[filter.group].statuses;
  const text = filter.name.trim().toLowerCase();
  const selected = crawls.filter((c) => (!statuses || statuses.includes(c.status)) && (!text || c.name.toLowerCase().includes(text) || `#${c.id}` === text || String(c.id) === text));
  const pages = Math.max(1, Math.ceil(selected.length / perPage));
  const page = Math.min(Math.max(1, filter.page), pages);
  return { items: selected.slice((page - 1) * perPage, page * perPage), total: selected.length, page };
}
