/**
 * GET /api/adapted-rules's filters, through the route handler as Next calls it, over a real
 * migrated SQLite database: a filter it cannot apply is a 400 naming the parameter.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { routeDatabase, signedInAs } from '../../support/route-database';

const ORIGIN = 'http://cockpit.test';
let cookie = '';
let crawlId = 0;

before(async () => {
  const services = await routeDatabase('tidemark-adapted-rules-');
  const { db } = services;
  cookie = (await signedInAs(services, 'viewer', 'curator')).cookie;
  const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Quay', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
  crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', 'Quay', 'finished', 'run', datetime('now'))").run(icdId).lastInsertRowid);
  const rule = db.prepare("INSERT INTO AdaptedRule (crawlId, application, originalRule, expression, provenance, status, createdAt) VALUES (?, 'wp', 'wp/post/title', '{}', '{}', ?, datetime('now'))");
  rule.run(crawlId, 'pending');
  rule.run(crawlId, 'approved');
  rule.run(null, 'rejected');
});

async function list(query: string): Promise<{ status: number; body: unknown }> {
  const { GET } = await import('../../../app/api/adapted-rules/route');
  const res = await GET(new Request(`${ORIGIN}/api/adapted-rules${query}`, { headers: { host: 'cockpit.test', cookie } }), { params: Promise.resolve({}) });
  return { status: res.status, body: await res.json() };
}

const statusesOf = (body: unknown) => (body as { status: string }[]).map((r) => r.status).sort();

test('a crawlId that is no crawl id is refused (400) naming it, not dropped to list every rule', async () => {
  for (const bad of ['abc', 'NaN', '1e309', '-1', '0', '1.5', '0x1', '01']) {
    const { status, body } = await list(`?crawlId=${encodeURIComponent(bad)}`);
    assert.equal(status, 400, `crawlId=${bad}: ${JSON.stringify(body)}`);
    assert.match((body as { error: string }).error, /^crawlId /, `crawlId=${bad}`);
  }
});

test('a status that is none of pending, approved, rejected is refused (400) naming it, not answered []', async () => {
  for (const bad of ['accepted', 'PENDING', ' pending']) {
    const { status, body } = await list(`?status=${encodeURIComponent(bad)}`);
    assert.equal(status, 400, `status=${bad}: ${JSON.stringify(body)}`);
    assert.equal((body as { error: string }).error, 'status must be one of pending, approved, rejected');
  }
});

test('the filters still filter, and an absent or empty one filters nothing', async () => {
  assert.deepEqual(statusesOf((await list('')).body), ['approved', 'pending', 'rejected']);
  assert.deepEqual(statusesOf((await list('?crawlId=&status=')).body), ['approved', 'pending', 'rejected']);
  assert.deepEqual(statusesOf((await list(`?crawlId=${crawlId}`)).body), ['approved', 'pending']);
  assert.deepEqual(statusesOf((await list(`?crawlId=${crawlId}&status=approved`)).body), ['approved']);
  assert.deepEqual(statusesOf((await list('?status=rejected')).body), ['rejected']);
  assert.deepEqual((await list(`?crawlId=${crawlId + 100}`)).body, [], 'a crawl with no rules (or none at all) has none');
});
