'use client';
import { keepPreviousData, useIsMutating, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { CaptureSummary, CrawlStats } from '../../../worker/events/messages';
import type { CrawlOfIcd } from '../../../worker/export/export-crawls';
import type { ExportFormat } from '../../../worker/export/collection-plan';
import type { IcdInput } from '../../../worker/icd/schema';
import type { FeedFilter, IncrementalView } from '../../../worker/coherence/incremental-view';
import type { SeedReportRow } from '../../../worker/frontier/seed-chain';
import type { HostQueues } from '../../../worker/frontier/host-queues';
import type { CrawlExclusionView } from '../../../worker/crawler/live-exclusions';
import type { WaitingMatches } from '../../../worker/frontier/waiting-matches';
import type { FieldReplacement, RefusedField } from '../../../worker/icd/stored-icd-repair';
import type { LogRow } from '../../../worker/store/capture-store';
import type { ThroughputPoint } from '../server/throughput-history';
import type { ScheduleView } from '../server/crawl-scheduler';
import type { ScheduleInput } from '../schedule-cadence';
import { api, asPaged, type Paged } from './api';
import { crawlListParams, type CrawlListFilter } from './crawl-list-view';
import { ifMatchHeaders } from './edit-conflict';
import type { StuckDeletion } from './stuck-deletion-words';

/** One React Query hook per resource, with structured keys (`['crawls', id, …]`). */

export interface CrawlRow {
  id: number;
  name: string;
  status: string;
  desired?: string;
  owner?: string | { username?: string } | null;
  icdId?: number;
  createdAt?: string;
  startedAt?: string | null;
  finishedAt?: string | null;
  error?: string | null;
  stats?: Partial<CrawlStats> | null;
  /** Seconds the crawl has run, over all its runs. */
  runSeconds?: number;
  /** The knowledge base its AAH runs with (a copy taken when it was created); null: AAH off, or a crawl older than copies (the shipped one). */
  knowledgeBaseName?: string | null;
  /** A single crawl's, paused or pausing: the fields of its ICD copy this version refuses (correct them to resume it). */
  refusedSettings?: string[];
}

export interface CrawlDetail extends CrawlRow {
  /** The crawl's ICD copy, each of its lists cut to the first 20 (`seedCount` says how many seeds, useSeedsPage reads them all; `listCounts` how many items the other lists cut have). */
  definition?: IcdInput;
  seedCount?: number;
  listCounts?: Record<string, number>;
}

export interface IcdRow {
  id: number;
  name: string;
  ownerId?: number;
  updatedAt?: string;
  schedule?: { description: string; nextRunAt: string | null; timeZone: string } | null;
}

export interface IcdRecord {
  id: number;
  name: string;
  /** The stored version: a save built on it sends it back (If-Match, see edit-conflict.ts). */
  updatedAt: string;
  definition: IcdInput;
}

export interface ExportFile {
  name: string;
  bytes?: number;
  sha256?: string;
}

export interface ExportRecord {
  id: number;
  crawlId?: number;
  status: string;
  progress: number;
  files: (ExportFile | string)[] | null;
  error?: string | null;
  createdAt?: string;
  /** The collection's filters; null for the whole crawl. */
  selection?: SelectionInput | null;
  /** WARC files and their index, or one WACZ package. */
  format?: ExportFormat;
  /** The WACZ's pages carry their text. */
  pageText?: boolean;
  /** The other crawls of the ICD it takes besides its own (name null once deleted). */
  otherCrawls?: { id: number; name: string | null }[];
  /** Who cancelled it (their user name), and when. */
  cancelledBy?: string | null;
  cancelledAt?: string | null;
}

export interface RelevancePoint {
  documents: number;
  meanSimilarity: number;
  normalized?: number;
  normalised?: number;
  harvestRatio: number;
}

export interface RelevanceSeries {
  windowSize?: number;
  documents?: number;
  harvestRatio?: number;
  points: RelevancePoint[];
}

export interface FrontierEntry {
  url: string;
  score: number;
  breakdown?: Record<string, number> | { priority?: number; scores?: Record<string, number>; weights?: Record<string, number> } | null;
  depth?: number;
  host?: string;
}

export interface CaptureRow extends CaptureSummary {
  similarity?: number | null;
}

/** One fetch outcome of the crawl log (GET /api/crawls/:id/log), its time as JSON has it. */
export type CrawlLogRow = Omit<LogRow, 'at'> & { id: number; at: string };

export interface CrawlLogPage extends Paged<CrawlLogRow> {
  outcomes: { outcome: string; count: number }[];
}

/** A capture's record as stored (GET /api/crawls/:id/captures/:captureId). */
export interface CaptureRecord {
  capture: { id: number; url: string; status: number; mime: string | null; recordType: string; warcFile: string; warcOffset: number; fetchedAt: string };
  warcHeaders: [string, string][];
  httpHead: string | null;
  payloadBytes: number;
  /** The decoded payload is longer than the server decodes (64 MB) and cut there (a gzip bomb, say). */
  payloadCut: boolean;
  preview: string | null;
  previewTruncated: boolean;
}

/** A curator's note on a crawl or one of its captures (GET /api/crawls/:id/annotations). */
export interface AnnotationRow {
  id: number;
  captureId: number | null;
  url: string | null;
  username: string | null;
  text: string;
  createdAt: string;
}

/** Heritrix-style reports of a crawl (GET /api/crawls/:id/report). */
export interface CrawlReport {
  hosts: { host: string; fetches: number; ok: number; failed: number; excluded: number; notRequested: number; bytes: number }[];
  hostCount: number;
  mimeTypes: { mime: string | null; captures: number; bytes: number }[];
  /** Captures per WARC record type (response, revisit): payload bytes, and bytes stored in the WARC files. */
  records: { recordType: string; captures: number; bytes: number; warcBytes: number }[];
  statuses: { status: number | null; entries: number }[];
  /** The ICD's first 200 seeds, each with its redirect chain (worker/frontier/seed-report.ts). */
  seeds: SeedReportRow[];
  seedCount: number;
  /** Where the frontier's URLs wait, the largest host queues first (worker/frontier/host-queues.ts). */
  queues: HostQueues;
}

export interface WebObjectRow {
  id: number;
  type: string;
  url?: string;
  sourceUrl?: string;
  host?: string;
  fields: Record<string, unknown>;
  rule?: string | null;
  captureId?: number | null;
  createdAt?: string;
}

export const keys = {
  /** Every page of the crawls list and the pickers' list (invalidated together, by prefix). */
  crawls: ['crawls', 'list'] as const,
  crawlList: (params: string) => ['crawls', 'list', params] as const,
  crawl: (id: number) => ['crawls', id] as const,
  captures: (id: number, page: number, q: string, sort: string, upTo: number | null) => ['crawls', id, 'captures', { page, q, sort, upTo }] as const,
  log: (id: number, page: number, outcome: string, q: string, upTo: number | null) => ['crawls', id, 'log', { page, outcome, q, upTo }] as const,
  report: (id: number) => ['crawls', id, 'report'] as const,
  seeds: (id: number, page: number) => ['crawls', id, 'seeds', page] as const,
  incremental: (id: number) => ['crawls', id, 'incremental'] as const,
  incrementalPage: (id: number, page: number, filter: FeedFilter) => ['crawls', id, 'incremental', { page, filter }] as const,
  record: (id: number, captureId: number) => ['crawls', id, 'record', captureId] as const,
  exclusions: (id: number) => ['crawls', id, 'exclusions'] as const,
  storedIcd: (id: number, status?: string) => (status === undefined ? ['crawls', id, 'stored-icd'] as const : ['crawls', id, 'stored-icd', status] as const),
  annotations: (id: number, captureId: number | null) => ['crawls', id, 'annotations', captureId ?? 'all'] as const,
  statsHistory: (id: number) => ['crawls', id, 'stats-history'] as const,
  throughput: (id: number) => ['crawls', id, 'throughput'] as const,
  relevance: (id: number) => ['crawls', id, 'relevance'] as const,
  frontierTop: (id: number) => ['crawls', id, 'frontier-top'] as const,
  objects: (id: number, filter: object) => ['crawls', id, 'objects', filter] as const,
  exports: (crawlId: number) => ['crawls', crawlId, 'exports'] as const,
  /** Deleted crawls whose files could not all be removed. */
  stuckDeletions: ['crawl-deletions'] as const,
  icds: ['icds'] as const,
  icd: (id: number) => ['icds', id] as const,
  knowledgeBases: ['knowledge-bases'] as const,
  knowledgeBase: (name: string) => ['knowledge-bases', name] as const,
  adaptedRules: ['adapted-rules'] as const,
};

/**
 * One page of the crawls list under its filters, paged on the server. The page shown stays while
 * the next is read (`isPlaceholderData`), and is read again every 3 s: the list shows several
 * crawls, and polling is cheaper than a socket room per row.
 */
export function useCrawlList(filter: CrawlListFilter) {
  const params = crawlListParams(filter);
  return useQuery({
    queryKey: keys.crawlList(params.toString()),
    queryFn: () => api<Paged<CrawlRow>>('GET', `/api/crawls?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: 3000,
  });
}

/** What a crawl picker offers: the crawls listed, and how many the search matches in all. */
export interface CrawlChoices {
  items: CrawlRow[];
  /** Crawls the search matches (every crawl without one); more than CRAWL_CHOICES: only the newest are listed. */
  total: number;
}

/**
 * Crawls a picker offers (exports, the AAH tester): the newest CRAWL_CHOICES of those whose name
 * or #id holds `search` (searched on the server, as the crawls list searches: any crawl, however
 * old) and, when not among them, the crawl `chosen` (one a link chose, `/exports?crawl=7`), read
 * again every 3 s.
 */
export function useCrawlChoices(chosen: number | null = null, search = '') {
  const q = search.trim();
  return useQuery({
    queryKey: keys.crawlList(`choices-${CRAWL_CHOICES}-${chosen ?? ''}-${q}`),
    queryFn: async (): Promise<CrawlChoices> => {
      const params = new URLSearchParams({ pageSize: String(CRAWL_CHOICES) });
      if (q) params.set('q', q);
      const page = await api<Paged<CrawlRow>>('GET', `/api/crawls?${params}`);
      if (chosen === null || page.items.some((c) => c.id === chosen)) return { items: page.items, total: page.total };
      const found = (await api<Paged<CrawlRow>>('GET', `/api/crawls?q=${chosen}&pageSize=${CRAWL_CHOICES}`)).items.filter((c) => c.id === chosen);
      return { items: [...page.items, ...found], total: page.total };
    },
    placeholderData: keepPreviousData,
    refetchInterval: 3000,
  });
}

/** How many crawls a picker offers, newest first: the most a page of GET /api/crawls holds. */
export const CRAWL_CHOICES = 500;

export function useCrawl(id: number) {
  return useQuery({ queryKey: keys.crawl(id), queryFn: () => api<CrawlDetail>('GET', `/api/crawls/${id}`) });
}

export function useCaptures(id: number, page: number, q: string, sort: '' | 'score' | 'similarity' = '', pageSize = 20, upTo: number | null = null) {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (q) params.set('q', q);
  if (sort) params.set('sort', sort);
  if (upTo !== null) params.set('upTo', String(upTo));
  return useQuery({
    queryKey: keys.captures(id, page, q, sort, upTo),
    queryFn: () => api<Paged<CaptureRow> | CaptureRow[]>('GET', `/api/crawls/${id}/captures?${params}`).then((b) => asPaged(b, page, pageSize)),
    placeholderData: keepPreviousData,
  });
}

/** The charts' history over the whole crawl, rebuilt from its captures (read again when the crawl's status changes). */
export function useThroughputHistory(id: number) {
  return useQuery({
    queryKey: keys.throughput(id),
    queryFn: () => api<{ widthMs: number; points: ThroughputPoint[] }>('GET', `/api/crawls/${id}/throughput`),
    staleTime: Infinity,
  });
}

/**
 * A page of the crawl log, up to entry `upTo` when not null; refreshed every few seconds while the
 * crawl runs (failures come through no socket event).
 */
export function useCrawlLog(id: number, page: number, outcome: string, q: string, upTo: number | null, running: boolean, pageSize = 20) {
  const params = new URLSearchParams({ page: String(page), pageSize: String(pageSize) });
  if (outcome) params.set('outcome', outcome);
  if (q) params.set('q', q);
  if (upTo !== null) params.set('upTo', String(upTo));
  return useQuery({
    queryKey: keys.log(id, page, outcome, q, upTo),
    queryFn: () => api<CrawlLogPage>('GET', `/api/crawls/${id}/log?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: running ? 3000 : false,
  });
}

/**
 * The crawl's reports, read only while shown (`enabled`) and refreshed on demand: they group the
 * whole crawl log (~0.1–0.2 s per 20,000 entries), too much to repeat every few seconds.
 */
/**
 * A page of the seeds report beyond its first (which the report holds), read when asked for and,
 * like the report, again only on demand.
 */
export function useSeedsPage(id: number, page: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.seeds(id, page),
    queryFn: () => api<Paged<SeedReportRow>>('GET', `/api/crawls/${id}/seeds?page=${page}`),
    enabled,
    placeholderData: keepPreviousData,
    refetchOnWindowFocus: false,
  });
}

