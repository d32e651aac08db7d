import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { ExclusionReason } from '../capture';
import type { Icd } from '../icd/schema';
import { canonicalize, checkScope, compileScope, hostKeyOf } from '../url';
import { S, ensureFrontierTables } from './frontier-sql';
import type { Frontier, UpdateFunction } from './frontier';
import { SeenUrlMap } from './url-hash';
import { runInTransaction } from '../store/sqlite';

/**
 * Scored-URL intake (ARCOMEM's interface for external analysis processes): URLs with a score in
 * [0,1], or a blacklist flag, posted to `POST /api/crawls/:id/urls`. The server screens them
 * against the crawl's ICD and stores them in `frontier_intake`; the worker that runs the crawl
 * applies them to its frontier (a queued URL is rescored with the ICD's update function, a new one
 * is queued like a seed, a blacklisted one is excluded). Stored first, applied later, so URLs
 * posted while the crawl is paused or its worker restarts are not lost.
 */

export const MAX_SCORED_URLS = 10_000;
/**
 * Most scored URLs that may wait in frontier_intake for one crawl. A worker applies them at 2,000
 * per 500 ms while the crawl runs; a paused crawl applies none, and without a bound posting the
 * same 10,000 URLs ten times left 100,000 rows.
 */
export const MAX_PENDING_SCORED_URLS = 100_000;

export const scoredUrlsSchema = z
  .array(
    z.object({
      url: z.string().min(1, 'url is empty').max(8192),
      score: z.number().min(0, 'score must be in [0,1]').max(1, 'score must be in [0,1]'),
      blacklist: z.boolean().optional(),
    }).strict(),
  )
  .min(1, 'send at least one URL')
  .max(MAX_SCORED_URLS, `at most ${MAX_SCORED_URLS} URLs per request`);

export type ScoredUrlInput = z.infer<typeof scoredUrlsSchema>[number];

export interface ScoredUrl {
  url: string;
  score: number;
  blacklist: boolean;
}

export interface ScreenedUrls {
  accepted: ScoredUrl[];
  rejected: { url: string; reason: string }[];
}

/**
 * Canonicalises each URL and checks it against the crawl's scope; blacklisting needs no scope.
 * A URL given more than once (as written, once canonical, or under other session ids, which the
 * seen-set takes for one URL: seenKey) is accepted once, where it first came and as first written:
 * blacklisted if any of its entries blacklists it, since applied one by one an excluded URL
 * is never queued again; otherwise with its last score, the client's latest word on it, as a later
 * post would replace it. Keeping the highest would let a stale high score stand against a
 * correction in the same list. Pure.
 */
export function screenScoredUrls(items: readonly ScoredUrlInput[], icd: Icd): ScreenedUrls {
  const scope = compileScope(icd.scope, icd.seeds);
  const rejected: ScreenedUrls['rejected'] = [];
  const accepted = new SeenUrlMap<ScoredUrl>();
  for (const item of items) {
    const url = canonicalize(item.url, undefined, { queryHandling: icd.scope.queryHandling });
    if (!url) {
      rejected.push({ url: item.url, reason: 'invalid-url' });
      continue;
    }
    const blacklist = item.blacklist === true;
    if (!blacklist) {
      const verdict = checkScope({ url, depth: 0, kind: 'page' }, scope);
      if (!verdict.inScope) {
        rejected.push({ url: item.url, reason: verdict.reason });
        continue;
      }
    }
    const first = accepted.get(url);
    accepted.set(url, { url: first?.url ?? url, score: item.score, blacklist: blacklist || first?.blacklist === true });
  }
  return { accepted: [...accepted.values()], rejected };
}

/** What queueScoredUrls did: `stored` false when the bound of waiting URLs refused them all. */
export interface QueuedScoredUrls {
  stored: boolean;
  pending: number;
}

/**
 * Stores screened URLs for the crawl's worker (one transaction), unless the crawl would then have
 * more than `maxPending` waiting: nothing is stored and `stored` is false. `pending`: the crawl's
 * waiting URLs after the call. Each post is stored as it came, so two posts of one URL are two
 * pieces of evidence for the update function.
 */
