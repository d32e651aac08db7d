import type Database from 'better-sqlite3';
import { canonicalize } from '../url';
import { storedUrlReader } from './frontier-sql';

/**
 * Heritrix's seeds report (Archive-It's "Seeds" tab): what became of each seed of the crawl, and,
 * when it redirects, of each URL it redirects to, up to the page the chain ends on. A seed that
 * redirects out of scope (http://example.org/ to https://www.example.org/) is the commonest reason
 * a crawl captures nothing, and the crawl log alone shows it only as a 301.
 */

/** One URL of a seed's chain, as the frontier and the crawl log have it. */
export interface SeedHop {
  url: string;
  /** Its frontier state (queued, in-flight, done, failed, excluded, retrying); `unseen` when the crawl has not seen it. */
  state: string;
  /** HTTP status of its last fetch; null: none answered. */
  status: number | null;
  /** Why it failed or was excluded (the crawl log's outcome); null otherwise. */
  reason: string | null;
  /** The message of its latest crawl-log entry; null when none has one. */
  message: string | null;
}

/** Why a chain stopped at a redirect rather than at a page: a URL it came through already, more than MAX_SEED_REDIRECTS, or a redirect without a usable Location. */
export type ChainCut = 'loop' | 'too-many-redirects' | 'no-location';

export interface SeedReportRow {
  /** The seed as the ICD gives it. */
  seed: string;
  /** The seed (canonical), then each URL it redirects to, in order. */
  hops: SeedHop[];
  cut: ChainCut | null;
}

/** Redirects followed at most from a seed: as many as a polite browser would. */
export const MAX_SEED_REDIRECTS = 10;

/** A fetched 3xx other than 304: a Not Modified answers a conditional request and points nowhere (RFC 9110 §15.4.5). */
export const isRedirect = (hop: Pick<SeedHop, 'state' | 'status'>): boolean => hop.state === 'done' && hop.status !== null && hop.status >= 300 && hop.status < 400 && hop.status !== 304;

/**
 * Follows `first` (a seed's canonical URL) through its redirects: `hop` says what the crawl holds of
 * a URL, `location` where a fetched redirect pointed (canonical; null: no usable Location).
 */
export async function followRedirects(
  first: string,
  io: { hop(url: string): Omit<SeedHop, 'message'>; location(url: string): Promise<string | null> },
): Promise<{ hops: Omit<SeedHop, 'message'>[]; cut: ChainCut | null }> {
  const hops = [io.hop(first)];
  for (;;) {
    const last = hops.at(-1)!;
    if (!isRedirect(last)) return { hops, cut: null };
    const target = await io.location(last.url);
    if (target === null) return { hops, cut: 'no-location' };
    if (hops.some((h) => h.url === target)) return { hops, cut: 'loop' };
    if (hops.length > MAX_SEED_REDIRECTS) return { hops, cut: 'too-many-redirects' };
    hops.push(io.hop(target));
  }
}

/**
 * The seeds report of crawl `crawlId` for its first `limit` seeds. `locationOf(warcFile, offset,
 * length)` reads a stored redirect's Location header from its record (the database keeps no
 * header). Links are canonicalised as the crawl does (`queryHandling`).
 */
export async function readSeedReport(
  db: Database.Database,
  crawlId: number,
  seeds: readonly string[],
  queryHandling: 'keep' | 'sort' | 'strip',
  limit: number,
  locationOf: (warcFile: string, offset: number, length: number) => Promise<string | null>,
): Promise<SeedReportRow[]> {
  const stored = storedUrlReader(db, crawlId);
  const latestRedirect = db.prepare('SELECT warcFile, warcOffset, warcLength FROM Capture WHERE crawlId = ? AND url = ? AND status BETWEEN 300 AND 399 ORDER BY id DESC LIMIT 1');
  const hop = (url: string): Omit<SeedHop, 'message'> => {
    const r = stored(url);
    return r ? { url, state: r.state, status: r.status, reason: r.reason } : { url, state: 'unseen', status: null, reason: null };
  };
  const location = async (url: string): Promise<string | null> => {
    const capture = latestRedirect.get(crawlId, url) as { warcFile: string; warcOffset: number; warcLength: number } | undefined;
    if (!capture) return null;
    const target = await locationOf(capture.warcFile, capture.warcOffset, capture.warcLength).catch(() => null);
    return target === null ? null : canonicalize(target, url, { queryHandling });
  };
  const chains = [];
  for (const seed of seeds.slice(0, limit)) {
    const canonical = canonicalize(seed, undefined, { queryHandling }) ?? seed;
    chains.push({ seed, ...(await followRedirects(canonical, { hop, location })) });
  }
  const messages = latestMessages(db, crawlId, [...new Set(chains.flatMap((c) => c.hops.map((h) => h.url)))]);
  return chains.map(({ seed, hops, cut }) => ({ seed, hops: hops.map((h) => ({ ...h, message: messages.get(h.url) ?? null })), cut }));
}

/** The latest crawl-log message of each of `urls`: one pass over the crawl's log (no index by URL), 500 URLs a query. */
function latestMessages(db: Database.Database, crawlId: number, urls: string[]): Map<string, string> {
  const latest = new Map<string, string>();
  for (let i = 0; i < urls.length; i += 500) {
    const part = urls.slice(i, i + 500);
    const rows = db
      .prepare(`SELECT url, message FROM CrawlLogEntry WHERE crawlId = ? AND url IN (${part.map(() => '?').join(', ')}) AND message IS NOT NULL ORDER BY id`)
      .all(crawlId, ...part) as { url: string; message: string }[];
    for (const r of rows) latest.set(r.url, r.message);
  }
  return latest;
}
