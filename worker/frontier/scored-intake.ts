import type Database from 'better-sqlite3';
import { z } from 'zod';
import type { Icd } from '../icd/schema';
import { canonicalize, checkScope, compileScope, hostKeyOf } from '../url';
import { ensureFrontierTables } from './frontier-sql';
import type { Frontier, UpdateFunction } from './frontier';

/**
 * Scored-URL intake (ARCOMEM's interface for external analysis processes): URLs with a score in
 * [0,1], or a blacklist flag, posted to `POST /api/crawls/:id/urls`. The server screens them
 * against the crawl's ICD and stores them in `frontier_intake`; the worker that runs the crawl
 * applies them to its frontier (a queued URL is rescored with the ICD's update function, a new one
 * is queued like a seed, a blacklisted one is excluded). Stored first, applied later, so URLs
 * posted while the crawl is paused or its worker restarts are not lost.
 */

export const MAX_SCORED_URLS = 10_000;

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

/** Canonicalises each URL and checks it against the crawl's scope; blacklisting needs no scope. Pure. */
export function screenScoredUrls(items: readonly ScoredUrlInput[], icd: Icd): ScreenedUrls {
  const scope = compileScope(icd.scope, icd.seeds);
  const out: ScreenedUrls = { accepted: [], rejected: [] };
  for (const item of items) {
    const url = canonicalize(item.url, undefined, { queryHandling: icd.scope.queryHandling });
    if (!url) {
      out.rejected.push({ url: item.url, reason: 'invalid-url' });
      continue;
    }
    const blacklist = item.blacklist === true;
    if (!blacklist) {
      const verdict = checkScope({ url, depth: 0, kind: 'page' }, scope);
      if (!verdict.inScope) {
        out.rejected.push({ url: item.url, reason: verdict.reason });
        continue;
      }
    }
    out.accepted.push({ url, score: item.score, blacklist });
  }
  return out;
}

/** Stores screened URLs for the crawl's worker (one transaction). */
export function queueScoredUrls(db: Database.Database, crawlId: number, urls: readonly ScoredUrl[], now = Date.now()): void {
  ensureFrontierTables(db);
  const insert = db.prepare('INSERT INTO frontier_intake (crawl_id, url, score, blacklist, received_at) VALUES (?, ?, ?, ?, ?)');
  db.transaction(() => {
    for (const u of urls) insert.run(crawlId, u.url, u.score, u.blacklist ? 1 : 0, now);
  })();
}

export interface IntakeOutcome {
  rescored: number;
  queued: number;
  excluded: number;
  /** Already fetched, failed or excluded: nothing to change. */
  ignored: number;
}

/**
 * Applies the crawl's stored scored URLs to its open frontier and deletes them. `max` bounds the
 * work per call so the engine's loop stays responsive.
 */
export function applyScoredIntake(
  db: Database.Database, frontier: Frontier, crawlId: number, fn: UpdateFunction, max = 2_000,
): IntakeOutcome {
  const rows = db.prepare('SELECT id, url, score, blacklist FROM frontier_intake WHERE crawl_id = ? ORDER BY id LIMIT ?').all(crawlId, max) as {
    id: number; url: string; score: number; blacklist: number;
  }[];
  const outcome: IntakeOutcome = { rescored: 0, queued: 0, excluded: 0, ignored: 0 };
  if (!rows.length) return outcome;
  const remove = db.prepare('DELETE FROM frontier_intake WHERE crawl_id = ? AND id <= ?');
  db.transaction(() => {
    for (const row of rows) {
      const host = hostKeyOf(row.url);
      const known = frontier.lookup(crawlId, row.url);
      if (row.blacklist) {
        if (known ? frontier.excludeQueued(crawlId, row.url, 'blacklisted') : frontier.exclude(crawlId, [{ url: row.url, host, reason: 'blacklisted', kind: 'page' }]) > 0) {
          outcome.excluded += 1;
        } else outcome.ignored += 1;
        continue;
      }
      const breakdown = JSON.stringify({ external: row.score });
      if (known) {
        // FIRST keeps the first score by definition; an external score still replaces it, or posting would do nothing.
        if (frontier.rescore(crawlId, row.url, row.score, fn === 'FIRST' ? 'LAST' : fn, breakdown)) outcome.rescored += 1;
        else outcome.ignored += 1;
        continue;
      }
      const added = frontier.add(crawlId, [{ url: row.url, host, depth: 0, priority: row.score, viaUrl: null, kind: 'page', breakdown }]);
      if (added.added) outcome.queued += 1;
      else outcome.ignored += 1;
    }
    remove.run(crawlId, rows.at(-1)!.id);
  })();
  return outcome;
}
