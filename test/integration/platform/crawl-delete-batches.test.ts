/**
 * Deleting a crawl with a large frontier deletes its frontier rows in short statements, the server's
 * thread free between them: in one statement, 550,000 URLs held SQLite's write lock and the thread
 * 6.1 s, and every other request waited. To the route handler as Next calls it, over a real migrated
 * SQLite database.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { routeDatabase, signedInAs, callRoute, type RouteHandler } from '../../support/route-database';
import type { Services } from '../../../app/lib/server/services';
import { ensureFrontierTables } from '../../../worker/frontier/frontier-sql';
import { DELETE_BATCH_ROWS } from '../../../worker/process/crawl-deletion';

let admin = { cookie: '', csrf: '' };
let s: Services;

before(async () => {
  s = await routeDatabase('tidemark-delete-batches-');
  admin = await signedInAs(s, 'root', 'admin');
});

function finishedCrawl(): number {
  const icdId = s.db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Domain', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
  return Number(s.db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', 'Domain', 'finished', 'stop', datetime('now'))").run(icdId).lastInsertRowid);
}

/** `n` URLs seen by the crawl, spread over 100 hosts. */
function frontierRows(crawlId: number, n: number): void {
  const insert = s.db.prepare(
    `INSERT INTO frontier_url (crawl_id, url_hash, url, host, depth, kind, state, precedence, score_raw, score_count, score_sum, discovered_at)
     VALUES (?, ?, ?, ?, 1, 'page', ?, 0, 0, 0, 0, 0)`,
  );
  s.db.transaction(() => {
    for (let i = 0; i < n; i++) insert.run(crawlId, crawlId * 10_000_000 + i, `http://h${i % 100}.test/p${i}`, `h${i % 100}.test`, i % 3 === 0 ? 0 : 2);
  })();
}

const urlsOf = (crawlId: number) => s.db.prepare('SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ?').pluck().get(crawlId) as number;

test('a crawl\'s frontier is deleted a batch at a time, other requests answered between the batches; another crawl\'s stays', { timeout: 60_000 }, async () => {
  ensureFrontierTables(s.db);
  const deleted = finishedCrawl();
  const kept = finishedCrawl();
  const urls = 3 * DELETE_BATCH_ROWS + 10;
  frontierRows(deleted, urls);
  frontierRows(kept, 500);
  const del = (await import('../../../app/api/crawls/[id]/route')).DELETE as RouteHandler<{ id: string }>;

  // What the server's other requests would see of the crawl's frontier, at each turn of the event loop while the deletion runs.
  const seen: number[] = [];
  let answered = false;
  const watching = (async () => {
    while (!answered) {
      seen.push(urlsOf(deleted));
      await nextTurn();
    }
  })();
  const res = await callRoute(admin, del, 'DELETE', `/api/crawls/${deleted}`, undefined, { id: String(deleted) });
  // The rows go after the answer, in the server's background deletion.
  await s.crawlDeletions.wake();
  answered = true;
  await watching;

  assert.equal(res.status, 204);
  assert.equal(urlsOf(deleted), 0);
  assert.equal(urlsOf(kept), 500);
  const partway = seen.filter((n) => n > 0 && n < urls);
  assert.ok(partway.length >= 2, `turns of the event loop seen with the frontier part-deleted: ${JSON.stringify([...new Set(seen)])}`);
});
