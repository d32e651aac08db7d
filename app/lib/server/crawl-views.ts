import type { PrismaClient } from '../../../worker/store/prisma';
import type { CrawlRequestOutcome } from '../../../worker/process/crawl-requests';
import { HttpError, idParam } from './handler';
import { icdSchema, type Icd } from '../../../worker/icd/schema';
import { STORED_ICD_REFUSED, refusedFields, viewableIcd } from '../../../worker/icd/stored-icd-repair';
import type Database from 'better-sqlite3';
import { inIdOrder, listPage } from './list-query';
import { STATUS_GROUPS } from '../client/crawl-list-view';
import { crawlListConditions, type CrawlListQuery } from './crawl-list-sql';

/** What the API shows of a crawl (stats and, on request, the ICD copy parsed from their JSON). */
export interface CrawlView {
  id: number;
  icdId: number;
  name: string;
  status: string;
  desired: string;
  owner: string | null;
  createdAt: Date;
  startedAt: Date | null;
  finishedAt: Date | null;
  error: string | null;
  /** The knowledge base the crawl's AAH runs with (its copy taken at creation); null when the AAH is off or for a crawl created before copies were taken (the shipped one). */
  knowledgeBaseName: string | null;
  stats: Record<string, unknown>;
  /** Seconds the crawl has run, over all its runs (pauses and restarts excluded). */
  runSeconds: number;
  /**
   * A single crawl's ICD copy, each of its lists cut to the first ITEMS_IN_VIEW (`seedCount` says
   * how many seeds there are, `listCounts` how many items each list cut has; GET /api/crawls/:id/seeds
   * pages through the seeds, `?lists=whole` gives the copy whole).
   */
  definition?: unknown;
  /** With the ICD copy: how many seeds it has. */
  seedCount?: number;
  /** With the ICD copy: how many items each of its lists that was cut has, by its path (`scope.allowedHosts`); the seeds' is `seedCount`. */
  listCounts?: Record<string, number>;
  /**
   * With the ICD copy, of a crawl that may be asked to resume (paused, or pausing): the fields of
   * the copy this version refuses, which are to be corrected before it may resume; else empty.
   */
  refusedSettings?: string[];
}

/**
 * The columns the crawls list shows. Not the ICD copy: up to 10,000 seeds and the topic terms, a
 * few hundred kilobytes a crawl, which the list polled every 3 s read for every crawl and dropped.
 */
const listSelect = {
  id: true, icdId: true, name: true, status: true, desired: true, createdAt: true, startedAt: true, finishedAt: true,
  error: true, knowledgeBaseName: true, stats: true, owner: { select: { username: true } }, runs: { select: { startedAt: true, endedAt: true } },
} as const;

/** One crawl's columns: the list's and its ICD copy. */
const select = { ...listSelect, definition: true } as const;

/** A stored JSON column, or `fallback` when it is empty or cannot be read. */
export function parseJsonOr<T>(text: string | null, fallback: T): T {
  try {
    return text ? (JSON.parse(text) as T) : fallback;
  } catch {
    return fallback;
  }
}

type Run = { startedAt: Date; endedAt: Date | null };
type Row = { id: number; icdId: number; name: string; status: string; desired: string; createdAt: Date; startedAt: Date | null; finishedAt: Date | null; error: string | null; knowledgeBaseName: string | null; stats: string; definition?: string; owner: { username: string } | null; runs: Run[] };

/**
 * Seconds a crawl has run: the sum of its runs. Its latest run, without an end, counts up to `now`
 * while the crawl runs; any other run without an end had a worker that died before recording it,
 * and its length is unknown (counted up to now too, a crawl restarted after a crash showed more run
 * time than had passed).
 */
export function runSeconds(runs: Run[], running: boolean, now: number): number {
  let ms = 0;
  const latest = runs.reduce<Run | null>((a, r) => (a === null || r.startedAt > a.startedAt ? r : a), null);
  for (const r of runs) {
    const end = r.endedAt ? r.endedAt.getTime() : running && r === latest ? now : null;
    if (end !== null) ms += Math.max(0, end - r.startedAt.getTime());
  }
  return Math.round(ms / 100) / 10;
}