export function useCrawlReport(id: number, enabled: boolean) {
  return useQuery({
    queryKey: keys.report(id),
    queryFn: () => api<CrawlReport>('GET', `/api/crawls/${id}/report`),
    enabled,
    refetchOnWindowFocus: false,
  });
}

/**
 * The crawl's feeds and recrawl rounds. Read again on the crawl's coherence events (each feed poll,
 * each round: see live.ts) and status changes; while it runs, every 15 s too, since a round falls
 * due by the clock alone.
 */
/** The crawl's feeds and recrawls, with page `page` of the feeds `filter` selects: the page polled is the one shown. */
export function useIncremental(id: number, running: boolean, page = 1, filter: FeedFilter = 'all') {
  const params = new URLSearchParams({ page: String(page), filter });
  return useQuery({
    queryKey: keys.incrementalPage(id, page, filter),
    queryFn: () => api<IncrementalView>('GET', `/api/crawls/${id}/incremental?${params}`),
    placeholderData: keepPreviousData,
    refetchInterval: running ? 15_000 : false,
  });
}

export function useCaptureRecord(id: number, captureId: number) {
  return useQuery({ queryKey: keys.record(id, captureId), queryFn: () => api<CaptureRecord>('GET', `/api/crawls/${id}/captures/${captureId}`) });
}