export function queueScoredUrls(
  db: Database.Database, crawlId: number, urls: readonly ScoredUrl[], opts: { now?: number; maxPending?: number } = {},
): QueuedScoredUrls {
  ensureFrontierTables(db);
  const { now = Date.now(), maxPending = MAX_PENDING_SCORED_URLS } = opts;
  const insert = db.prepare('INSERT INTO frontier_intake (crawl_id, url, score, blacklist, received_at) VALUES (?, ?, ?, ?, ?)');
  // Counted and written in one transaction: two requests cannot both pass the bound.
  return runInTransaction(db, () => {
    const pending = pendingScoredUrls(db, crawlId);
    if (pending + urls.length > maxPending) return { stored: false, pending };
    for (const u of urls) insert.run(crawlId, u.url, u.score, u.blacklist ? 1 : 0, now);
    return { stored: true, pending: pending + urls.length };
  });
}

export interface IntakeOutcome {
  rescored: number;
  queued: number;
  excluded: number;
  /** Already fetched, failed or excluded: nothing to change. */
  ignored: number;
}

/** How many scored URLs wait in frontier_intake for the crawl. */
export function pendingScoredUrls(db: Database.Database, crawlId: number): number {
  return db.prepare('SELECT COUNT(*) FROM frontier_intake WHERE crawl_id = ?').pluck().get(crawlId) as number;
}

/** How applyScoredIntake applies the waiting URLs. */
export interface ApplyIntakeOptions {
  /** Most URLs applied by this call, so the engine's loop stays responsive (default 2,000). */
  max?: number;
  /**
   * The crawl visits no more URLs (closeVisitSet): a URL new to it is excluded with this reason
   * rather than queued, so the archivist sees it among the excluded. Known and blacklisted URLs
   * are applied as ever.
   */
  excludeNew?: ExclusionReason;
}

/** A posted URL as it waits in frontier_intake. */
interface IntakeRow {
  id: number;
  url: string;
  score: number;
  blacklist: number;
}

/** Applies the crawl's stored scored URLs (the oldest `max`) to its open frontier and deletes them. */
export function applyScoredIntake(
  db: Database.Database, frontier: Frontier, crawlId: number, fn: UpdateFunction, opts: ApplyIntakeOptions = {},
): IntakeOutcome {
  const { max = 2_000, excludeNew } = opts;
  const rows = db.prepare('SELECT id, url, score, blacklist FROM frontier_intake WHERE crawl_id = ? ORDER BY id LIMIT ?').all(crawlId, max) as IntakeRow[];
  const outcome: IntakeOutcome = { rescored: 0, queued: 0, excluded: 0, ignored: 0 };
  if (!rows.length) return outcome;
  const remove = db.prepare('DELETE FROM frontier_intake WHERE crawl_id = ? AND id <= ?');
  runInTransaction(db, () => {
    for (const row of rows) outcome[applyRow(frontier, crawlId, fn, row, excludeNew)] += 1;
    remove.run(crawlId, rows.at(-1)!.id);
  });
  return outcome;
}

/** Applies one posted URL to the crawl's open frontier; what it did. */
function applyRow(frontier: Frontier, crawlId: number, fn: UpdateFunction, row: IntakeRow, excludeNew: ExclusionReason | undefined): keyof IntakeOutcome {
  if (frontier.lookup(crawlId, row.url)) return applyToSeen(frontier, crawlId, fn, row);
  const host = hostKeyOf(row.url);
  const excludedNew = (reason: ExclusionReason) => frontier.exclude(crawlId, [{ url: row.url, host, reason, kind: 'page' }]) > 0;
  if (row.blacklist) return excludedNew('blacklisted') ? 'excluded' : 'ignored';
  if (excludeNew) return excludedNew(excludeNew) ? 'excluded' : 'ignored';
  const breakdown = JSON.stringify({ external: row.score });
  const added = frontier.add(crawlId, [{ url: row.url, host, depth: 0, priority: row.score, viaUrl: null, kind: 'page', breakdown }]);
  return added.added ? 'queued' : 'ignored';
}

