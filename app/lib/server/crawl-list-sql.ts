/** The crawls list's filters as SQL conditions for GET /api/crawls: pure, unit-tested without a database. */
import { containsText, type SqlCondition } from './list-query';
import { crawlIdIn, STATUS_GROUPS, type StatusGroup } from '../client/crawl-list-view';

/** What the crawls list asks for: a status group, a name or #id, and a page. */
export interface CrawlListQuery {
  group: StatusGroup;
  /** Text the name holds (any ASCII case, `%` and `_` as written), or the crawl's id as `7` or `#7`. */
  q: string;
  offset: number;
  limit: number;
}

/** The WHERE conditions of the crawls list under `query`'s filters (pure: the SQL and its values). */
export function crawlListConditions(query: Pick<CrawlListQuery, 'group' | 'q'>): SqlCondition[] {
  const statuses: readonly string[] | null = STATUS_GROUPS[query.group].statuses;
  const conditions: SqlCondition[] = [];
  if (statuses) conditions.push({ sql: `status IN (${statuses.map(() => '?').join(', ')})`, params: [...statuses] });
  const text = query.q.trim();
  if (text) {
    const byName = containsText(['name'], text);
    const id = crawlIdIn(text);
    conditions.push(id === null ? byName : { sql: `(${byName.sql} OR id = ?)`, params: [...byName.params, id] });
  }
  return conditions;
}