/** The crawl's annotations, or one capture's (`captureId`). */
export function useAnnotations(id: number, captureId: number | null) {
  const query = captureId === null ? '' : `?captureId=${captureId}`;
  return useQuery({ queryKey: keys.annotations(id, captureId), queryFn: () => api<AnnotationRow[]>('GET', `/api/crawls/${id}/annotations${query}`) });
}

export function useAddAnnotation(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (a: { captureId: number | null; text: string }) => api<AnnotationRow>('POST', `/api/crawls/${id}/annotations`, a),
    // Both lists may show it: the capture's and the crawl's.
    onSuccess: () => client.invalidateQueries({ queryKey: ['crawls', id, 'annotations'] }),
  });
}

/** GET /api/crawls/:id/exclusions: the crawl's exclude patterns, those added live marked. */
export interface ExclusionsBody {
  patterns: CrawlExclusionView[];
  ended: boolean;
  test?: WaitingMatches & { pattern: string };
}

/** The crawl's exclude patterns; polled while it runs, so an added one shows when its worker applied it. */
export function useExclusions(id: number, running: boolean) {
  return useQuery({
    queryKey: keys.exclusions(id),
    queryFn: () => api<ExclusionsBody>('GET', `/api/crawls/${id}/exclusions`),
    refetchInterval: running ? 2000 : false,
  });
}

