'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ApiError, asPaged, type Paged } from './api';
import { keys, type WebObjectRow } from './queries';

/** Hooks for the Application-Aware Helper's resources: knowledge bases, the tester, adapted rules, Web objects. */

export interface KbError {
  line: number;
  column?: number;
  message: string;
}

export interface KnowledgeBaseRecord {
  name: string;
  xml: string;
  updatedAt?: string;
}

/** The tester's answer, grouped per action (rule path `<application>/<level or *>/<action id>`). */
export interface AahTestResult {
  application: { id: string; name: string; category?: string } | null;
  level: string | null;
  navigation: { rule: string; follow: boolean; links: string[] }[];
  extraction: { rule: string; objects: { type: string; fields: Record<string, string> }[] }[];
  errors: KbError[];
}

type RawTestResult = Partial<AahTestResult> & {
  follow?: { url: string; rule: string }[];
  doNotFollow?: { url: string; rule: string }[];
  objects?: { type: string; fields: Record<string, string>; rule: string }[];
};

/** Accepts the grouped report or the engine's flat PageAnalysis and gives the grouped one. */
export function normaliseTestResult(raw: RawTestResult): AahTestResult {
  const navigation = raw.navigation ?? [
    ...groupByRule(raw.follow ?? []).map(([rule, links]) => ({ rule, follow: true, links: links.map((l) => l.url) })),
    ...groupByRule(raw.doNotFollow ?? []).map(([rule, links]) => ({ rule, follow: false, links: links.map((l) => l.url) })),
  ];
  const extraction = raw.extraction ?? groupByRule(raw.objects ?? []).map(([rule, objects]) => ({ rule, objects: objects.map((o) => ({ type: o.type, fields: o.fields })) }));
  return { application: raw.application ?? null, level: raw.level ?? null, navigation, extraction, errors: raw.errors ?? [] };
}

export interface AdaptedRuleRow {
  id: string;
  applicationId: string;
  level: string;
  originalRule: string;
  original: { select: string; fields: Record<string, string> };
  adapted: { select: string; fields: Record<string, string> };
  mutations: string[];
  generatedOn: string;
  validatedOn: string[];
  acceptedAt: string;
  status: 'pending' | 'approved' | 'rejected';
  crawlId?: number;
}

export function useKnowledgeBases() {
  return useQuery({
    queryKey: keys.knowledgeBases,
    queryFn: () => api<KnowledgeBaseRecord[] | Paged<KnowledgeBaseRecord>>('GET', '/api/knowledge-bases').then((b) => asPaged(b).items),
  });
}

export function useKnowledgeBase(name: string | null) {
  return useQuery({
    queryKey: keys.knowledgeBase(name ?? ''),
    queryFn: () => api<KnowledgeBaseRecord>('GET', `/api/knowledge-bases/${encodeURIComponent(name!)}`),
    enabled: !!name,
    staleTime: Infinity,
  });
}

export function useSaveKnowledgeBase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, xml }: { name: string; xml: string }) => api<KnowledgeBaseRecord>('PUT', `/api/knowledge-bases/${encodeURIComponent(name)}`, { name, xml }),
    onSuccess: (saved, { name, xml }) => {
      client.setQueryData(keys.knowledgeBase(name), { ...saved, name, xml: saved?.xml ?? xml });
      void client.invalidateQueries({ queryKey: keys.knowledgeBases, exact: true });
    },
  });
}

/** Server-side validation of the XML as it is typed (debounced); the parser names each error's line. */
export function useKbValidation(xml: string, enabled = true, delayMs = 300) {
  const [debounced, setDebounced] = useState(xml);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(xml), delayMs);
    return () => clearTimeout(timer);
  }, [xml, delayMs]);
  const query = useQuery({
    queryKey: ['knowledge-bases', 'validate', debounced],
    queryFn: () =>
      api<{ errors: KbError[] }>('POST', '/api/knowledge-bases/validate', { xml: debounced }).then(
        (r) => r.errors ?? [],
        (error: unknown) => {
          // Some routes answer an invalid knowledge base with 400 and the same `errors` list.
          const errors = error instanceof ApiError ? (error.body as { errors?: KbError[] } | null)?.errors : undefined;
          if (Array.isArray(errors)) return errors;
          throw error;
        },
      ),
    placeholderData: keepPreviousData,
    staleTime: Infinity,
    enabled: enabled && debounced.length > 0,
  });
  return { ...query, pending: enabled && (debounced !== xml || query.isFetching) };
}

export function useAahTest() {
  return useMutation({
    mutationFn: (input: { xml: string; html?: string; url: string; crawlId?: number }) =>
      api<RawTestResult>('POST', '/api/aah/test', input).then(normaliseTestResult),
  });
}

export function useAdaptedRules() {
  return useQuery({
    queryKey: keys.adaptedRules,
    queryFn: () => api<AdaptedRuleRow[] | Paged<AdaptedRuleRow>>('GET', '/api/adapted-rules').then((b) => asPaged(b).items),
  });
}

export function useReviewAdaptedRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'approved' | 'rejected' }) =>
      api<AdaptedRuleRow>('POST', `/api/adapted-rules/${encodeURIComponent(id)}`, { status }),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.adaptedRules }),
  });
}

export interface ObjectFilter {
  type: string;
  host: string;
  q: string;
  page: number;
}

export function useWebObjects(crawlId: number, filter: ObjectFilter, pageSize = 25) {
  const params = new URLSearchParams({ page: String(filter.page), pageSize: String(pageSize) });
  if (filter.type) params.set('type', filter.type);
  if (filter.host) params.set('host', filter.host);
  if (filter.q) params.set('q', filter.q);
  return useQuery({
    queryKey: keys.objects(crawlId, filter),
    queryFn: () =>
      api<Paged<WebObjectRow> | WebObjectRow[]>('GET', `/api/crawls/${crawlId}/objects?${params}`).then((b) => asPaged(b, filter.page, pageSize)),
    placeholderData: keepPreviousData,
  });
}

/** Groups items by their `rule` (an action of the knowledge base), keeping first-seen order. */
export function groupByRule<T extends { rule: string }>(items: readonly T[]): [string, T[]][] {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const list = groups.get(item.rule);
    if (list) list.push(item);
    else groups.set(item.rule, [item]);
  }
  return [...groups];
}
