import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { runExport } from '../../worker/export/export-job';
import { readZip, type ZipEntryRead } from './read-wacz';

/**
 * Marks the crawl finished (as the worker's crawl manager records a finished run; the engine alone
 * does not), runs a WACZ export of it with the export job into `<dir>/export`, checks it is done,
 * and returns the package's entries by path.
 */
export async function exportWacz(db: Database.Database, crawlId: number, dir: string, warcDir: string): Promise<Map<string, ZipEntryRead>> {
  db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, format) VALUES (?, 'pending', 'wacz')").run(crawlId).lastInsertRowid);
  const exportDir = join(dir, 'export');
  await runExport(db, { exportId, crawlId, warcDir, exportDir });
  const row = db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
  assert.equal(row.status, 'done', row.error ?? '');
  return readZip(readFileSync(join(exportDir, (JSON.parse(row.files) as { name: string }[])[0]!.name)));
}