/** Tests a pattern against the crawl's waiting URLs (nothing is changed, nothing cached). */
export function useTestExclusion(id: number) {
  return useMutation({
    mutationFn: (pattern: string) => api<ExclusionsBody>('GET', `/api/crawls/${id}/exclusions?test=${encodeURIComponent(pattern)}`).then((b) => b.test!),
  });
}

/** Adds an exclude pattern to the crawl while it runs. */
export function useAddExclusion(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (pattern: string) => api<{ id: number; pattern: string }>('POST', `/api/crawls/${id}/exclusions`, { pattern }),
    onSuccess: () => client.invalidateQueries({ queryKey: keys.exclusions(id) }),
  });
}

/** Takes an exclude pattern out of the crawl while it runs (links found from then on that match it are taken again). */
export function useRemoveExclusion(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (pattern: string) => api<{ pattern: string }>('DELETE', `/api/crawls/${id}/exclusions`, { pattern }),
    onSettled: () => client.invalidateQueries({ queryKey: keys.exclusions(id) }),
  });
}

/** GET /api/crawls/:id/stored-icd: the crawl's settings this version refuses, whether they may be corrected now, and the corrections made. */
export interface StoredIcdBody {
  refused: RefusedField[];
  correctable: string | null;
  replacements: { replacedAt: string; source: string; replacedById: number | null; changes: FieldReplacement[] }[];
}

