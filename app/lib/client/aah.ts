'use client';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, ApiError, asPaged, type Paged } from './api';
import { ifMatchHeaders } from './edit-conflict';
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
  /** The stored version: a save built on it sends it back (If-Match, see edit-conflict.ts). */
  updatedAt: string;
}

/** The tester's answer, grouped per action (rule path `<application>/<level or *>/<action id>`). */
export interface AahTestResult {
  application: { id: string; name: string; category?: string } | null;
  level: string | null;
  navigation: { rule: string; follow: boolean; links: string[] }[];
  extraction: { rule: string; objects: { type: string; fields: Record<string, string> }[] }[];
  errors: KbError[];
  /** The page was not analysed, as a crawl would skip it (worker/aah/tester.ts). */
  skipped?: 'page-too-large' | 'too-slow' | 'not-html';
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
  return { application: raw.application ?? null, level: raw.level ?? null, navigation, extraction, errors: raw.errors ?? [], ...(raw.skipped ? { skipped: raw.skipped } : {}) };
}

/** An adapted rule as the cockpit shows it. */
export interface AdaptedRuleRow {
  id: string;
  applicationId: string;
  level?: string;
  originalRule: string;
  original: { select: string; fields: Record<string, string> } | null;
  adapted: { select: string; fields: Record<string, string> };
  mutations: string[];
  generatedOn?: string;
  validatedOn: string[];
  acceptedAt?: string;
  status: 'pending' | 'approved' | 'rejected';
  crawlId?: number | null;
}

type Json = Record<string, unknown>;
const parse = (value: unknown): unknown => {
  if (typeof value !== 'string') return value;
  try {
    return JSON.parse(value);
  } catch {
    return value;
  }
};
const expressionOf = (value: unknown): { select: string; fields: Record<string, string> } | null => {
  const v = parse(value);
  if (typeof v === 'string') return { select: v, fields: {} };
  if (v && typeof v === 'object' && typeof (v as Json).select === 'string') return { select: (v as Json).select as string, fields: ((v as Json).fields ?? {}) as Record<string, string> };
  return null;
};

/**
 * Reads an adapted rule in either form: the engine's AdaptedRule, or the stored row
 * (`application`, `expression`, `provenance` JSON holding the rest).
 */
export function normaliseAdaptedRule(row: Json): AdaptedRuleRow {
  const p = (parse(row.provenance) ?? {}) as Json;
  const pick = <T,>(key: string): T | undefined => (row[key] ?? (p && typeof p === 'object' ? p[key] : undefined)) as T | undefined;
  return {
    id: String(row.id),
    applicationId: String(pick('applicationId') ?? row.application ?? ''),
    level: pick<string>('level'),
    originalRule: String(row.originalRule ?? p.originalRule ?? ''),
    original: expressionOf(pick('original')),
    adapted: expressionOf(row.adapted ?? p.adapted ?? row.expression) ?? { select: '', fields: {} },
    mutations: (pick<string[]>('mutations') ?? []).map(String),
    generatedOn: pick<string>('generatedOn'),
    validatedOn: (pick<string[]>('validatedOn') ?? []).map(String),
    acceptedAt: pick<string>('acceptedAt') ?? (row.createdAt as string | undefined),
    status: (row.status as AdaptedRuleRow['status']) ?? 'pending',
    crawlId: (row.crawlId as number | null | undefined) ?? null,
  };
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

/** Saves a knowledge base built on the stored version `basedOn`; refused (412, see editConflictOf) when another save has replaced it since. */
export function useSaveKnowledgeBase() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ name, xml, basedOn }: { name: string; xml: string; basedOn: string }) =>
      api<KnowledgeBaseRecord>('PUT', `/api/knowledge-bases/${encodeURIComponent(name)}`, { name, xml }, { headers: ifMatchHeaders(basedOn) }),
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
    queryFn: () => api<Json[] | Paged<Json>>('GET', '/api/adapted-rules').then((b) => asPaged(b).items.map(normaliseAdaptedRule)),
  });
}

export function useReviewAdaptedRule() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, status }: { id: string; status: 'approved' | 'rejected' }) =>
      api<Json>('POST', `/api/adapted-rules/${encodeURIComponent(id)}`, { status }),
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
