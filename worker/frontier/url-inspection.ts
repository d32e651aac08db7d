import type Database from 'better-sqlite3';
import type { Icd } from '../icd/schema';
import { canonicalize, isRobotsTxtUrl } from '../url';
import { compileScope, requisiteRedirectsOf, scopeWithoutPage, type OutsideAllowance } from '../url/scope';
import { storedUrlReader } from './frontier-sql';

/**
 * "Why did the crawl not capture this page?", the question archivists ask most of a crawl: one
 * URL as the crawl knows it. Its frontier row (state, reason, depth, how it was found), the way it
 * was discovered back to its seed (Heritrix's discovery path), its captures and crawl-log entries,
 * how far outside the scope it lies and what took it there, and, for a URL the crawl never saw,
 * whether its scope would take it.
 */

/** A URL's row in the frontier. */
export interface FrontierEntry {
  url: string;
  state: string;
  reason: string | null;
  depth: number;
  /** How it was found: seed, navigation, requisite, redirect, sitemap, feed… */
  kind: string;
  /**
   * The page it was found on (for a feed's article the feed, for a sitemap a robots.txt names that
   * robots.txt); null for a seed or a posted URL.
   */
  via: string | null;
  status: number | null;
  attempts: number;
  /**
   * Consecutive links outside the scope that led to it, as the frontier stored them (0: in the
   * scope); null when not kept: a seed, a posted or excluded URL, or one stored before the frontier
   * counted them.
   */
  scopeHops: number | null;
}

export interface UrlInspection {
  /** The URL as the crawl writes it (canonical); null when it is no http(s) URL. */
  url: string | null;
  /** Its frontier row; null when the crawl has not seen it. */
  entry: FrontierEntry | null;
  /**
   * How it was found, from its seed (or the feed or robots.txt it was found in) down to the page
   * that linked to it (empty for a seed, a posted or an unseen URL).
   */
  discoveryPath: { url: string; kind: string }[];
  /** True when the path stops before a seed: a step is missing or it goes past MAX_PATH steps. */
  pathCut: boolean;
  /**
   * For a seen URL outside the scope (scopeHops above 0): what took it, a page requisite (or a
   * requisite's redirect) or the crawl's extra hops; null otherwise.
   */
  takenAs: OutsideAllowance | null;
  /** Out-of-scope hops of the page it was found on, as the frontier stored them; null when not kept or found on no page. */
  viaScopeHops: number | null;
  /** The crawl's scope.extraHops. */
  extraHops: number;
  /**
   * For an unseen URL: whether the crawl's scope takes it whatever page within the depth limit
   * links to it (and if not, why); `takenIf`, when it lies outside the scope, what would still
   * take it, which depends on the page linking to it (url/scope.ts scopeWithoutPage).
   */
  scope: { inScope: boolean; reason: string | null; takenIf: OutsideAllowance[] } | null;
  captures: { id: number; status: number; recordType: string; fetchedAt: string }[];
  log: { at: string; outcome: string; status: number | null; message: string | null }[];
}

/** Steps of a discovery path followed at most: a crawl's depth limit is at most 1,000. */
export const MAX_PATH = 1000;
/** Captures and crawl-log entries listed, newest first. */
export const MAX_LISTED = 10;

/**
 * The discovery path of `entry`: each `via` followed up to a URL with none, an entry point the
 * crawl reads outside its frontier (`entryPoint` names its kind: a feed of the ICD, a robots.txt),
 * a step the frontier lacks or a loop (`cut`), at most MAX_PATH steps. Seed (or entry point) first.
 */
