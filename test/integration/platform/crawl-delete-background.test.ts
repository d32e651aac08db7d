/**
 * Deleting a crawl: its Crawl row goes at once, its other rows afterwards in short transactions.
 * Before, the row's ON DELETE CASCADE deleted every capture, log entry, web object … in the one
 * transaction of the DELETE, holding SQLite's write lock for all of it: another connection's write
 * (a running crawl's worker, the cockpit) waited on its busy timeout and then failed with "database
 * is locked". To the route handlers as Next calls them, over a real migrated SQLite file, with a
 * second connection that never waits for the lock (busy timeout 0): its write either gets the lock
 * at once or fails.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { routeDatabase, signedInAs, callRoute, type RouteHandler } from '../../support/route-database';
import { insertCrawlRows, rowsOfCrawl } from '../../support/crawl-rows';
import type { Services } from '../../../app/lib/server/services';
import { CrawlDeletions, DELETE_BATCH_ROWS } from '../../../worker/process/crawl-deletion';
import { crawlWarcDir } from '../../../worker/store/data-layout';

let admin = { cookie: '', csrf: '' };
let s: Services;

before(async () => {
  s = await routeDatabase('tidemark-delete-background-');
  admin = await signedInAs(s, 'root', 'admin');
});

function crawl(status: string): number {
  const icdId = s.db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Harbour', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
  return Number(s.db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{\"name\":\"Harbour\",\"seeds\":[\"http://h.test/\"]}', 'Harbour', ?, 'stop', datetime('now'))").run(icdId, status).lastInsertRowid);
}

test('a deleted crawl is gone from the cockpit at once; its rows go a batch at a time, another connection writing between them; another crawl keeps its rows', { timeout: 120_000 }, async () => {
  const deleted = crawl('finished');
  const kept = crawl('finished');
  const captures = 3 * DELETE_BATCH_ROWS + 10;
  insertCrawlRows(s.db, deleted, captures);
  insertCrawlRows(s.db, kept, 300);
  const exportId = Number(s.db.prepare("INSERT INTO Export (crawlId, status, files) VALUES (?, 'done', '[]')").run(deleted).lastInsertRowid);
  mkdirSync(join(s.env.dataDir, 'exports', String(exportId)), { recursive: true });
  mkdirSync(crawlWarcDir(s.env.dataDir, deleted), { recursive: true });
  writeFileSync(join(crawlWarcDir(s.env.dataDir, deleted), 'a.warc.gz'), 'x');
  const keptRows = rowsOfCrawl(s.db, kept);

  const other = new Database(s.env.dbPath, { timeout: 0 });
  const logOfKept = other.prepare("INSERT INTO CrawlLogEntry (crawlId, url, outcome, at) VALUES (?, 'http://h.test/meanwhile', 'fetched', datetime('now'))");
  const capturesOf = (crawlId: number) => s.db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(crawlId) as number;

  // Between each two statements of the deletion: the other connection writes, and what is left of the crawl's captures.
  const between: { captures: number; wrote: boolean }[] = [];
  let seenByCockpit: Record<string, number> | null = null;
  const crawlRoute = await import('../../../app/api/crawls/[id]/route');
  const listRoute = await import('../../../app/api/crawls/route');
  const controlRoute = await import('../../../app/api/crawls/[id]/control/route');
  const exportsRoute = await import('../../../app/api/crawls/[id]/exports/route');
  const capturesRoute = await import('../../../app/api/crawls/[id]/captures/route');
  s.crawlDeletions = new CrawlDeletions({
    db: s.db, dataDir: s.env.dataDir, log: (line) => assert.fail(line),
    between: async () => {
      let wrote = true;
      try {
        logOfKept.run(kept);
      } catch {
        wrote = false;
      }
      between.push({ captures: capturesOf(deleted), wrote });
      if (seenByCockpit) return;
      // While the rows are being deleted, the cockpit knows no such crawl.
      const list = await callRoute(admin, listRoute.GET as RouteHandler<Record<string, string>>, 'GET', '/api/crawls', undefined, {});
      const ask = (handler: RouteHandler<{ id: string }>, method: string, path: string, body?: unknown) => callRoute(admin, handler, method, `/api/crawls/${deleted}${path}`, body, { id: String(deleted) });
      seenByCockpit = {
        listed: (list.body.items as { id: number }[]).filter((c) => c.id === deleted).length,
        details: (await ask(crawlRoute.GET as RouteHandler<{ id: string }>, 'GET', '')).status,
        captures: (await ask(capturesRoute.GET as RouteHandler<{ id: string }>, 'GET', '/captures')).status,
        resume: (await ask(controlRoute.POST as RouteHandler<{ id: string }>, 'POST', '/control', { action: 'resume' })).status,
        exportNow: (await ask(exportsRoute.POST as RouteHandler<{ id: string }>, 'POST', '/exports', { format: 'warc' })).status,
        deleteAgain: (await ask(crawlRoute.DELETE as RouteHandler<{ id: string }>, 'DELETE', '')).status,
      };
    },
  });

  const res = await callRoute(admin, crawlRoute.DELETE as RouteHandler<{ id: string }>, 'DELETE', `/api/crawls/${deleted}`, undefined, { id: String(deleted) });
  assert.equal(res.status, 204);
  // Answered with the crawl's files removed, its rows still there but for its exports.
  assert.equal(existsSync(crawlWarcDir(s.env.dataDir, deleted)), false);
  assert.equal(existsSync(join(s.env.dataDir, 'exports', String(exportId))), false);
  assert.equal(s.db.prepare('SELECT COUNT(*) FROM Export WHERE crawlId = ?').pluck().get(deleted), 0);
  assert.ok(capturesOf(deleted) > 0);
  await s.crawlDeletions.wake();
  other.close();

  assert.deepEqual(seenByCockpit, { listed: 0, details: 404, captures: 404, resume: 404, exportNow: 404, deleteAgain: 404 });
  assert.ok(between.every((b) => b.wrote), `the other connection's writes between batches: ${JSON.stringify(between.filter((b) => !b.wrote).length)} failed`);
  const partway = between.filter((b) => b.captures > 0 && b.captures < captures);
  assert.ok(partway.length >= 2, `batches seen with the captures part-deleted: ${JSON.stringify([...new Set(between.map((b) => b.captures))])}`);
  assert.deepEqual(rowsOfCrawl(s.db, deleted), {});
  assert.equal(s.db.prepare('SELECT COUNT(*) FROM CrawlDeletion').pluck().get(), 0);
  // The entries written meanwhile (outcome 'fetched', no status, host h.test) add one row to each of the log's tallies.
  assert.deepEqual(rowsOfCrawl(s.db, kept), {
    ...keptRows, CrawlLogEntry: keptRows.CrawlLogEntry! + between.length, CrawlLogTally: keptRows.CrawlLogTally! + 1, CrawlHostTally: keptRows.CrawlHostTally! + 1,
  });
});
