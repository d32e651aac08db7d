'use client';
import { useQuery } from '@tanstack/react-query';
import type { CoherenceReport, CoherencePageDetail } from '../../../../worker/coherence/coherence-report';

/** React Query hooks for the coherence view, one per resource, with structured keys. */

async function getJson<T>(url: string): Promise<T> {
  const res = await fetch(url, { credentials: 'same-origin' });
  if (!res.ok) {
    const body = (await res.json().catch(() => null)) as { error?: string | { message?: string } } | null;
    const message = typeof body?.error === 'string' ? body.error : body?.error?.message;
    throw new Error(message ?? `${res.status} ${res.statusText}`);
  }
  return (await res.json()) as T;
}

export const coherenceKeys = {
  report: (crawlId: number) => ['crawls', crawlId, 'coherence'] as const,
  page: (crawlId: number, url: string) => ['crawls', crawlId, 'coherence', 'page', url] as const,
};

export function useCoherenceReport(crawlId: number) {
  return useQuery({
    queryKey: coherenceKeys.report(crawlId),
    queryFn: () => getJson<CoherenceReport>(`/api/crawls/${crawlId}/coherence`),
    // While the revisit pass runs the report changes; socket events also invalidate it.
    refetchInterval: (q) => (q.state.data && !q.state.data.run?.finishedAt ? 3000 : false),
  });
}

export function useCoherencePage(crawlId: number, url: string | null) {
  return useQuery({
    queryKey: coherenceKeys.page(crawlId, url ?? ''),
    queryFn: () => getJson<CoherencePageDetail>(`/api/crawls/${crawlId}/coherence/page?url=${encodeURIComponent(url!)}`),
    enabled: url !== null,
  });
}
