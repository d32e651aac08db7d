import type Database from 'better-sqlite3';
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { Icd } from '../../worker/icd/schema';
import { openSqlite, sqlDate } from '../../worker/store/sqlite';
import { applyMigrations } from '../../worker/store/migrator';
import { parseCdxjLine } from '../../worker/warc/cdxj-index';
import { DIGEST_PREFIX } from '../../worker/warc/warc-digest';

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
