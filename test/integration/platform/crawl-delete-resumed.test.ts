/**
 * A crawl's deletion cut short (the server stopped between two batches of its rows, or right after
 * the crawl's row was deleted) is finished by the next start's CrawlDeletions: nothing of the crawl
 * shows meanwhile, nothing is left of it after, and another crawl keeps all its rows. Before, the
 * frontier's and the engine's rows, deleted after the crawl's row, stayed for ever once the server
 * stopped midway (nothing recorded that they were to go). Over a real migrated SQLite file.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { insertCrawl, insertCrawlRows, migratedDatabase, rowsOfCrawl } from '../../support/crawl-rows';
import { icdSchema } from '../../../worker/icd/schema';
import { controlCrawl, deleteCrawlRow, requestExport } from '../../../worker/process/crawl-requests';
import { CrawlDeletions, DELETE_BATCH_ROWS } from '../../../worker/process/crawl-deletion';
import { crawlWarcDir, exportDir } from '../../../worker/store/data-layout';

const icd = icdSchema.parse({ name: 'Harbour', seeds: ['http://127.0.0.1:9/'] });
const capturesOf = (db: ReturnType<typeof migratedDatabase>, crawlId: number) => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(crawlId) as number;

test('a deletion the server stopped in the middle of is finished at the next start; another crawl keeps its rows', { timeout: 120_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidemark-delete-resumed-'));
  const first = migratedDatabase(dataDir);
  const deleted = insertCrawl(first, icd);
  const kept = insertCrawl(first, icd);
  first.prepare("UPDATE Crawl SET status = 'stopped', desired = 'stop'").run();
  const captures = 2 * DELETE_BATCH_ROWS + 10;
  insertCrawlRows(first, deleted, captures);
  insertCrawlRows(first, kept, 200);
  const exportId = Number(first.prepare("INSERT INTO Export (crawlId, status) VALUES (?, 'done')").run(deleted).lastInsertRowid);
  for (const dir of [crawlWarcDir(dataDir, deleted), exportDir(dataDir, exportId)]) {
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'a.warc.gz'), 'x');
  }
  const keptRows = rowsOfCrawl(first, kept);

  assert.deepEqual(deleteCrawlRow(first, deleted), { done: [exportId] });
  // The server stops after the first batch of captures, its files not removed either (that is the route's, after this).
  await new CrawlDeletions({ db: first, dataDir: join(dataDir, 'elsewhere'), log: assert.fail, between: async () => {
    if (capturesOf(first, deleted) < captures) first.close();
  } }).wake();

  const next = migratedDatabase(dataDir);
  const left = capturesOf(next, deleted);
  assert.ok(left > 0 && left < captures, `captures left by the stopped deletion: ${left}`);
  assert.equal(controlCrawl(next, deleted, 'resume'), 'missing');
  assert.equal(requestExport(next, deleted, { requestedById: 1, selection: null, format: 'warc', pageText: false }), 'missing');
  assert.equal(deleteCrawlRow(next, deleted), 'missing');

  await new CrawlDeletions({ db: next, dataDir, log: assert.fail }).wake();
  assert.deepEqual(rowsOfCrawl(next, deleted), {});
  assert.equal(next.prepare('SELECT COUNT(*) FROM CrawlDeletion').pluck().get(), 0);
  assert.deepEqual([crawlWarcDir(dataDir, deleted), exportDir(dataDir, exportId)].filter(existsSync), []);
  assert.deepEqual(rowsOfCrawl(next, kept), keptRows);
  assert.deepEqual(next.prepare('SELECT id FROM Crawl').pluck().all(), [kept]);
  next.close();
});
