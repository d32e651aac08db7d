import type Database from 'better-sqlite3';
import { canonicalize } from '../url';
import { storedUrlReader } from './frontier-sql';
import { followRedirects, type ChainCut, type SeedHop, type SeedReportRow } from './seed-chain';

/**
 * Heritrix's seeds report (Archive-It's "Seeds" tab): what became of each seed of the crawl, and,
 * when it redirects, of each URL it redirects to, up to the page the chain ends on. A seed that
 * redirects out of scope (http://example.org/ to https://www.example.org/) is the commonest reason
 * a crawl captures nothing, and the crawl log alone shows it only as a 301.
 */

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
  return withMessages(db, crawlId, await readSeedChains(db, crawlId, seeds.slice(0, limit), queryHandling, locationOf));
}

/** A seed's chain without its crawl-log messages, which cost a pass over the crawl's log to read (withMessages). */
export type SeedChain = { seed: string; hops: Omit<SeedHop, 'message'>[]; cut: ChainCut | null };

/** The chain of each of `seeds` through its redirects, as readSeedReport reads it, without the messages. */
export async function readSeedChains(
  db: Database.Database,
  crawlId: number,
  seeds: readonly string[],
  queryHandling: 'keep' | 'sort' | 'strip',
  locationOf: (warcFile: string, offset: number, length: number) => Promise<string | null>,
): Promise<SeedChain[]> {
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
  const chains: SeedChain[] = [];
  for (const seed of seeds) {
    const canonical = canonicalize(seed, undefined, { queryHandling }) ?? seed;
    chains.push({ seed, ...(await followRedirects(canonical, { hop, location })) });
  }
  return chains;
}

/** `chains` with each hop's latest crawl-log message: the seeds report's rows. */
export function withMessages(db: Database.Database, crawlId: number, chains: readonly SeedChain[]): SeedReportRow[] {
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
