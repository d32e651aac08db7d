/**
 * The captures list says which captures' bodies were cut short (their WARC-Truncated value), through
 * the route handler as Next calls it, over a real migrated SQLite database. Before, a body cut off
 * by a failed fetch looked like a whole answer in the list.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { routeDatabase, signedInAs } from '../../support/route-database';

test('the captures list gives each capture\'s WARC-Truncated value, null when whole', async () => {
  const services = await routeDatabase('tidemark-captures-truncated-');
  const { db } = services;
  const { cookie } = await signedInAs(services, 'viewer', 'curator');
  const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Quay', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
  const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', 'Quay', 'finished', 'run', datetime('now'))").run(icdId).lastInsertRowid);
  const insert = db.prepare("INSERT INTO Capture (crawlId, url, status, mime, size, truncated, recordType, warcFile, warcOffset, warcLength, fetchedAt, durationMs) VALUES (?, ?, 200, 'text/html', 10, ?, 'response', 'f.warc.gz', ?, 10, '2026-11-28T10:00:00.000+00:00', 1)");
  insert.run(crawlId, 'http://a.test/whole', null, 0);
  insert.run(crawlId, 'http://a.test/cut', 'disconnect', 10);
  const route = await import('../../../app/api/crawls/[id]/captures/route');
  const res = await route.GET(new Request(`http://cockpit.test/api/crawls/${crawlId}/captures`, { headers: { host: 'cockpit.test', cookie } }), { params: Promise.resolve({ id: String(crawlId) }) });
  assert.equal(res.status, 200);
  const body = (await res.json()) as { items: { url: string; truncated: string | null }[] };
  assert.deepEqual(body.items.map((i) => [i.url, i.truncated]).sort(), [['http://a.test/cut', 'disconnect'], ['http://a.test/whole', null]]);
});
