import type Database from 'better-sqlite3';
import { anyOf, containsTextSql, urlContainsTextSql, type SqlCondition } from '../../../worker/store/text-search-sql';

/**
 * The filtering, ordering and counting of the lists (crawls; a crawl's captures, log, Web objects), in
 * SQL on the driver; the routes then read the page's rows with Prisma by id. Prisma's `contains`
 * is a LIKE without an ESCAPE clause on SQLite (prisma/prisma#23611), so `?q=%` listed every URL
 * and `?q=a_b` found `axb` too: here the text is searched for as written.
 */

export type { SqlCondition };
/** Text search (worker/store/text-search-sql.ts, shared with an export's "URL contains"). */
export { anyOf, containsTextSql as containsText, urlContainsTextSql as urlContainsText };

/** `column = value`; `column` is one of the route's own column names, never the client's. */
export function equals(column: string, value: unknown): SqlCondition {
  return { sql: `${column} = ?`, params: [value] };
}

/** A page of a list: the ids in order, how many rows match, and how many came after `upTo`. */
export interface ListPage {
  ids: number[];
  total: number;
  /** Matching rows after `upTo` (0 without it). */
  newer: number;
}

/**
 * One page of `table`'s rows matching every condition, ordered by `orderBy` (the route's own SQL);
 * with `upTo`, only rows up to that id, and `newer` counts the matching ones after it. `counted`,
 * when given, says how many rows match (upTo aside) from counts kept elsewhere, in the same read
 * transaction, so the total is that less `newer`, not a count of every matching row.
 */
export function listPage(db: Database.Database, opts: { table: 'Capture' | 'CrawlLogEntry' | 'WebObject' | 'Crawl'; conditions: readonly SqlCondition[]; orderBy: string; upTo?: number | null; offset: number; limit: number; counted?: () => number }): ListPage {
  const where = (extra: SqlCondition[]) => {
    const all = [...opts.conditions, ...extra];
    return { sql: all.map((c) => c.sql).join(' AND '), params: all.flatMap((c) => c.params) };
  };
  const upTo = opts.upTo ?? null;
  const listed = where(upTo === null ? [] : [{ sql: 'id <= ?', params: [upTo] }]);
  // One read transaction: the page and its counts from one snapshot of the database, so a row the
  // worker (another connection) deletes or adds between the statements cannot make them disagree.
  return db.transaction((): ListPage => {
    const ids = db.prepare(`SELECT id FROM ${opts.table} WHERE ${listed.sql} ORDER BY ${opts.orderBy} LIMIT ? OFFSET ?`).pluck().all(...listed.params, opts.limit, opts.offset) as number[];
    let newer = 0;
    if (upTo !== null) {
      const after = where([{ sql: 'id > ?', params: [upTo] }]);
      newer = db.prepare(`SELECT COUNT(*) FROM ${opts.table} WHERE ${after.sql}`).pluck().get(...after.params) as number;
    }
    const total = opts.counted ? opts.counted() - newer : (db.prepare(`SELECT COUNT(*) FROM ${opts.table} WHERE ${listed.sql}`).pluck().get(...listed.params) as number);
    return { ids, total, newer };
  })();
}

/** `rows` in the order of `ids` (Prisma's `id in` gives them in its own). */
export function inIdOrder<R extends { id: number }>(rows: readonly R[], ids: readonly number[]): R[] {
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => byId.get(id) ?? []);
}
