'use client';
import { useEffect, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import { io, type Socket } from 'socket.io-client';
import { SESSION_ENDED_EVENT, SOCKET_UNAUTHENTICATED, type CaptureSummary, type CrawlStats } from '../../../worker/events/messages';
import type { Paged } from './api';
import type { ThroughputPoint } from '../server/throughput-history';
import { keys, type CaptureRow, type CrawlDetail, type RelevancePoint, type RelevanceSeries } from './queries';
import { sessionKey } from './session';

/**
 * Live crawl events: socket.io pushes `crawl:<id>:stats|capture|status|relevance|coherence|deleted`, and
 * this module writes them into React Query's cache (or marks what they change stale), so the cache
 * stays the one source for counters, tables and charts.
 */

/** One sample of the stats over time (the live chart's data; the history route's points have this shape). */
export type StatsSample = ThroughputPoint;

const MAX_SAMPLES = 600;
let shared: Socket | null = null;

function socket(): Socket {
  if (!shared) shared = io({ withCredentials: true, transports: ['websocket', 'polling'] });
  return shared;
}

/** Closes `s` for good (no reconnection); the next page that wants events opens a new socket, with the cookie of the time. */
function closeSocket(s: Socket): void {
  if (shared === s) shared = null;
  s.disconnect();
}

export function appendSample(client: QueryClient, crawlId: number, stats: Partial<CrawlStats>): void {
  // A crawl the worker has not reported on yet has empty stats: nothing to plot.
  if (typeof stats.fetched !== 'number') return;
  const sample: StatsSample = {
    at: Date.parse(stats.updatedAt ?? '') || Date.now(),
    pagesPerSecond: stats.pagesPerSecond ?? 0,
    fetched: stats.fetched,
    statusClasses: { ...stats.statusClasses },
  };
  client.setQueryData<StatsSample[]>(keys.statsHistory(crawlId), (old = []) => {
    if (old.length && old[old.length - 1]!.at >= sample.at) return old;
    return thinSamples([...old, sample], MAX_SAMPLES);
  });
}

/**
 * At most `max` samples that still span the whole time the page watched: past `max`, about half
 * are kept, evenly spread from the first to the latest (each at least span / (max / 2) after the
 * one kept before it), so a long watch is drawn coarser rather than cut. Dropping the oldest
 * instead left, after ten minutes of samples a second, a straight line from the history the page
 * opened with to the oldest sample kept.
 */
export function thinSamples<T extends { at: number }>(samples: T[], max: number): T[] {
  if (samples.length <= max) return samples;
  const first = samples[0]!;
  const latest = samples[samples.length - 1]!;
  const step = (latest.at - first.at) / Math.max(1, Math.floor(max / 2));
  const kept = [first];
  for (const sample of samples.slice(1, -1)) if (sample.at - kept[kept.length - 1]!.at >= step) kept.push(sample);
  kept.push(latest);
  return kept;
}

/**
 * The charts' samples: the crawl's history as stored (rebuilt from its captures when the page
 * opened) up to the first sample this page received live, then the live ones.
 */
export function withHistory(history: StatsSample[], live: StatsSample[]): StatsSample[] {
  const firstLive = live[0]?.at ?? Number.POSITIVE_INFINITY;
  return [...history.filter((h) => h.at < firstLive), ...live];
}

function applyStats(client: QueryClient, crawlId: number, stats: CrawlStats): void {
  client.setQueryData<CrawlDetail>(keys.crawl(crawlId), (old) => (old ? { ...old, stats } : old));
  appendSample(client, crawlId, stats);
}

/** A sorted or filtered list on screen is read again at most this often while captures arrive. */
export const RELOAD_SORTED_MS = 3_000;
const lastReload = new WeakMap<QueryClient, Map<string, number>>();

/** Whether the list `key` may be read again now (and notes that it is). */
function reloadDue(client: QueryClient, key: readonly unknown[], now: number): boolean {
  let times = lastReload.get(client);
  if (!times) lastReload.set(client, (times = new Map()));
  const id = JSON.stringify(key);
  if (now - (times.get(id) ?? 0) < RELOAD_SORTED_MS) return false;
  times.set(id, now);
  return true;
}

/** Capture events kept, per list, until the read of the list under way when they came has ended. */
const afterRead = new WeakMap<QueryClient, Map<string, (() => void)[]>>();

/**
 * A read of the list `key` under way may have begun before these captures were stored: its answer
 * would replace them, and the page would count them nowhere. They are applied again once it has
 * ended (those it holds are told by id and skipped). Cancelling the read to begin another would
 * starve the list when reads take longer than events take to come.
 */
function applyAfterRead(client: QueryClient, key: readonly unknown[], crawlId: number, captures: CaptureSummary[], count: number): void {
  let pending = afterRead.get(client);
  if (!pending) {
    const waiting = new Map<string, (() => void)[]>();
    afterRead.set(client, (pending = waiting));
    client.getQueryCache().subscribe((event) => {
      // A read's answer; not a list written here (setQueryData is a 'success' too, marked manual).
      if (event.type !== 'updated' || event.action.type !== 'success' || event.action.manual) return;
      const again = waiting.get(event.query.queryHash);
      if (!again) return;
      waiting.delete(event.query.queryHash);
      // Not inside the cache's own dispatch.
      queueMicrotask(() => again.forEach((apply) => apply()));
    });
  }
  const hash = client.getQueryCache().find({ queryKey: key, exact: true })?.queryHash;
  if (!hash) return;
  pending.set(hash, [...(pending.get(hash) ?? []), () => applyCaptures(client, crawlId, captures, count)]);
}

/**
 * Writes a capture event into the lists of captures. `count` is how many captures the event stands
 * for: the worker and the server send only the newest few dozen of those made in half a second, so
 * a fast crawl makes more than `captures` holds, and the first page's total counts them all.
 */
export function applyCaptures(client: QueryClient, crawlId: number, captures: CaptureSummary[], count = captures.length): void {
  // Only the first, unfiltered, newest-first page shows new captures at its top.
  for (const [key, data] of client.getQueriesData<Paged<CaptureRow>>({ queryKey: ['crawls', crawlId, 'captures'] })) {
    const filter = key[3] as { page: number; q: string; sort: string; upTo?: number | null } | undefined;
    if (!data || !filter) continue;
    // A first page held up to an entry (the keyboard is on it) is read again like pages past it.
    if (filter.page === 1 && !filter.q && !filter.sort && filter.upTo == null) {
      if (client.getQueryState(key)?.fetchStatus === 'fetching') applyAfterRead(client, key, crawlId, captures, count);
      // Ids grow with each capture: those above the page's newest are new to it, newest first.
      const newest = data.items.reduce((top, c) => Math.max(top, c.id), 0);
      const fresh = captures.filter((c) => c.id > newest).sort((a, b) => b.id - a.id);
      if (!fresh.length) continue;
      // Some of the event's captures were read with the page already: so were the older ones it
      // counts but does not carry. Else those are new too.
      const notSent = fresh.length < captures.length ? 0 : Math.max(0, count - captures.length);
      client.setQueryData<Paged<CaptureRow>>(key, {
        ...data,
        items: [...fresh, ...data.items].slice(0, data.pageSize),
        total: data.total + fresh.length + notSent,
      });
    } else {
      // Where new captures land in a sorted list (the most relevant ones) only the server knows:
      // a list on screen is read again, a few seconds apart; others are marked stale.
      const active = reloadDue(client, key, Date.now());
      void client.invalidateQueries({ queryKey: key, exact: true, refetchType: active ? 'active' : 'none' });
    }
  }
}

/** The captures of a capture event: a bare list, or `{captures: [...]}` as the server batches them. */
export function capturesOf(payload: unknown): CaptureSummary[] {
  const list = Array.isArray(payload) ? payload : (payload as { captures?: unknown } | null)?.captures;
  return Array.isArray(list) ? (list as CaptureSummary[]).filter((c) => c && typeof c.url === 'string') : [];
}

/** How many captures a capture event stands for: its `count` when the server sent one, else the captures it holds (`shown`). */
export function captureCountOf(payload: unknown, shown: number): number {
  const count = Array.isArray(payload) ? undefined : (payload as { count?: unknown } | null)?.count;
  return typeof count === 'number' && Number.isSafeInteger(count) && count > shown ? count : shown;
}

/** Normalises a relevance event: a whole series, or one point to add. */
export function mergeRelevance(old: RelevanceSeries | undefined, payload: unknown): RelevanceSeries | undefined {
  if (!payload || typeof payload !== 'object') return old;
  const p = payload as Partial<RelevanceSeries> & Partial<RelevancePoint>;
  if (Array.isArray(p.points)) return { ...old, ...p, points: p.points };
  if (typeof p.documents === 'number' && typeof p.meanSimilarity === 'number') {
    const points = [...(old?.points ?? []).filter((q) => q.documents !== p.documents), p as RelevancePoint].sort((a, b) => a.documents - b.documents);
    return { ...old, points };
  }
  return old;
}

export type LiveState = 'connecting' | 'live' | 'offline' | 'refused' | 'session-ended';

/**
 * What a refused or failed connection means: the session has ended (the server refused the
 * handshake for it), refused for another reason (socket.io does not try again after a refusal), or
 * offline while socket.io reconnects (`active`).
 */
export function connectErrorState(message: string, active: boolean): LiveState {
  if (message === SOCKET_UNAUTHENTICATED) return 'session-ended';
  return active ? 'offline' : 'refused';
}

/**
 * Subscribes to one crawl's events while the component is mounted. When the session ends (a
 * sign-out in another tab, an expiry), the server refuses the socket or drops it: the state is
 * 'session-ended', the socket is closed rather than left reconnecting for ever, and the session is
 * read again, so the app shell sends the tab to the login page (which comes back here) or, over
 * unsaved edits, says to sign in again. Signed in again meanwhile, the page reconnects.
 */
export function useCrawlEvents(crawlId: number): LiveState {
  const client = useQueryClient();
  const [state, setState] = useState<LiveState>('connecting');
  // Bumped to open a new socket once the user has signed in again.
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    const s = socket();
    let subscribedBefore = false;
    let unmounted = false;
    const onSessionEnded = () => {
      closeSocket(s);
      setState('session-ended');
      void client.refetchQueries({ queryKey: sessionKey, exact: true }).then(() => {
        const session = client.getQueryState(sessionKey);
        if (!unmounted && session?.status === 'success' && session.data) setAttempt((n) => n + 1);
      });
    };
    const subscribe = () =>
      s.emit('subscribe', { crawlId }, (reply: { ok: boolean; error?: string }) => {
        if (reply?.error === SOCKET_UNAUTHENTICATED) return onSessionEnded();
        setState(reply?.ok ? 'live' : 'refused');
        if (!reply?.ok) return;
        // Events sent before this subscription are gone. The first time, only what may have moved
        // since the page read it is read again: the crawl (its status, controls) and the lists.
        // After a disconnection (a network blip, a server restart) anything may have happened, a
        // pause from another tab, the crawl's end: everything of the crawl is read again, as on a
        // status event.
        if (subscribedBefore) {
          void client.invalidateQueries({ queryKey: keys.crawl(crawlId) });
        } else {
          void client.invalidateQueries({ queryKey: keys.crawl(crawlId), exact: true });
          void client.invalidateQueries({ queryKey: ['crawls', crawlId, 'captures'] });
          void client.invalidateQueries({ queryKey: keys.incremental(crawlId) });
        }
        subscribedBefore = true;
      });
    const onStats = (stats: CrawlStats) => applyStats(client, crawlId, stats);
    const onCaptures = (payload: unknown) => {
      const captures = capturesOf(payload);
      applyCaptures(client, crawlId, captures, captureCountOf(payload, captures.length));
    };
    const onStatus = ({ status }: { status: string }) => {
      client.setQueryData<CrawlDetail>(keys.crawl(crawlId), (old) => (old ? { ...old, status } : old));
      // A status change (finished, paused…) settles counters and lists: re-read everything of the crawl.
      void client.invalidateQueries({ queryKey: keys.crawl(crawlId) });
      void client.invalidateQueries({ queryKey: keys.crawls });
    };
    const onRelevance = (payload: unknown) =>
      client.setQueryData<RelevanceSeries>(keys.relevance(crawlId), (old) => mergeRelevance(old, payload));
    // A feed poll or a recrawl round ended (phase 'feed' or 'recrawl'; the batcher keeps one event a
    // flush, so any phase re-reads the section).
    const onCoherence = () => void client.invalidateQueries({ queryKey: keys.incremental(crawlId) });
    // Deleted (here, in another tab, by someone else): the crawl is read again, and its 404 tells the page.
    const onDeleted = () => void client.invalidateQueries({ queryKey: keys.crawl(crawlId), exact: true });
    const onDisconnect = () => setState('offline');
    const onConnectError = (err: Error) => {
      const next = connectErrorState(err.message, s.active);
      if (next === 'session-ended') onSessionEnded();
      else setState(next);
    };
    s.on(`crawl:${crawlId}:stats`, onStats);
    s.on(`crawl:${crawlId}:capture`, onCaptures);
    s.on(`crawl:${crawlId}:status`, onStatus);
    s.on(`crawl:${crawlId}:relevance`, onRelevance);
    s.on(`crawl:${crawlId}:coherence`, onCoherence);
    s.on(`crawl:${crawlId}:deleted`, onDeleted);
    s.on('connect', subscribe);
    s.on('disconnect', onDisconnect);
    s.on('connect_error', onConnectError);
    s.on(SESSION_ENDED_EVENT, onSessionEnded);
    if (s.connected) subscribe();
    return () => {
      unmounted = true;
      s.emit('unsubscribe', { crawlId });
      s.off(`crawl:${crawlId}:stats`, onStats);
      s.off(`crawl:${crawlId}:capture`, onCaptures);
      s.off(`crawl:${crawlId}:status`, onStatus);
      s.off(`crawl:${crawlId}:relevance`, onRelevance);
      s.off(`crawl:${crawlId}:coherence`, onCoherence);
      s.off(`crawl:${crawlId}:deleted`, onDeleted);
      s.off('connect', subscribe);
      s.off('disconnect', onDisconnect);
      s.off('connect_error', onConnectError);
      s.off(SESSION_ENDED_EVENT, onSessionEnded);
    };
  }, [client, crawlId, attempt]);
  return state;
}
