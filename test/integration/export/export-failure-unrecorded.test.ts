/**
 * An export that fails on a full disk whose database cannot take the failure either (SQLite then
 * answers SQLITE_FULL too). Before, the refused write escaped the export job as an unhandled
 * rejection, which ends the worker process: the supervisor restarted it, the export was taken up
 * again and failed again, and every crawl of the worker was cut off each time. Now the worker goes
 * on, and the failure is recorded, with its reason, once the database has room. Real parts: the
 * migrated SQLite database (its `max_page_count` answers SQLITE_FULL as a full disk does), the
 * worker's CrawlManager crawling a loopback site, then exporting.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { icdSchema } from '../../../worker/icd/schema';
import { sqlDate } from '../../../worker/store/sqlite';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { serveLoopback } from '../../support/loopback-site';
import { until } from '../../support/engine-run';
import { withTempDir } from '../../support/temp-dir';

const origin = await serveLoopback((req, res) => {
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/quay">quay</a>');
  if (req.url === '/quay') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>the quay</p>');
  res.writeHead(404).end();
});

test('an export whose failure the full database refuses leaves the worker running, and is recorded as failed once there is room', { timeout: 120_000 }, async () => {
  await withTempDir('tm-export-unrecorded-', async (dataDir) => {
    const db = migratedDatabase(dataDir);
    const icd = icdSchema.parse({ name: 'Quay', seeds: [`${origin}/`], politeness: { enabled: false, respectRobots: false } });
    const crawlId = insertCrawl(db, icd);
    const crawlStatus = () => db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(crawlId) as string;
    const escaped: unknown[] = [];
    const onRejection = (reason: unknown) => void escaped.push(reason);
    process.on('unhandledRejection', onRejection);
    const manager = new CrawlManager({ db, dataDir, send: () => undefined });
    manager.start();
    try {
      await until('the end of the crawl', () => crawlStatus() === 'finished', 60_000);
      // A collection of hosts the crawl never saw: it fails, and its reason names them all, more
      // than the database's free pages can hold once its room is limited to what it has.
      const freePages = db.pragma('freelist_count', { simple: true }) as number;
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      const hostCount = Math.min(1000, Math.ceil(((freePages + 16) * pageSize) / 1500));
      const hosts = Array.from({ length: hostCount }, (_, i) => `h${i}-${'x'.repeat(1400)}.example`);
      const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, selection, createdAt) VALUES (?, 'pending', ?, ?)").run(crawlId, JSON.stringify({ hosts }), sqlDate(new Date())).lastInsertRowid);
      db.pragma(`max_page_count = ${db.pragma('page_count', { simple: true }) as number}`);
      const exportRow = () => db.prepare('SELECT status, error FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null };
      await until('the export is taken up', () => exportRow().status !== 'pending', 30_000);
      await sleep(1500);
      assert.deepEqual(escaped.map(String), [], 'nothing escaped the export job');
      assert.equal(exportRow().status, 'running', 'the failure could not be stored yet');

      // Room again: the failure is recorded at the worker's next look, with its reason.
      db.pragma('max_page_count = 1073741823');
      await until('the failure is recorded', () => exportRow().status === 'failed', 10_000);
      assert.match(exportRow().error ?? '', /^No capture matches the selection \(hosts h0-x+\.example, /);
      assert.deepEqual(escaped, []);
    } finally {
      await manager.shutdown();
      process.off('unhandledRejection', onRejection);
      db.close();
    }
  });
});
