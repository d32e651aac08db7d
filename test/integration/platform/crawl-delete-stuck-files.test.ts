/**
 * A deleted crawl one of whose files cannot be removed (an immutable file: chattr +i) must not stop
 * every later deletion. Before, DELETE /api/crawls/:id answered 500 with the crawl already gone and
 * the background deletion not woken; and the background deletion removed files before rows, lowest
 * crawl id first, so the same failure stopped each of its passes at that crawl: no other crawl's
 * rows were deleted again. Real parts: the route handlers as Next calls them, CrawlDeletions, a
 * migrated SQLite file and the file system.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { Services } from '../../../app/lib/server/services';
import { callRoute, routeDatabase, signedInAs, type RouteHandler } from '../../support/route-database';
import { insertCrawl, insertCrawlRows, migratedDatabase, rowsOfCrawl } from '../../support/crawl-rows';
import { assertCanMakeImmutable, makeImmutable, makeRemovable } from '../../support/immutable-file';
import { until } from '../../support/engine-run';
import { icdSchema } from '../../../worker/icd/schema';
import { CrawlDeletions, FILES_RETRY_FIRST_MS } from '../../../worker/process/crawl-deletion';
import { deleteCrawlRow } from '../../../worker/process/crawl-requests';
import { crawlSpoolDir, crawlWarcDir, exportDir } from '../../../worker/store/data-layout';

let s: Services;
let admin = { cookie: '', csrf: '' };
let routes: typeof import('../../../app/api/crawls/[id]/route');

before(async () => {
  s = await routeDatabase('tidemark-delete-stuck-');
  admin = await signedInAs(s, 'root', 'admin');
  routes = await import('../../../app/api/crawls/[id]/route');
  assertCanMakeImmutable(s.env.dataDir);
});

const icd = icdSchema.parse({ name: 'Harbour', seeds: ['http://127.0.0.1:9/'] });
const ask = (method: 'GET' | 'DELETE', crawlId: number) =>
  callRoute(admin, routes[method] as RouteHandler<{ id: string }>, method, `/api/crawls/${crawlId}`, undefined, { id: String(crawlId) });

interface DeletionRow { filesError: string | null; filesFailures: number; retryFilesAt: string | null }
const deletionRow = (db: Database.Database, crawlId: number) =>
  db.prepare('SELECT filesError, filesFailures, retryFilesAt FROM CrawlDeletion WHERE crawlId = ?').get(crawlId) as DeletionRow | undefined;

/** A stopped crawl with rows, two WARC files and an export with a folder of its own; its folders. */
function crawlWithFiles(db: Database.Database, dataDir: string): { crawlId: number; folders: string[] } {
  const crawlId = insertCrawl(db, icd);
  db.prepare("UPDATE Crawl SET status = 'stopped', desired = 'stop' WHERE id = ?").run(crawlId);
  insertCrawlRows(db, crawlId, 300);
  const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status) VALUES (?, 'done')").run(crawlId).lastInsertRowid);
  const folders = [crawlWarcDir(dataDir, crawlId), exportDir(dataDir, exportId)];
  for (const dir of folders) mkdirSync(dir, { recursive: true });
  for (const name of ['a.warc.gz', 'b.warc.gz']) writeFileSync(join(folders[0]!, name), name);
  writeFileSync(join(folders[1]!, 'copy.warc.gz'), 'copy');
  return { crawlId, folders };
}

