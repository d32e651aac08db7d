import type Database from 'better-sqlite3';

/**
 * The Web objects stored from the latest capture of `url` in a crawl that had any (oldest
 * first): what a recrawl compares the page's objects with. Uses the (crawlId, url) index.
 */
export function latestObjectsOf(db: Database.Database, crawlId: number, url: string): { type: string; fields: Record<string, string> }[] {
  const rows = db.prepare(
    `SELECT type, fields FROM WebObject WHERE crawlId = ? AND url = ?
       AND captureId = (SELECT captureId FROM WebObject WHERE crawlId = ? AND url = ? AND captureId IS NOT NULL ORDER BY id DESC LIMIT 1)
     ORDER BY id`,
  ).all(crawlId, url, crawlId, url) as { type: string; fields: string }[];
  return rows.flatMap((r) => {
    try {
      return [{ type: r.type, fields: JSON.parse(r.fields) as Record<string, string> }];
    } catch {
      return []; // a hand-edited row: compared as missing
    }
  });
}
