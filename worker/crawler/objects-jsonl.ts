import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs';
import type Database from 'better-sqlite3';

/** A Web object as objects.jsonl holds it: the page it belongs to, its type and fields. */
export interface ObjectLineSource {
  type: string;
  url: string;
  fields: unknown;
}

/** A WebObject row as the database holds it (`fields` is its JSON text). */
export interface StoredObject {
  type: string;
  url: string;
  fields: string;
}

/** One line of objects.jsonl (without its newline). */
export function objectLine(o: ObjectLineSource): string {
  return JSON.stringify({ type: o.type, url: o.url, fields: o.fields });
}

/**
 * How to bring objects.jsonl back in line with the database, which is the truth: the file is
 * appended after a page's commit, so a crash between the two leaves committed objects out of it,
 * and a crash during the append leaves a cut last line. `keepBytes`: the file's whole lines (a
 * last line without its newline is cut off). `append`: the lines of the stored objects (in `stored`
 * order) that the whole lines do not hold, counted as a multiset, so an object stored twice is
 * written twice and none is written again. Lines the database does not hold are kept.
 */
export function objectsJsonlRepair(file: Buffer, stored: readonly StoredObject[]): { keepBytes: number; append: string[] } {
  const keepBytes = file.lastIndexOf(0x0a) + 1;
  const have = new Map<string, number>();
  for (const line of file.subarray(0, keepBytes).toString('utf8').split('\n')) {
    if (line) have.set(line, (have.get(line) ?? 0) + 1);
  }
  const append: string[] = [];
  for (const row of stored) {
    const line = objectLine({ type: row.type, url: row.url, fields: JSON.parse(row.fields) as unknown });
    const n = have.get(line) ?? 0;
    if (n > 0) have.set(line, n - 1);
    else append.push(line);
  }
  return { keepBytes, append };
}

/**
 * Repairs objects.jsonl at a crawl's start (objectsJsonlRepair): cuts a torn last line and appends
 * the crawl's committed objects it lacks. Returns how many lines were appended.
 */
export function repairObjectsJsonl(path: string, db: Database.Database, crawlId: number): { appended: number; cutBytes: number } {
  const file = existsSync(path) ? readFileSync(path) : Buffer.alloc(0);
  const stored = db.prepare('SELECT type, url, fields FROM WebObject WHERE crawlId = ? ORDER BY id').all(crawlId) as StoredObject[];
  const { keepBytes, append } = objectsJsonlRepair(file, stored);
  const cutBytes = file.length - keepBytes;
  if (!cutBytes && !append.length) return { appended: 0, cutBytes: 0 };
  const fd = openSync(path, existsSync(path) ? 'r+' : 'w');
  try {
    if (cutBytes) ftruncateSync(fd, keepBytes);
    if (append.length) writeSync(fd, append.join('\n') + '\n', keepBytes);
  } finally {
    closeSync(fd);
  }
  return { appended: append.length, cutBytes };
}