/** How a crawl's answer holds its ICD copy's lists: each cut to ITEMS_IN_VIEW, or whole. */
export type IcdLists = 'cut' | 'whole';

/** What the API shows of a row; with its ICD copy when the row holds one (a single crawl's). */
function view(row: Row, lists: IcdLists = 'cut'): CrawlView {
  const { owner, stats, definition, runs, ...rest } = row;
  return {
    ...rest,
    owner: owner?.username ?? null,
    stats: parseJsonOr<Record<string, unknown>>(stats, {}),
    runSeconds: runSeconds(runs, row.status === 'running', Date.now()),
    ...(definition !== undefined ? withDefinition(row, parseJsonOr<unknown>(definition, null), lists) : {}),
  };
}

/**
 * Items a crawl's answer holds of each list of its ICD copy. The cockpit reads the answer again on
 * every status change and reconnection of a running crawl: with all 5,000 seeds of a crawl it was
 * 143 KB, of 10,000 nearly 300 KB, and the other lists may be as long (10,000 allowed hosts, SURT
 * prefixes, blacklist entries or robots.txt prefixes, 5,000 topic terms, 1,000 entities of 100
 * aliases: ICD_LIMITS), though the crawl page shows none of them but the first 5 seeds and whether
 * there are feeds; the seeds report pages through the seeds, GET /api/crawls/:id?lists=whole gives the copy whole.
 */
export const ITEMS_IN_VIEW = 20;

/** The ICD copy's lists held as maps (term → weight): cut to their `max` heaviest entries. */
const WEIGHT_MAPS = new Set(['focus.topicTerms']);

/**
 * The ICD copy with each of its lists (at any depth: an entity's aliases too) cut to its first
 * `max` items, and each weight map to its `max` heaviest entries; `seedCount` how many seeds it has
 * (0 when it holds no list of them), `listCounts` how many items each other list or map that was cut
 * has, by its path (`scope.allowedHosts`, `focus.entities.3.aliases`). Pure.
 */
export function withListsCut(definition: unknown, max: number): { definition: unknown; seedCount: number; listCounts: Record<string, number> } {
  const listCounts: Record<string, number> = {};
  const cut = (value: unknown, path: string): unknown => {
    if (Array.isArray(value)) {
      if (value.length > max && path !== 'seeds') listCounts[path] = value.length;
      return value.slice(0, max).map((item, i) => cut(item, `${path}.${i}`));
    }
    if (!value || typeof value !== 'object') return value;
    const entries = Object.entries(value);
    if (WEIGHT_MAPS.has(path) && entries.length > max) {
      listCounts[path] = entries.length;
      return Object.fromEntries(entries.sort(([, a], [, b]) => Number(b) - Number(a)).slice(0, max));
    }
    return Object.fromEntries(entries.map(([key, item]) => [key, cut(item, path ? `${path}.${key}` : key)]));
  };
  const seeds = (definition as { seeds?: unknown } | null | undefined)?.seeds;
  return { definition: cut(definition ?? {}, ''), seedCount: Array.isArray(seeds) ? seeds.length : 0, listCounts };
}

/** A single crawl's ICD copy (see ITEMS_IN_VIEW), and its refused settings when it may be asked to resume (parsing 10,000 seeds is not free). */
function withDefinition(row: Row, definition: unknown, lists: IcdLists): Pick<CrawlView, 'definition' | 'seedCount' | 'listCounts' | 'refusedSettings'> {
  const resumable = row.status === 'paused' || row.desired === 'pause';
  return {
    ...withListsCut(definition, lists === 'cut' ? ITEMS_IN_VIEW : Infinity),
    refusedSettings: resumable ? refusedFields(definition).map((r) => r.field) : [],
  };
}

/** Times listCrawls reads a page whose crawls changed under it before it answers with what it read. */
const LIST_READS = 3;

