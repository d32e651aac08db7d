'use client';
import { useQuery } from '@tanstack/react-query';
import type { CoherenceReport, CoherencePageDetail } from '../../../../worker/coherence/coherence-report';
import { api } from '../../../lib/client/api';

/**
 * React Query hooks for the coherence view, one per resource, with structured keys; through `api`
 * like every page, so a 404 is not retried and an ended session signs in again.
 */
export const coherenceKeys = {
  report: (crawlId: number) => ['crawls', crawlId, 'coherence'] as const,
  page: (crawlId: number, url: string) => ['crawls', crawlId, 'coherence', 'page', url] as const,
};

export function useCoherenceReport(crawlId: number) {
  return useQuery({
    queryKey: coherenceKeys.report(crawlId),
    queryFn: () => api<CoherenceReport>('GET', `/api/crawls/${crawlId}/coherence`),
    // While the revisit pass runs the report changes; socket events also invalidate it.
    refetchInterval: (q) => (q.state.data && !q.state.data.run?.finishedAt ? 3000 : false),
  });
}

export function useCoherencePage(crawlId: number, url: string | null) {
  return useQuery({
    queryKey: coherenceKeys.page(crawlId, url ?? ''),
    queryFn: () => api<CoherencePageDetail>('GET', `/api/crawls/${crawlId}/coherence/page?url=${encodeURIComponent(url!)}`),
    enabled: url !== null,
  });
}