/** Applies a posted URL the crawl has seen: a blacklisting excludes it if queued, a score rescores it if queued or retrying. */
function applyToSeen(frontier: Frontier, crawlId: number, fn: UpdateFunction, row: IntakeRow): keyof IntakeOutcome {
  if (row.blacklist) return frontier.excludeQueued(crawlId, row.url, 'blacklisted') ? 'excluded' : 'ignored';
  const breakdown = JSON.stringify({ external: row.score });
  // FIRST keeps the first score by definition; an external score still replaces it, or posting would do nothing.
  return frontier.rescore(crawlId, row.url, row.score, fn === 'FIRST' ? 'LAST' : fn, breakdown) ? 'rescored' : 'ignored';
}

/** How a crawl that takes no more posted URLs ended (frontier_intake_closed). */
export type IntakeEnd = 'finished' | 'stopped' | 'failed';

/** How the crawl ended when its intake is closed (closeIntakeAs); null while it takes posted URLs. */
export function intakeClosedAs(db: Database.Database, crawlId: number): IntakeEnd | null {
  ensureFrontierTables(db);
  return (db.prepare('SELECT outcome FROM frontier_intake_closed WHERE crawl_id = ?').pluck().get(crawlId) as IntakeEnd | undefined) ?? null;
}

/**
 * Closes the crawl's intake: the API refuses URLs posted to it from now on (postScoredUrls). Call
 * it in the immediate transaction that settles what waits, so that no post falls between the two.
 */
export function closeIntakeAs(db: Database.Database, crawlId: number, end: IntakeEnd, now = Date.now()): void {
  ensureFrontierTables(db);
  db.prepare('INSERT OR REPLACE INTO frontier_intake_closed (crawl_id, outcome, closed_at) VALUES (?, ?, ?)').run(crawlId, end, now);
}

/**
 * Opens the crawl's intake again for a new run: one whose last run finished its visits but died
 * before the crawl was marked finished is run again, and visits what is posted meanwhile.
 */
export function reopenIntake(db: Database.Database, crawlId: number): void {
  ensureFrontierTables(db);
  db.prepare('DELETE FROM frontier_intake_closed WHERE crawl_id = ?').run(crawlId);
}

/**
 * Applies every URL waiting for the crawl, each new to it excluded with `reason` rather than
 * queued: for a crawl that will not visit them (its page budget spent, or it ended), so the
 * archivist finds them among its excluded URLs instead of nowhere. One transaction; the caller's
 * immediate one keeps posts out of it.
 *
 * As applyScoredIntake would with `excludeNew`, but over the whole set: at a stop up to 100,000
 * URLs wait, and one lookup and one insert per URL held the worker's thread and SQLite's write lock
 * for seconds. Only posts of URLs the crawl has queued or retrying can change them (a new score, a
 * blacklisting): these are applied one by one, in the order posted. The others are recorded by one
 * statement (excludeWaitingIntake); posts of URLs the crawl has fetched, failed, excluded or in
 * flight change nothing and are ignored, as applied one by one they were.
 */
export function settleScoredIntake(db: Database.Database, frontier: Frontier, crawlId: number, fn: UpdateFunction, reason: ExclusionReason): IntakeOutcome {
  ensureFrontierTables(db);
  const outcome: IntakeOutcome = { rescored: 0, queued: 0, excluded: 0, ignored: 0 };
  runInTransaction(db, () => {
    const waiting = pendingScoredUrls(db, crawlId);
    // CROSS JOIN: each waiting row finds its URL through the seen-set index, not the other way round.
    const queued = db.prepare(
      `SELECT i.id, i.url, i.score, i.blacklist FROM frontier_intake i CROSS JOIN frontier_url u
       ON u.crawl_id = i.crawl_id AND u.url_hash = frontier_url_hash(i.url) WHERE i.crawl_id = ? AND u.state IN (${S.queued}, ${S.retrying}) ORDER BY i.id`,
    ).all(crawlId) as IntakeRow[];
    for (const row of queued) outcome[applyToSeen(frontier, crawlId, fn, row)] += 1;
    outcome.excluded += frontier.excludeWaitingIntake(crawlId, reason);
    outcome.ignored = waiting - outcome.rescored - outcome.excluded;
    db.prepare('DELETE FROM frontier_intake WHERE crawl_id = ?').run(crawlId);
  });
  return outcome;
}