/**
 * One page of the crawls the query selects, newest first, without their ICD copies (see
 * listSelect), and how many it selects in all. The ids are picked and counted in SQL over the
 * covering index Crawl_list_idx (id order, no sort), in one snapshot. The page's rows are then
 * read as the id range they span, not `id IN (…)`: SQLite reads that by rowid, from the table
 * rows, walking each one's ICD copy; a range it reads from the index. Under a name filter the
 * range may hold crawls the page does not show (index entries only), which are dropped.
 *
 * The rows come through Prisma, on its own connection, after the ids: a crawl deleted (or moved
 * out of the status group) in between left the page one short, beside a total that still counted
 * it, until the next refresh. A page whose rows are not all there is read again, ids and total
 * too, so the page and the total agree.
 */
export async function listCrawls(prisma: PrismaClient, db: Database.Database, query: CrawlListQuery): Promise<{ items: CrawlView[]; total: number }> {
  const conditions = crawlListConditions(query);
  const statuses: readonly string[] | null = STATUS_GROUPS[query.group].statuses;
  for (let read = 1; ; read++) {
    const { ids, total } = listPage(db, { table: 'Crawl', conditions: conditions.length ? conditions : [{ sql: '1', params: [] }], orderBy: 'id DESC', offset: query.offset, limit: query.limit });
    if (ids.length === 0) return { items: [], total };
    const rows = await prisma.crawl.findMany({
      where: { id: { gte: Math.min(...ids), lte: Math.max(...ids) }, ...(statuses ? { status: { in: [...statuses] } } : {}) },
      select: listSelect,
    });
    const items = inIdOrder(rows, ids);
    if (items.length === ids.length || read === LIST_READS) return { items: items.map((row) => view(row)), total };
  }
}

/**
 * The id of an existing crawl from a route parameter, or 404. Every `/api/crawls/:id/…` route
 * starts here: without it a crawl that is not there answered 200 with empty lists.
 */
export async function existingCrawlId(prisma: PrismaClient, param: string | undefined): Promise<number> {
  const id = idParam(param);
  if (!(await prisma.crawl.findUnique({ where: { id }, select: { id: true } }))) throw new HttpError(404, 'not found');
  return id;
}

/** One crawl with its ICD copy (its lists cut, unless `lists` says whole: see ITEMS_IN_VIEW), or 404. */
export async function getCrawl(prisma: PrismaClient, id: number, lists: IcdLists = 'cut'): Promise<CrawlView> {
  const row = await prisma.crawl.findUnique({ where: { id }, select });
  if (!row) throw new HttpError(404, 'not found');
  return view(row, lists);
}

/**
 * The crawl's own copy of its ICD, parsed; 404 when there is no such crawl. One an earlier version
 * stored with settings this version refuses is read, for `view` (reports, charts), with those
 * settings at their defaults (viewableIcd); a use that judges or queues URLs by it gets 409 until
 * they are corrected (it was a 400 "invalid", as if the request were).
 */
export async function crawlIcd(prisma: PrismaClient, id: number, use: 'view' | 'judge-urls'): Promise<Icd> {
  const row = await prisma.crawl.findUnique({ where: { id }, select: { definition: true } });
  if (!row) throw new HttpError(404, 'not found');
  const stored = JSON.parse(row.definition) as unknown;
  const icd = use === 'view' ? viewableIcd(stored) : icdSchema.safeParse(stored).data;
  if (!icd) throw new HttpError(409, `${STORED_ICD_REFUSED}: correct them first (Correct the refused settings, on the crawl's page)`);
  return icd;
}

/** What a crawl request (worker/process/crawl-requests.ts) gave, or its 404 (no such crawl) or 409 (refused). */
export function settledRequest<T>(outcome: CrawlRequestOutcome<T>): T {
  if (outcome === 'missing') throw new HttpError(404, 'not found');
  if ('refused' in outcome) throw new HttpError(409, outcome.refused);
  return outcome.done;
}
