/**
 * An export cancelled and deleted while its worker was writing it: the worker removes what it wrote
 * once it sees the cancel, but a worker that dies first (SIGKILL, a crash) leaves the folder, and
 * with the row gone its successor only looked for cancelled rows, so the folder stayed for ever.
 * A starting worker now removes the folders of exports that have no row, as of cancelled ones; the
 * folders of other exports and anything not named as an export id are kept.
 *
 * Real parts: a migrated SQLite database, the worker's CrawlManager, the file system. The state a
 * dying worker leaves (a folder of partial files, no row) is laid down by the test.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { routeDatabase, startWorker } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';
import { icdSchema } from '../../../worker/icd/schema';
import { exportDir } from '../../../worker/store/data-layout';
import { sqlDate } from '../../../worker/store/sqlite';

test('a starting worker removes the folders of exports deleted or cancelled mid-way by a worker that died, and no other', { timeout: 60_000 }, async () => {
  const s = await routeDatabase('tidemark-export-leftovers-');
  const crawlId = insertCrawl(s.db, icdSchema.parse({ name: 'Harbour', seeds: ['http://127.0.0.1:9/'] }));
  s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  const row = (status: string) => Number(s.db.prepare('INSERT INTO Export (crawlId, status, createdAt) VALUES (?, ?, ?)').run(crawlId, status, sqlDate(new Date())).lastInsertRowid);
  const folder = (name: string, files: string[]) => {
    const dir = join(s.env.dataDir, 'exports', name);
    mkdirSync(dir, { recursive: true });
    for (const f of files) writeFileSync(join(dir, f), 'partial');
    return dir;
  };
  const done = row('done');
  const cancelled = row('cancelled');
  const deleted = row('cancelled');
  s.db.prepare('DELETE FROM Export WHERE id = ?').run(deleted);
  folder(String(done), ['a.warc.gz', 'index.cdxj']);
  folder(String(cancelled), ['tidemark-1-2.wacz.open']);
  folder(String(deleted), ['tidemark-1-3.wacz.open', 'pages.jsonl']);
  folder('notes', ['kept.txt']);

  const worker = await startWorker(s);
  try {
    assert.ok(!existsSync(exportDir(s.env.dataDir, deleted)), 'the deleted export\'s folder is removed');
    assert.ok(!existsSync(exportDir(s.env.dataDir, cancelled)), 'the cancelled export\'s folder is removed');
    assert.deepEqual(readdirSync(exportDir(s.env.dataDir, done)).sort(), ['a.warc.gz', 'index.cdxj'], 'a done export keeps its files');
    assert.deepEqual(readdirSync(join(s.env.dataDir, 'exports')).sort(), [String(done), 'notes'].sort());
  } finally {
    await worker.stop();
  }
});