/**
 * The crawl's settings this version refuses, read while the crawl is paused or failed (`status`),
 * again when its status changes: the worker pauses a crawl whose settings it refuses.
 */
export function useStoredIcd(id: number, status: string, enabled: boolean) {
  return useQuery({ queryKey: keys.storedIcd(id, status), queryFn: () => api<StoredIcdBody>('GET', `/api/crawls/${id}/stored-icd`), enabled });
}

/** Replaces the crawl's refused settings (and with `resume`, resumes it): the crawl, its settings and its exclusions are read again. */
export function useCorrectStoredIcd(id: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { corrections: Record<string, unknown>; resume: boolean }) =>
      api<{ replaced: FieldReplacement[]; crawl: CrawlDetail }>('POST', `/api/crawls/${id}/stored-icd`, body),
    onSuccess: ({ crawl }) => {
      client.setQueryData<CrawlDetail>(keys.crawl(id), crawl);
      void client.invalidateQueries({ queryKey: keys.storedIcd(id) });
      void client.invalidateQueries({ queryKey: keys.exclusions(id) });
      void client.invalidateQueries({ queryKey: keys.crawls });
    },
  });
}

export function useCrawlControl() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, action }: { id: number; action: 'pause' | 'resume' | 'stop' }) =>
      api<CrawlRow>('POST', `/api/crawls/${id}/control`, { action }),
    onSuccess: (crawl, { id }) => {
      client.setQueryData<CrawlDetail>(keys.crawl(id), (old) => (old ? { ...old, ...crawl, definition: old.definition } : old));
      void client.invalidateQueries({ queryKey: keys.crawls });
    },
    // Refused (409): the crawl is not as the page showed it (stopped or ended from elsewhere, its
    // events not heard yet, or not at all with the socket down): it is read again, beside the reason.
    onError: (_error, { id }) => {
      void client.invalidateQueries({ queryKey: keys.crawl(id), exact: true });
      void client.invalidateQueries({ queryKey: keys.crawls });
    },
  });
}

export function useDeleteCrawl() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api<void>('DELETE', `/api/crawls/${id}`),
    onSuccess: (_r, id) => {
      client.removeQueries({ queryKey: keys.crawl(id) });
      void client.invalidateQueries({ queryKey: keys.crawls });
      // Its files may not all have been removed: the notice says so at once.
      void client.invalidateQueries({ queryKey: keys.stuckDeletions });
    },
  });
}

