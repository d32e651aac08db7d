/**
 * Exporting a crawl with no WARC file: one that ended without capturing anything has nothing to
 * export, and says so. Before, its export failed with "The crawl has no closed WARC files yet",
 * as if waiting would help. A paused crawl still says "yet": it may capture when resumed. Real
 * parts: a migrated SQLite database, the export job as the worker runs it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { runExport } from '../../../worker/export/export-job';
import { withCrawl } from '../../support/site-crawl';

test("an ended crawl without captures: its export fails saying there is nothing to export; a paused one's says there are no closed WARC files yet", async () => {
  await withCrawl('tm-export-no-captures-', { name: 'Dead seed', seeds: ['http://127.0.0.1:9/'] }, async ({ dir, db, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    mkdirSync(warcDir, { recursive: true });
    const exportOf = async (status: string) => {
      db.prepare('UPDATE Crawl SET status = ?, desired = ? WHERE id = ?').run(status, status === 'paused' ? 'pause' : 'stop', crawlId);
      const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, format, createdAt) VALUES (?, 'pending', 'warc', datetime('now'))").run(crawlId).lastInsertRowid);
      await runExport(db, { exportId, crawlId, warcDir, exportDir: join(dir, 'exports', String(exportId)) });
      return db.prepare('SELECT status, error FROM Export WHERE id = ?').get(exportId);
    };
    assert.deepEqual(await exportOf('finished'), { status: 'failed', error: 'The crawl finished without capturing anything: it has no captures to export' });
    assert.deepEqual(await exportOf('stopped'), { status: 'failed', error: 'The crawl was stopped without capturing anything: it has no captures to export' });
    assert.deepEqual(await exportOf('paused'), { status: 'failed', error: 'The crawl has no closed WARC files yet' });
  });
});
