import type Database from 'better-sqlite3';
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { sqlDate } from '../store/sqlite';
import { verifyWarcFile } from '../warc';

export interface ExportedFile {
  name: string;
  bytes: number;
  sha256: string;
}

async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** The files an export offers: closed WARC files and the CDXJ index (never `.open` files). */
export function exportableFiles(warcDir: string): string[] {
  if (!existsSync(warcDir)) return [];
  return readdirSync(warcDir)
    .filter((name) => name.endsWith('.warc.gz') || name === 'index.cdxj' || name === 'coherence-certificate.json')
    .sort();
}

/**
 * Prepares a crawl's export: verifies every WARC record's digests (a corrupt file fails the export
 * with its name rather than being handed out), checksums each file, and records progress 0..1.
 */
export async function runExport(db: Database.Database, job: { exportId: number; crawlId: number; warcDir: string }): Promise<void> {
  const setProgress = db.prepare('UPDATE Export SET progress = ? WHERE id = ?');
  db.prepare("UPDATE Export SET status = 'running' WHERE id = ?").run(job.exportId);
  try {
    const crawl = db.prepare('SELECT status FROM Crawl WHERE id = ?').get(job.crawlId) as { status: string } | undefined;
    if (!crawl) throw new Error('The crawl no longer exists');
    if (['running', 'pausing', 'stopping', 'created'].includes(crawl.status)) {
      throw new Error(`The crawl is ${crawl.status}: pause, stop or let it finish before exporting`);
    }
    const names = exportableFiles(job.warcDir);
    if (!names.some((n) => n.endsWith('.warc.gz'))) throw new Error('The crawl has no closed WARC files yet');
    const totalBytes = names.reduce((sum, n) => sum + statSync(join(job.warcDir, n)).size, 0) || 1;
    let doneBytes = 0;
    const files: ExportedFile[] = [];
    for (const name of names) {
      const path = join(job.warcDir, name);
      if (name.endsWith('.warc.gz')) {
        const check = await verifyWarcFile(path);
        if (check.errors.length) throw new Error(`${name}: ${check.errors.slice(0, 3).join('; ')}`);
      }
      const bytes = statSync(path).size;
      files.push({ name, bytes, sha256: await sha256File(path) });
      doneBytes += bytes;
      setProgress.run(doneBytes / totalBytes, job.exportId);
    }
    db.prepare("UPDATE Export SET status = 'done', progress = 1, files = ?, finishedAt = ? WHERE id = ?").run(JSON.stringify(files), sqlDate(new Date()), job.exportId);
  } catch (err) {
    db.prepare("UPDATE Export SET status = 'failed', error = ?, finishedAt = ? WHERE id = ?").run((err as Error).message, sqlDate(new Date()), job.exportId);
  }
}