/** How many deleted crawls whose files are stuck the crawls list's notice names (it counts the others). */
export const STUCK_DELETIONS_SHOWN = 10;

/**
 * The deleted crawls whose files could not all be removed (the first STUCK_DELETIONS_SHOWN), read
 * again every 10 s: the server tries them again on its own, and another person may delete a crawl.
 */
export function useStuckDeletions() {
  return useQuery({
    queryKey: keys.stuckDeletions,
    queryFn: () => api<Paged<StuckDeletion>>('GET', `/api/crawl-deletions?pageSize=${STUCK_DELETIONS_SHOWN}`),
    refetchInterval: 10_000,
  });
}

/**
 * Tries a deleted crawl's stuck files again now: the answer is the deletion as it is after the try
 * (null: all removed), put in the list at once; the list is read again after.
 */
export function useRetryDeletionFiles() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (crawlId: number) => api<{ deletion: StuckDeletion | null }>('POST', `/api/crawl-deletions/${crawlId}/retry`),
    onSuccess: ({ deletion }, crawlId) =>
      client.setQueryData<Paged<StuckDeletion>>(keys.stuckDeletions, (list) => list && (deletion
        ? { ...list, items: list.items.map((d) => (d.crawlId === crawlId ? deletion : d)) }
        : { ...list, items: list.items.filter((d) => d.crawlId !== crawlId), total: Math.max(0, list.total - 1) })),
    onSettled: () => void client.invalidateQueries({ queryKey: keys.stuckDeletions }),
  });
}

export function useStartCrawl() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (icdId: number) => api<CrawlRow>('POST', '/api/crawls', { icdId }),
    onSuccess: () => void client.invalidateQueries({ queryKey: keys.crawls }),
  });
}

export function useIcds() {
  return useQuery({ queryKey: keys.icds, queryFn: () => api<IcdRow[] | Paged<IcdRow>>('GET', '/api/icds').then((b) => asPaged(b).items) });
}

export function useIcd(id: number | null) {
  return useQuery({ queryKey: keys.icd(id ?? 0), queryFn: () => api<IcdRecord>('GET', `/api/icds/${id}`), enabled: id !== null });
}

/** The mutation key of every ICD save (useIcdSaving). */
const SAVE_ICD = ['save-icd'] as const;

/**
 * Creates an ICD (`id` null) or saves one. `basedOn` is the stored version the edit was built on:
 * the server refuses the save (412, see editConflictOf) when another save has replaced it since.
 */
export function useSaveIcd() {
  const client = useQueryClient();
  return useMutation({
    mutationKey: SAVE_ICD,
    mutationFn: ({ id, icd, basedOn }: { id: number | null; icd: IcdInput; basedOn: string | null }) =>
      id === null ? api<IcdRecord>('POST', '/api/icds', icd) : api<IcdRecord>('PUT', `/api/icds/${id}`, icd, { headers: ifMatchHeaders(basedOn) }),
    onSuccess: (saved) => {
      client.setQueryData(keys.icd(saved.id), saved);
      void client.invalidateQueries({ queryKey: keys.icds, exact: true });
    },
  });
}

/**
 * True while an ICD save is in flight. Each save sends the whole definition, built on the stored
 * one: a second save sent meanwhile (the form's and the term review's) is built on the definition
 * from before the first and undoes it, so the editor's save buttons wait for the first.
 */
export function useIcdSaving(): boolean {
  return useIsMutating({ mutationKey: SAVE_ICD }) > 0;
}

export function useRelevance(id: number) {
  return useQuery({ queryKey: keys.relevance(id), queryFn: () => api<RelevanceSeries>('GET', `/api/crawls/${id}/relevance`) });
}

export function useFrontierTop(id: number, live: boolean) {
  return useQuery({
    queryKey: keys.frontierTop(id),
    queryFn: () => api<FrontierEntry[] | Paged<FrontierEntry>>('GET', `/api/crawls/${id}/frontier/top`).then((b) => asPaged(b).items),
    refetchInterval: live ? 3000 : false,
  });
}

