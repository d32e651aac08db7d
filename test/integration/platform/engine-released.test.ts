/**
 * A crawl that no longer runs keeps nothing of its run in the worker: once the run of a paused
 * crawl, or of a finished one, is recorded, its engine and its frontier (the seen-set, host queues,
 * what it registered with the politeness clocks every crawl of the worker shares) can be collected.
 * The worker runs for weeks, one large crawl after the other: a run kept alive is memory lost.
 * Real parts: the worker's CrawlManager over a migrated SQLite database, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as turn } from 'node:timers/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import type Database from 'better-sqlite3';
import { icdSchema } from '../../../worker/icd/schema';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import type { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { insertCrawl, migratedDatabase } from '../../support/crawl-rows';
import { startFixtureSite } from '../../support/fixture-site';
import { crawlStatusBecomes } from '../../support/posted-urls';
import { withTempDir } from '../../support/temp-dir';

v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

/** Whether every object of `refs` was collected, after full collections with the event loop turning between them (promise chains of the run's end settle). */
async function collected(refs: WeakRef<object>[]): Promise<boolean> {
  for (let round = 0; round < 20; round++) {
    gc();
    if (refs.every((r) => r.deref() === undefined)) return true;
    await turn();
  }
  return false;
}

/** Weak references to the engine that runs `crawlId` and its frontier, once it runs. */
async function runOf(manager: CrawlManager, crawlId: number): Promise<WeakRef<object>[]> {
  const engines = manager['engines'] as Map<number, CrawlEngine>;
  while (!engines.get(crawlId)?.['ctx']) await turn();
  const engine = engines.get(crawlId)!;
  return [new WeakRef(engine), new WeakRef(engine['ctx']!.frontier)];
}

const capturesOf = (db: Database.Database, crawlId: number) => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(crawlId) as number;

test('the engine and frontier of a paused crawl, then of the same crawl finished, are collected once their runs are recorded', { timeout: 90_000 }, async () => {
  await withTempDir('tm-engine-released-', async (dir) => {
    const site = await startFixtureSite({ pageCount: 60, delayMs: 20 });
    const db = migratedDatabase(dir);
    const manager = new CrawlManager({ db, dataDir: dir, send: () => undefined });
    try {
      const icd = icdSchema.parse({ name: 'Released', seeds: [`${site.origin}/`], politeness: { enabled: false, concurrency: 2 } });
      const crawlId = insertCrawl(db, icd);
      manager.start();
      const paused = await runOf(manager, crawlId);
      while (capturesOf(db, crawlId) < 5) await turn();
      db.prepare("UPDATE Crawl SET desired = 'pause' WHERE id = ?").run(crawlId);
      manager.poke();
      assert.equal(await crawlStatusBecomes(db, crawlId, 'paused'), 'paused');
      assert.ok(capturesOf(db, crawlId) < 60, 'paused before its end');
      assert.ok(await collected(paused), 'the paused run\'s engine and frontier are collected');

      db.prepare("UPDATE Crawl SET desired = 'run' WHERE id = ?").run(crawlId);
      manager.poke();
      const finished = await runOf(manager, crawlId);
      assert.equal(await crawlStatusBecomes(db, crawlId, 'finished', 60_000), 'finished');
      assert.ok(await collected(finished), 'the finished run\'s engine and frontier are collected');
    } finally {
      await manager.shutdown();
      db.close();
      await site.close();
    }
  });
});