export function discoveryPath(
  entry: FrontierEntry, lookup: (url: string) => FrontierEntry | null, entryPoint: (url: string) => string | null = () => null,
): { path: { url: string; kind: string }[]; cut: boolean } {
  const path: { url: string; kind: string }[] = [];
  const seen = new Set([entry.url]);
  let via = entry.via;
  while (via !== null) {
    if (seen.has(via) || path.length >= MAX_PATH) return { path: path.reverse(), cut: true };
    seen.add(via);
    const step = lookup(via);
    if (!step) {
      const kind = entryPoint(via);
      if (kind === null) return { path: path.reverse(), cut: true };
      path.push({ url: via, kind });
      return { path: path.reverse(), cut: false };
    }
    path.push({ url: step.url, kind: step.kind });
    via = step.via;
  }
  return { path: path.reverse(), cut: false };
}

/** What crawl `crawlId` (run with `icd`) knows of `input`. */
export function inspectUrl(db: Database.Database, crawlId: number, icd: Icd, input: string): UrlInspection {
  const url = canonicalize(input.trim(), undefined, { queryHandling: icd.scope.queryHandling });
  const none: UrlInspection = { url, entry: null, discoveryPath: [], pathCut: false, takenAs: null, viaScopeHops: null, extraHops: icd.scope.extraHops ?? 0, scope: null, captures: [], log: [] };
  if (url === null) return none;
  const stored = storedUrlReader(db, crawlId);
  const lookup = (u: string): FrontierEntry | null => {
    const r = stored(u);
    return r && { url: r.url, state: r.state, reason: r.reason, depth: r.depth, kind: r.kind, via: r.viaUrl, status: r.status, attempts: r.attempts, scopeHops: r.scopeHops };
  };
  const entry = lookup(url);
  const { path, cut } = entry ? discoveryPath(entry, lookup, entryPointKind(icd)) : { path: [], cut: false };
  let scope: UrlInspection['scope'] = null;
  if (!entry) {
    const { decision, takenIf } = scopeWithoutPage(url, compileScope(icd.scope, icd.seeds));
    scope = { inScope: decision.inScope, reason: decision.inScope ? null : decision.reason, takenIf };
  }
  const takenAs = entry ? takenOutsideAs(entry, (u) => { const r = lookup(u); return r && { kind: r.kind, viaUrl: r.via }; }) : null;
  const captures = db
    .prepare('SELECT id, status, recordType, fetchedAt FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id DESC LIMIT ?')
    .all(crawlId, url, MAX_LISTED) as UrlInspection['captures'];
  // No index by URL: one pass over the crawl's log, newest first, stopping at MAX_LISTED.
  const log = db
    .prepare('SELECT at, outcome, status, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id DESC LIMIT ?')
    .all(crawlId, url, MAX_LISTED) as UrlInspection['log'];
  const viaScopeHops = entry?.via ? lookup(entry.via)?.scopeHops ?? null : null;
  return { url, entry, discoveryPath: path, pathCut: cut, takenAs, viaScopeHops, extraHops: none.extraHops, scope, captures, log };
}

/**
 * The kind of a URL where the crawl finds URLs without it being in the frontier, or null: one of
 * the ICD's feeds ('feed': its articles, FEED_ITEM_KIND), a robots.txt ('robots.txt': its Sitemap:
 * lines). Such a URL ends a discovery path as a seed does.
 */
export function entryPointKind(icd: Pick<Icd, 'coherence' | 'scope'>): (url: string) => string | null {
  const feeds = new Set(icd.coherence.feeds.map((f) => canonicalize(f, undefined, { queryHandling: icd.scope.queryHandling }) ?? f));
  return (url) => {
    if (feeds.has(url)) return 'feed';
    return isRobotsTxtUrl(url) ? 'robots.txt' : null;
  };
}

/**
 * What took `entry` outside the scope: a page requisite, or a redirect of one, is 'requisite';
 * any other URL stored with out-of-scope hops came through the crawl's extra hops. Null for a URL
 * in the scope or whose hops were not kept.
 */
export function takenOutsideAs(entry: FrontierEntry, lookup: (url: string) => { kind: string; viaUrl: string | null } | null): OutsideAllowance | null {
  if (entry.scopeHops === null || entry.scopeHops === 0) return null;
  return requisiteRedirectsOf(entry.kind, entry.via, lookup) === null ? 'extra-hops' : 'requisite';
}
