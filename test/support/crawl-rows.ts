import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Icd } from '../../worker/icd/schema';
import { openSqlite, sqlDate } from '../../worker/store/sqlite';
import { applyMigrations } from '../../worker/store/migrator';
import { parseCdxjLine } from '../../worker/warc/cdxj-index';
import { DIGEST_PREFIX } from '../../worker/warc/warc-digest';
import { ensureFrontierTables } from '../../worker/frontier/frontier-sql';

/** The database of a data folder `dir`, opened as the worker opens it and migrated. */
export function migratedDatabase(dir: string): Database.Database {
  const db = openSqlite(join(dir, 'state.db'));
  applyMigrations(db, resolve('prisma/migrations'));
  return db;
}

/** Stores `icd` and a crawl of it that wants to run, as the cockpit does; returns the crawl's id. */
export function insertCrawl(db: Database.Database, icd: Icd): number {
  const now = new Date().toISOString();
  const icdId = db.prepare('INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES (?, ?, ?, ?)').run(icd.name, JSON.stringify(icd), now, now).lastInsertRowid;
  return Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, ?, ?, 'created', 'run', ?)").run(icdId, JSON.stringify(icd), icd.name, now).lastInsertRowid);
}

/** Stores another crawl of the ICD crawl `crawlId` was made of (a later crawl of a schedule, say), with the same definition; returns its id. */
export function insertLaterCrawl(db: Database.Database, crawlId: number): number {
  const now = new Date().toISOString();
  return Number(
    db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) SELECT icdId, definition, name, 'created', 'run', ? FROM Crawl WHERE id = ?").run(now, crawlId).lastInsertRowid,
  );
}

/**
 * A Capture row for each line of the CDXJ index in `warcDir` (files a writer wrote there without the
 * engine, writeLargeWarcs): what the crawl's commits would have stored, so that the cockpit counts
 * and selects those captures as a crawl's.
 */
export function insertCapturesOfIndex(db: Database.Database, crawlId: number, warcDir: string): number {
  const insert = db.prepare(
    "INSERT INTO Capture (crawlId, url, status, mime, size, payloadDigest, recordType, warcFile, warcOffset, warcLength, fetchedAt, durationMs) VALUES (?, ?, ?, ?, ?, ?, 'response', ?, ?, ?, ?, 0)",
  );
  const lines = readFileSync(join(warcDir, 'index.cdxj'), 'utf8').split('\n').filter(Boolean);
  for (const line of lines) {
    const { json: j } = parseCdxjLine(line)!;
    insert.run(crawlId, j.url, Number(j.status), j.mime, Number(j.length), DIGEST_PREFIX + j.digest, j.filename, Number(j.offset), Number(j.length), sqlDate(new Date()));
  }
  return lines.length;
}

/**
 * `n` captures of the crawl, with a log entry each, a web object and an annotation on every tenth,
 * a run, `n` coherence pages and `n` frontier URLs: a crawl's rows in every kind of table a crawl
 * keeps, written in one statement a table (INSERT … SELECT over a counter).
 */
export function insertCrawlRows(db: Database.Database, crawlId: number, n: number): void {
  const counter = `WITH RECURSIVE i(k) AS (SELECT 0 UNION ALL SELECT k + 1 FROM i WHERE k + 1 < ${n})`;
  const now = sqlDate(new Date());
  ensureFrontierTables(db);
  db.transaction(() => {
    db.prepare(`${counter} INSERT INTO Capture (crawlId, url, status, mime, size, payloadDigest, recordType, warcFile, warcOffset, warcLength, fetchedAt, durationMs)
      SELECT ?, 'http://h' || (k % 100) || '.test/p' || k, 200, 'text/html', 1000, 'sha1:' || k, 'response', 'a.warc.gz', k * 1000, 1000, ?, 5 FROM i`).run(crawlId, now);
    db.prepare(`${counter} INSERT INTO CrawlLogEntry (crawlId, url, outcome, status, at) SELECT ?, 'http://h' || (k % 100) || '.test/p' || k, 'fetched', 200, ? FROM i`).run(crawlId, now);
    db.prepare(`INSERT INTO WebObject (crawlId, captureId, url, host, type, application, rule, fields)
      SELECT crawlId, id, url, 'h.test', 'post', 'forum', '//div', '{}' FROM Capture WHERE crawlId = ? AND id % 10 = 0`).run(crawlId);
    db.prepare(`INSERT INTO Annotation (crawlId, captureId, text, createdAt) SELECT crawlId, id, 'checked', ? FROM Capture WHERE crawlId = ? AND id % 10 = 0`).run(now, crawlId);
    db.prepare("INSERT INTO CrawlRun (crawlId, reason) VALUES (?, 'start')").run(crawlId);
    db.prepare(`${counter} INSERT INTO CoherencePage (crawlId, url, depth, visitedAt, visit, visitText) SELECT ?, 'http://h.test/p' || k, 1, ?, '{}', '' FROM i`).run(crawlId, now);
    db.prepare(`${counter} INSERT INTO frontier_url (crawl_id, url_hash, url, host, depth, kind, state, precedence, score_raw, score_count, score_sum, discovered_at)
      SELECT ?, ? * 10000000 + k, 'http://h' || (k % 100) || '.test/p' || k, 'h' || (k % 100) || '.test', 1, 'page', 2, 0, 0, 0, 0, 0 FROM i`).run(crawlId, crawlId);
  })();
}

/** The crawl's rows in each table that keeps rows of crawls (a column crawlId or crawl_id), those with any; adapted rules outlive crawls, and an export that took a crawl keeps naming it. */
export function rowsOfCrawl(db: Database.Database, crawlId: number): Record<string, number> {
  const tables = db
    .prepare("SELECT m.name AS name, c.name AS col FROM sqlite_master m JOIN pragma_table_info(m.name) c WHERE m.type = 'table' AND c.name IN ('crawlId', 'crawl_id') AND m.name NOT IN ('AdaptedRule', 'ExportCrawl')")
    .all() as { name: string; col: string }[];
  return Object.fromEntries(tables.map(({ name, col }) => [name, db.prepare(`SELECT COUNT(*) FROM "${name}" WHERE "${col}" = ?`).pluck().get(crawlId) as number]).filter(([, n]) => n));
}
