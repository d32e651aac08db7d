/**
 * Messages between the crawl worker process and the server (Node IPC). The server relays
 * crawl events to socket.io rooms, batched, so the browser gets a few messages a second at most.
 */

/** A limit of the ICD's scope that can end a crawl with URLs still to visit. */
export type CrawlLimit = 'time-limit' | 'size-limit' | 'page-limit';

/** The live pages/s (CrawlStats.pagesPerSecond) counts the captures of the last RATE_WINDOW_MS. */
export const RATE_WINDOW_MS = 5000;

export interface CrawlStats {
  fetched: number;
  queued: number;
  inFlight: number;
  failed: number;
  failedByReason: Record<string, number>;
  excluded: number;
  excludedByReason: Record<string, number>;
  bytes: number;
  pagesPerSecond: number;
  statusClasses: Record<string, number>;
  updatedAt: string;
  /**
   * Why the crawl finished with URLs still to visit: its time limit (scope.maxDurationMinutes) ran
   * out, its captures reached its size limit (scope.maxBytes), or its fetches its page limit
   * (scope.maxPages, the CLI's --max-pages).
   */
  endedBy?: CrawlLimit;
  /**
   * Hosts in back-off while the crawl runs (they gave no answer: worker/politeness/host-outage.ts)
   * and the earliest next try of one (ISO time): the crawl waits for them when nothing else is left.
   */
  hostsInBackoff?: number;
  nextHostTryAt?: string;
}

export interface CaptureSummary {
  id: number;
  url: string;
  status: number;
  mime: string | null;
  size: number;
  fetchedAt: string;
  score?: number | null;
  /** An HTML page's title. */
  title?: string | null;
  /** The body's WARC-Truncated value when it was cut short (Capture.truncated), else null. */
  truncated?: string | null;
}

export type WorkerMessage =
  | { type: 'ready'; pid: number }
  | { type: 'stats'; crawlId: number; stats: CrawlStats }
  /** The newest captures (a few dozen at most) of `count` made since the last message. */
  | { type: 'captures'; crawlId: number; captures: CaptureSummary[]; count: number }
  | { type: 'relevance'; crawlId: number; payload: unknown }
  | { type: 'coherence'; crawlId: number; payload: unknown }
  | { type: 'status'; crawlId: number; status: string };

export type ServerMessage = { type: 'poke' } | { type: 'shutdown' };

/**
 * What a crawl's room hears: the worker's events (batched), and `deleted`, which the API sends once
 * it has deleted the crawl, so that pages open on it say so rather than show it as it was.
 */
export type CrawlEventKind = 'stats' | 'capture' | 'relevance' | 'coherence' | 'status' | 'deleted';

/** The socket.io event name for a crawl event, as DESIGN.md fixes it. */
export function crawlEventName(crawlId: number, kind: CrawlEventKind): string {
  return `crawl:${crawlId}:${kind}`;
}

export function crawlRoom(crawlId: number): string {
  return `crawl:${crawlId}`;
}

/**
 * Why a socket has no live events: the socket.io handshake's error when the cookie's session has
 * ended (or there is none), and a subscription's answer then.
 */
export const SOCKET_UNAUTHENTICATED = 'unauthenticated';

/** Sent to a connected socket whose session has ended (a sign-out in another tab, an expiry), just before the server disconnects it. */
export const SESSION_ENDED_EVENT = 'session:ended';
