'use client';
import { useEffect, useRef } from 'react';
import { useInfiniteQuery, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CoherenceReport, CoherencePageDetail, CoherenceTreePage } from '../../../../worker/coherence/coherence-report';
import { api, apiIfChanged } from '../../../lib/client/api';

/**
 * React Query hooks for the coherence view, one per resource, with structured keys; through `api`
 * like every page, so a 404 is not retried and an ended session signs in again.
 */
export const coherenceKeys = {
  report: (crawlId: number) => ['crawls', crawlId, 'coherence'] as const,
  tree: (crawlId: number) => ['crawls', crawlId, 'coherence', 'tree'] as const,
  /** With the page's status in the tree: the detail is read again when the revisit pass decides it (the report's polls do not touch it). */
  page: (crawlId: number, url: string, status: string) => ['crawls', crawlId, 'coherence', 'page', url, status] as const,
};

export function useCoherenceReport(crawlId: number) {
  return useQuery({
    queryKey: coherenceKeys.report(crawlId),
    queryFn: ({ client, queryKey }) => readCoherenceReport(crawlId, client.getQueryData<CoherenceReport>(queryKey)),
    // While the passes run the report changes; socket events also invalidate it.
    refetchInterval: (q) => reportPollMs(q.state.data),
  });
}

/**
 * The report, downloaded again only if it changed since `previous` (the route answers 304 to the
 * version it has): for 100,000 pages a 12 MB body and 0.4 s on the server.
 */
export async function readCoherenceReport(crawlId: number, previous: CoherenceReport | undefined): Promise<CoherenceReport> {
  const changed = await apiIfChanged<CoherenceReport>(`/api/crawls/${crawlId}/coherence`, previous && `"${previous.version}"`);
  return changed ?? previous!;
}

/**
 * How long the view waits before asking for the report again: never once the run has finished,
 * nor while the crawl has ended (finished, stopped or failed: a snapshot crawl, or one stopped
 * during its passes, asked every 3 s for ever; resuming it is a status event, which reads the
 * report again); while the passes run, 3 s and one more per 10,000 pages (13 s for 100,000), since
 * during the passes nearly every read finds a changed report and the whole of it comes again.
 */
export function reportPollMs(report: Pick<CoherenceReport, 'pages' | 'run' | 'crawl'> | undefined): number | false {
  if (!report || report.run?.finishedAt || ENDED.has(report.crawl.status)) return false;
  return 3000 + Math.round(report.pages / 10);
}

/** Crawl statuses in which nothing of the report changes until the crawl is resumed. */
const ENDED = new Set(['finished', 'stopped', 'failed']);

/** Rows of the discovery tree a page of it holds: the view opens with the first, and reads more when asked. */
export const TREE_ROWS_PER_PAGE = 1_000;

/**
 * The discovery tree's rows, a page at a time (GET …/coherence/tree): the first page at once, the
 * others when the archivist asks (fetchNextPage). Every page read is read again when the report's
 * `version` changes (the passes classified pages, or visited more), as the whole tree was.
 */
export function useCoherenceTree(crawlId: number, version: string | undefined) {
  const client = useQueryClient();
  const tree = useInfiniteQuery({
    queryKey: coherenceKeys.tree(crawlId),
    queryFn: ({ pageParam }) => api<CoherenceTreePage>('GET', `/api/crawls/${crawlId}/coherence/tree?after=${pageParam}&limit=${TREE_ROWS_PER_PAGE}`),
    initialPageParam: 0,
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: version !== undefined,
  });
  const readAt = useRef(version);
  useEffect(() => {
    if (readAt.current === undefined || version === readAt.current) {
      readAt.current = version;
      return;
    }
    readAt.current = version;
    void client.invalidateQueries({ queryKey: coherenceKeys.tree(crawlId), exact: true });
  }, [client, crawlId, version]);
  return tree;
}

/** One page's detail, asked by its id: its URL, up to 65,536 characters and escaped, overflowed the request line (431). */
export function useCoherencePage(crawlId: number, page: { id: number; url: string; status: string } | null) {
  return useQuery({
    queryKey: coherenceKeys.page(crawlId, page?.url ?? '', page?.status ?? ''),
    queryFn: () => api<CoherencePageDetail>('GET', `/api/crawls/${crawlId}/coherence/page?id=${page!.id}`),
    enabled: page !== null,
  });
}
