import type Database from 'better-sqlite3';
import { sqlDate, tableExists, runInTransaction } from '../store/sqlite';
import type { CrawlContext } from './crawl-context';
import { patternsRemoved, withoutExcludePattern } from '../icd/add-exclude-pattern';
import { patternProblem } from '../process/regexp-safety';

/**
 * Live exclusions (Browsertrix's "Edit exclusions", Heritrix's "delete URIs matching a regex"): an
 * archivist who sees a crawl fall into a trap adds an exclude pattern without stopping it
 * (POST /api/crawls/:id/exclusions → addLiveExclusion, which writes it into the crawl's ICD copy
 * and a CrawlExclusion row). The crawl's engine applies each row not yet applied, at its start and
 * every 500 ms: links found from then on are out of scope (`exclude-match`, as the ICD's patterns
 * make them), and every URL still waiting that matches is excluded with that reason in one pass.
 * Pages captured earlier that match are not refetched by revisits nor recrawl rounds
 * (CrawlContext.excludedByPattern), nor are feeds it matches polled (feed-monitor.ts). A pattern removed (DELETE, removeLiveExclusion: out of the ICD
 * copy) leaves the crawl's scope at the same times: links found from then on are taken again; the
 * URLs it excluded stay excluded, as Heritrix's do.
 */

interface PendingRow {
  id: number;
  pattern: string;
}

/**
 * Drops from the crawl's scope the patterns removed since, then applies the exclusions added and not
 * yet applied, oldest first; how many waiting URLs they excluded.
 */
export function applyLiveExclusions(ctx: CrawlContext, now: Date = new Date()): number {
  const { db, crawlId } = ctx;
  // A database the migrations never ran on (an engine test's) has no such table.
  if (!tableExists(db, 'CrawlExclusion')) return 0;
  dropRemovedPatterns(ctx);
  const pending = db.prepare('SELECT id, pattern FROM CrawlExclusion WHERE crawlId = ? AND appliedAt IS NULL ORDER BY id').all(crawlId) as PendingRow[];
  if (!pending.length) return 0;
  const applied = db.prepare('UPDATE CrawlExclusion SET appliedAt = ?, excluded = ? WHERE id = ?');
  let total = 0;
  // One transaction: the URLs' exclusion and the row's appliedAt are stored together, or neither.
  runInTransaction(db, () => {
    for (const row of pending) {
      const problem = patternProblem(row.pattern);
      if (problem !== null) {
        refusePattern(ctx, row, problem);
        continue;
      }
      ctx.excludeFromNowOn(row.pattern);
      const excluded = ctx.frontier.excludeMatching(crawlId, row.pattern, 'exclude-match');
      applied.run(sqlDate(now), excluded, row.id);
      total += excluded;
    }
  });
  return total;
}

/**
 * Takes a pattern that cannot run out of the crawl (its CrawlExclusion row and its ICD copy), saying
 * why in the worker's log. The cockpit refuses such patterns; one stored before it did (a pattern of
 * 1,000,000 characters, which V8 refuses as too large when it first runs) made every link of the
 * crawl fail as `internal` and emptied its queue, and a restart would fail on its ICD copy.
 */
function refusePattern(ctx: CrawlContext, row: PendingRow, problem: string): void {
  const shown = row.pattern.length > 100 ? `${row.pattern.slice(0, 100)}… (${row.pattern.length.toLocaleString('en-US')} characters)` : row.pattern;
  console.error(`tidemark: crawl ${ctx.crawlId}: exclude pattern ${shown} refused and taken out of the crawl: ${problem}`);
  ctx.db.prepare('DELETE FROM CrawlExclusion WHERE id = ?').run(row.id);
  const stored = ctx.db.prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(ctx.crawlId) as string | undefined;
  if (stored === undefined) return;
  const without = withoutExcludePattern(stored, row.pattern);
  if ('definition' in without) ctx.db.prepare('UPDATE Crawl SET definition = ? WHERE id = ?').run(without.definition, ctx.crawlId);
}

/**
 * Drops from the crawl's scope the patterns its ICD copy no longer has (removed since they were
 * applied). Only the list is read, as JSON text by SQLite: not the whole ICD copy every 500 ms.
 */
function dropRemovedPatterns(ctx: CrawlContext): void {
  const stored = ctx.db.prepare("SELECT json_extract(definition, '$.scope.exclude') FROM Crawl WHERE id = ?").pluck().get(ctx.crawlId) as string | null | undefined;
  // No row: a crawl the cockpit does not know (an engine test's).
  if (stored === undefined) return;
  // No list: the ICD's default, none.
  const patterns = JSON.parse(stored ?? '[]') as unknown;
  if (!Array.isArray(patterns)) return;
  for (const pattern of patternsRemoved(ctx.excludePatterns(), patterns.filter((p): p is string => typeof p === 'string'))) {
    ctx.stopExcluding(pattern);
    ctx.frontier.stopExcludingMatching(ctx.crawlId, pattern);
  }
}

/** A pattern the crawl excludes, as the cockpit lists them. */
export interface CrawlExclusionView {
  pattern: string;
  /** Added while the crawl ran (POST /api/crawls/:id/exclusions), not in the ICD it was created from. */
  live: boolean;
  addedAt: string | null;
  /** When the worker applied it to the crawl's frontier; null while it waits for the crawl to run. */
  appliedAt: string | null;
  /** Waiting URLs the worker excluded when it applied it. */
  excluded: number | null;
}

/** The crawl's exclude patterns (`scope.exclude` of its ICD copy, in order), those added live marked. */
export function crawlExclusions(db: Database.Database, crawlId: number, exclude: readonly string[]): CrawlExclusionView[] {
  const rows = db.prepare('SELECT pattern, addedAt, appliedAt, excluded FROM CrawlExclusion WHERE crawlId = ?').all(crawlId) as {
    pattern: string; addedAt: string; appliedAt: string | null; excluded: number | null;
  }[];
  const live = new Map(rows.map((r) => [r.pattern, r]));
  return exclude.map((pattern) => {
    const row = live.get(pattern);
    return { pattern, live: row !== undefined, addedAt: isoDate(row?.addedAt), appliedAt: isoDate(row?.appliedAt), excluded: row?.excluded ?? null };
  });
}

const isoDate = (stored: string | null | undefined) => (stored ? new Date(stored).toISOString() : null);
