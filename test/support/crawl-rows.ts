import type Database from 'better-sqlite3';
import type { Icd } from '../../worker/icd/schema';

/** Stores `icd` and a crawl of it that wants to run, as the cockpit does; returns the crawl's id. */
export function insertCrawl(db: Database.Database, icd: Icd): number {
  const now = new Date().toISOString();
  const icdId = db.prepare('INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES (?, ?, ?, ?)').run(icd.name, JSON.stringify(icd), now, now).lastInsertRowid;
  return Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, ?, ?, 'created', 'run', ?)").run(icdId, JSON.stringify(icd), icd.name, now).lastInsertRowid);
}