test('a crawl whose WARC file cannot be removed: 204 and its rows deleted, its deletion kept with the error and a retry time; a crawl deleted after it goes whole; the file goes at the next start once it can', { timeout: 60_000 }, async () => {
  const { dataDir } = s.env;
  const stuck = crawlWithFiles(s.db, dataDir);
  const next = crawlWithFiles(s.db, dataDir);
  const stuckFile = join(crawlWarcDir(dataDir, stuck.crawlId), 'b.warc.gz');
  const lines: string[] = [];
  s.crawlDeletions = new CrawlDeletions({ db: s.db, dataDir, log: (line) => lines.push(line) });
  const failure = `warcs/${stuck.crawlId}/b.warc.gz could not be removed (EPERM)`;

  makeImmutable(stuckFile);
  try {
    const res = await ask('DELETE', stuck.crawlId);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.equal((await ask('GET', stuck.crawlId)).status, 404, 'the crawl is gone for the user');
    // The route's line; the pass it woke may have logged its own since.
    assert.equal(lines[0], `crawl ${stuck.crawlId} is deleted, but not all its files could be removed from ${dataDir} (tried again once its rows are deleted): ${failure}`);
    // After the pass the route woke.
    await s.crawlDeletions.wake();
    assert.deepEqual(rowsOfCrawl(s.db, stuck.crawlId), { CrawlDeletion: 1 }, 'its rows are deleted all the same; its deletion row stays');
    const row = deletionRow(s.db, stuck.crawlId)!;
    assert.equal(row.filesError, failure);
    assert.equal(row.filesFailures, 1);
    assert.ok(Date.parse(row.retryFilesAt!) > Date.now() + FILES_RETRY_FIRST_MS / 2, `retried at ${row.retryFilesAt}, not at once`);
    assert.equal(lines.length, 2);
    assert.equal(lines[1], `crawl ${stuck.crawlId}'s rows are deleted, but not all its files could be removed from ${dataDir} (1 time in a row; tried again at ${new Date(Date.parse(row.retryFilesAt!)).toISOString()}): ${failure}`);
    assert.deepEqual(readdirSync(stuck.folders[0]!), ['b.warc.gz'], 'the other WARC file is removed');
    assert.equal(existsSync(stuck.folders[1]!), false, 'and its export\'s folder');

    // Deleted after it (a higher crawl id): not held up by it.
    assert.equal((await ask('DELETE', next.crawlId)).status, 204);
    await s.crawlDeletions.wake();
    assert.deepEqual(rowsOfCrawl(s.db, next.crawlId), {});
    assert.deepEqual(next.folders.filter(existsSync), []);
    assert.equal(deletionRow(s.db, stuck.crawlId)!.filesFailures, 1, 'the stuck one is not tried again before its retry time');
    assert.equal(lines.length, 2);
  } finally {
    makeRemovable(stuckFile);
  }

  // The next start tries it at once, as server.ts wakes it.
  await new CrawlDeletions({ db: s.db, dataDir, log: assert.fail }).wake({ retryFilesNow: true });
  assert.equal(existsSync(stuck.folders[0]!), false);
  assert.deepEqual(rowsOfCrawl(s.db, stuck.crawlId), {});
});

test('files that cannot be removed are tried again on their own, each failure logged, until they can be', { timeout: 60_000 }, async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'tidemark-delete-stuck-retry-'));
  const db = migratedDatabase(dataDir);
  const { crawlId, folders } = crawlWithFiles(db, dataDir);
  // A spool file this time: left when the worker died in the crawl's last run.
  const spooled = join(crawlSpoolDir(dataDir, crawlId), 'pending.warc.gz');
  mkdirSync(crawlSpoolDir(dataDir, crawlId), { recursive: true });
  writeFileSync(spooled, 'x');
  assert.ok(Array.isArray((deleteCrawlRow(db, crawlId) as { done: number[] }).done));
  const lines: string[] = [];
  const deletions = new CrawlDeletions({ db, dataDir, log: (line) => lines.push(line), filesRetryMs: { first: 20, max: 80 } });

  makeImmutable(spooled);
  try {
    await deletions.wake();
    assert.deepEqual(rowsOfCrawl(db, crawlId), { CrawlDeletion: 1 });
    await until('tried again twice with no wake asked for', () => (deletionRow(db, crawlId)?.filesFailures ?? 0) >= 3);
    for (const [i, line] of lines.slice(0, 3).entries()) {
      assert.match(line, new RegExp(`^crawl ${crawlId}'s rows are deleted, but not all its files could be removed from .+ \\(${i + 1} times? in a row; tried again at [-:.T0-9]+Z\\): spool/${crawlId}/pending\\.warc\\.gz could not be removed \\(EPERM\\)$`));
    }
  } finally {
    makeRemovable(spooled);
  }
  await until('its files are removed, then its deletion row', () => deletionRow(db, crawlId) === undefined);
  assert.deepEqual([...folders, crawlSpoolDir(dataDir, crawlId)].filter(existsSync), []);
  await deletions.wake();
  db.close();
});
