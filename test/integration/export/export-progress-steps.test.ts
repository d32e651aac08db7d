/**
 * An export of a large crawl records its progress through each of its steps. Before, a collection
 * stayed at 0 while its selection was walked (every page's out-links read: 8.5 s for 100,000
 * captures), and at 0.957 while its index was verified (6.4 s); a WACZ stayed at 0.5 while the pages
 * among the requisites were found (14.6 s) and while the pages were listed without their text (3.3 s).
 * Real parts: a migrated SQLite database, pages and images written by the crawl's own writer with
 * their out-links, the export job as the worker runs it. Each progress write is observed as it is made
 * (a trigger calling the test), with the step under way and the package file's state: no clock.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { runExport, type ExportStep } from '../../../worker/export/export-job';
import { withCrawl } from '../../support/site-crawl';
import { writePagesCrawl } from '../../support/pages-crawl';

/** 2,000 pages and their images: 4,000 captures, the images found by the walk (the selection is the pages). */
const PAGES = 2000;

/** Runs an export of `format` of the crawl's pages with their requisites; the progress written, each with the step (and the package's own part of it) it was written in. */
async function progressOf(db: Database.Database, dir: string, crawlId: number, format: 'warc' | 'wacz'): Promise<Array<{ step: string; progress: number }>> {
  const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, format, selection, createdAt) VALUES (?, 'pending', ?, ?, datetime('now'))").run(crawlId, format, JSON.stringify({ urlContains: '/page/' })).lastInsertRowid);
  const exportDir = join(dir, 'exports', String(exportId));
  const wacz = join(exportDir, `tidemark-${crawlId}-${exportId}.wacz.open`);
  let step: ExportStep | 'pending' = 'pending';
  // Packaging: finding the pages beyond the selection (no package begun), listing the pages (the package still empty), writing the package.
  const part = () => {
    if (step !== 'package') return step;
    if (existsSync(wacz)) return statSync(wacz).size === 0 ? 'package: pages listed' : 'package: files copied';
    // Renamed once whole.
    return existsSync(wacz.replace(/\.open$/, '')) ? 'package: files copied' : 'package: pages beyond the selection';
  };
  const written: Array<{ step: string; progress: number }> = [];
  db.function('observe_progress', (progress) => void written.push({ step: part(), progress: progress as number }));
  db.exec(`DROP TRIGGER IF EXISTS observe_progress; CREATE TEMP TRIGGER observe_progress AFTER UPDATE OF progress ON Export WHEN NEW.id = ${exportId} BEGIN SELECT observe_progress(NEW.progress); END`);
  await runExport(db, { exportId, crawlId, warcDir: join(dir, 'warcs'), exportDir, onStep: (s) => (step = s) });
  const row = db.prepare('SELECT status, error, progress FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; progress: number };
  assert.equal(row.status, 'done', row.error ?? '');
  assert.equal(row.progress, 1);
  return written;
}

/** Checks the progress rose through `steps` in order, taking at least three values in each, and ended at 1. */
function assertRoseThrough(written: Array<{ step: string; progress: number }>, steps: readonly string[]): void {
  const values = written.map((w) => w.progress);
  assert.deepEqual(values, [...values].sort((a, b) => a - b), `it never goes back: ${values.join(' ')}`);
  // 1 only once the last step is over (a collection's verified files are its end).
  assert.ok(written.every((w) => w.progress < 1 || w.step === steps.at(-1)), 'not 1 before the last step');
  assert.equal(values.at(-1), 1);
  // The steps of the writes, in order, once each (the final 1 is written after the last step).
  const order = written.slice(0, -1).map((w) => w.step).filter((s, i, all) => s !== all[i - 1]);
  assert.deepEqual(order, steps, 'written in each step, in order');
  for (const s of steps) {
    const distinct = new Set(written.filter((w) => w.step === s).map((w) => w.progress));
    assert.ok(distinct.size >= 3, `${distinct.size} values written while ${s}: ${written.map((w) => `${w.step} ${w.progress.toFixed(3)}`).join(', ')}`);
  }
}

test("a collection's export records its progress while it walks the selection, writes and verifies, and a WACZ's while it finds and lists the pages and packages them", { timeout: 300_000 }, async () => {
  await withCrawl('tm-export-progress-steps-', { name: 'Quays', seeds: ['http://127.0.0.1:9/page/0'] }, async ({ dir, db, crawlId }) => {
    assert.equal(await writePagesCrawl(db, crawlId, join(dir, 'warcs'), PAGES), 2 * PAGES);
    db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);

    assertRoseThrough(await progressOf(db, dir, crawlId, 'warc'), ['select', 'write', 'verify']);
    assertRoseThrough(await progressOf(db, dir, crawlId, 'wacz'), ['select', 'write', 'verify', 'package: pages beyond the selection', 'package: pages listed', 'package: files copied']);
  });
});