export function useExports(crawlId: number | null) {
  return useQuery({
    queryKey: keys.exports(crawlId ?? 0),
    queryFn: () => api<ExportRecord[] | Paged<ExportRecord>>('GET', `/api/crawls/${crawlId}/exports`).then((b) => asPaged(b).items),
    enabled: crawlId !== null,
    // Poll while an export is being prepared, so its progress moves.
    refetchInterval: (q) => (q.state.data?.some((e) => e.status === 'pending' || e.status === 'running') ? 1000 : false),
  });
}

/** Cancels a pending or running export: the worker stops it within about a second and removes what it wrote. */
export function useCancelExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ exportId }: { exportId: number; crawlId: number }) => api<ExportRecord>('POST', `/api/exports/${exportId}/cancel`),
    onSettled: (_e, _err, { crawlId }) => void client.invalidateQueries({ queryKey: keys.exports(crawlId) }),
  });
}

/**
 * Deletes an ended export (its files, then its row): it leaves the list at once. A delete that
 * stopped on a file it could not remove reads the list again, which then shows what is left and why.
 */
export function useDeleteExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ exportId }: { exportId: number; crawlId: number }) => api<void>('DELETE', `/api/exports/${exportId}`),
    onSuccess: (_r, { exportId, crawlId }) => client.setQueryData<ExportRecord[]>(keys.exports(crawlId), (list) => list?.filter((e) => e.id !== exportId)),
    onSettled: (_r, _err, { crawlId }) => void client.invalidateQueries({ queryKey: keys.exports(crawlId) }),
  });
}

/**
 * How many captures (and payload bytes) a selection picks, over the crawl and the other crawls of
 * its ICD taken with it, shown before the export is requested (when there is a selection or other crawls).
 */
export function useSelectionPreview(crawlId: number | null, selection: SelectionInput | undefined, otherCrawls: readonly number[] = []) {
  const json = JSON.stringify(selection ?? {});
  const others = otherCrawls.length ? `&otherCrawls=${otherCrawls.join(',')}` : '';
  return useQuery({
    queryKey: ['crawls', crawlId ?? 0, 'selection-preview', json, others],
    queryFn: () => api<{ captures: number; bytes: number }>('GET', `/api/crawls/${crawlId}/exports/preview?selection=${encodeURIComponent(json)}${others}`),
    enabled: crawlId !== null && (selection !== undefined || otherCrawls.length > 0),
    placeholderData: keepPreviousData,
  });
}

/** The other crawls of the crawl's ICD, newest first. */
export function useOtherCrawlsOfIcd(crawlId: number | null) {
  return useQuery({
    queryKey: ['crawls', crawlId ?? 0, 'other-crawls'],
    queryFn: () => api<CrawlOfIcd[]>('GET', `/api/crawls/${crawlId}/exports/other-crawls`),
    enabled: crawlId !== null,
  });
}

/** Requests an export of a crawl: whole, or the part a selection picks (a collection). */
export function useRequestExport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ crawlId, selection, format, pageText, otherCrawls }: { crawlId: number; selection?: SelectionInput; format: ExportFormat; pageText: boolean; otherCrawls?: readonly number[] }) =>
      api<ExportRecord>('POST', `/api/crawls/${crawlId}/exports`, {
        format, ...(format === 'wacz' && pageText ? { pageText } : {}), ...(selection ? { selection } : {}), ...(otherCrawls?.length ? { otherCrawls } : {}),
      }),
    // The new export joins the list at once, pending: the list then polls until it ends, even if
    // the read that follows fails (it used to stop polling, the list showing no export at all).
    onSuccess: (created, { crawlId }) => {
      client.setQueryData<ExportRecord[]>(keys.exports(crawlId), (list) => (list?.some((e) => e.id === created.id) ? list : [created, ...(list ?? [])]));
      void client.invalidateQueries({ queryKey: keys.exports(crawlId) });
    },
  });
}

/** A collection's filters as the API takes them (worker/export/collection-plan.ts validates them). */
export interface SelectionInput {
  hosts?: string[];
  mimeTypes?: string[];
  statusClasses?: string[];
  urlContains?: string;
  coherence?: string[];
  requisites?: boolean;
}

/**
 * The selection the export form describes: its text areas read one entry per line, blank lines
 * dropped; undefined when no field is filled in (the whole crawl, requisites and all). `requisites`
 * is sent only once the manager ticked or cleared it (null: the server's default, takesRequisites).
 */
export function selectionFromForm(form: { hosts: string; mimeTypes: string; statusClasses: string[]; urlContains: string; coherence: string[]; requisites?: boolean | null }): SelectionInput | undefined {
  const lines = (text: string) => text.split('\n').map((l) => l.trim()).filter(Boolean);
  const selection: SelectionInput = {};
  if (lines(form.hosts).length) selection.hosts = lines(form.hosts);
  if (lines(form.mimeTypes).length) selection.mimeTypes = lines(form.mimeTypes);
  if (form.statusClasses.length) selection.statusClasses = [...form.statusClasses];
  if (form.urlContains.trim()) selection.urlContains = form.urlContains.trim();
  if (form.coherence.length) selection.coherence = [...form.coherence];
  if (!Object.keys(selection).length) return undefined;
  if (typeof form.requisites === 'boolean') selection.requisites = form.requisites;
  return selection;
}

/** The file name of an export file, whether the API lists names or `{name, bytes}` objects. */
export function exportFileName(file: ExportFile | string): string {
  return typeof file === 'string' ? file : file.name;
}

export type ShownRate = { value: number; average: boolean };

/**
 * The pages/s a crawl shows: while it runs, the worker's rate over the last seconds; once it has
 * stopped (finished, paused…), its average over the time it ran, as the CLI's summary gives it.
 */
export function shownRate(crawl: Pick<CrawlRow, 'status' | 'stats' | 'runSeconds'>): ShownRate {
  const live = crawl.stats?.pagesPerSecond ?? 0;
  const active = crawl.status === 'running' || crawl.status === 'pausing' || crawl.status === 'stopping';
  const fetched = crawl.stats?.fetched ?? 0;
  if (active || !crawl.runSeconds || !fetched) return { value: live, average: false };
  return { value: fetched / crawl.runSeconds, average: true };
}

/** A number of bytes for people: 1.2 MB. */
export function formatBytes(bytes: number | undefined | null): string {
  if (bytes == null || !Number.isFinite(bytes)) return '–';
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit += 1;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

/** A date for people, in the browser's locale; `–` when missing. */
export function formatDate(value: string | null | undefined): string {
  if (!value) return '–';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toLocaleString();
}

/** The owner's name, whatever shape the API gives it. */
export function ownerName(owner: CrawlRow['owner']): string {
  if (!owner) return '–';
  return typeof owner === 'string' ? owner : owner.username ?? '–';
}

const scheduleKey = (icdId: number) => ['icds', icdId, 'schedule'] as const;

/** The ICD's schedule (null when it has none); refreshed each minute, as due times pass and crawls start. */
export function useCrawlSchedule(icdId: number) {
  return useQuery({
    queryKey: scheduleKey(icdId),
    queryFn: () => api<{ schedule: ScheduleView | null }>('GET', `/api/icds/${icdId}/schedule`).then((b) => b.schedule),
    refetchInterval: 60_000,
  });
}

/** Sets the ICD's schedule (`input`), or removes it (`null`). */
export function useSaveCrawlSchedule(icdId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: ScheduleInput | null) =>
      input === null
        ? api<void>('DELETE', `/api/icds/${icdId}/schedule`).then(() => null)
        : api<{ schedule: ScheduleView }>('PUT', `/api/icds/${icdId}/schedule`, input).then((b) => b.schedule),
    onSuccess: (schedule) => client.setQueryData(scheduleKey(icdId), schedule),
  });
}
