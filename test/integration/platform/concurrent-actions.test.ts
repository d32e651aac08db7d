/**
 * Requests sent at once (or in a quick row) that act on one crawl or one user, to the route
 * handlers as Next calls them, over a real migrated SQLite database in a temporary data directory.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { routeDatabase, signedInAs } from '../../support/route-database';
import type { Services } from '../../../app/lib/server/services';

const { hashPassword } = await import('../../../worker/auth/password');

const ORIGIN = 'http://cockpit.test';
let admin = { cookie: '', csrf: '' };
let s: Services;

before(async () => {
  s = await routeDatabase('tidemark-concurrent-');
  admin = await signedInAs(s, 'root', 'admin');
});

function request(method: string, body?: unknown): Request {
  const headers: Record<string, string> = { host: 'cockpit.test', origin: ORIGIN, cookie: admin.cookie, 'x-csrf-token': admin.csrf };
  return new Request(`${ORIGIN}/api/thing`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
}
const params = <P>(p: P) => ({ params: Promise.resolve(p) });

/** An ICD today's rules accept: a resume is refused for a crawl whose stored copy they refuse ('{}' has no name nor seeds). */
const QUAY = JSON.stringify({ name: 'Quay', seeds: ['http://127.0.0.1:9/'] });

/** A crawl row in `status` wanting `desired`, of an ICD of its own. */
function crawlRow(status: string, desired: string): number {
  const { db } = s;
  const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Quay', ?, datetime('now'), datetime('now'))").run(QUAY).lastInsertRowid;
  return Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, ?, 'Quay', ?, ?, datetime('now'))").run(icdId, QUAY, status, desired).lastInsertRowid);
}

test('an export asked for right after a resume (the crawl still paused, wanting run) is refused with 409, as a resume under an export is', async () => {
  const { db } = s;
  const control = (await import('../../../app/api/crawls/[id]/control/route')).POST;
  const exportsPost = (await import('../../../app/api/crawls/[id]/exports/route')).POST;
  const id = String(crawlRow('paused', 'pause'));
  assert.equal((await control(request('POST', { action: 'resume' }), params({ id }))).status, 200);
  // The worker has not picked the resume up yet: the crawl is still paused, and wants to run.
  assert.deepEqual(db.prepare('SELECT status, desired FROM Crawl WHERE id = ?').get(id), { status: 'paused', desired: 'run' });
  const refused = await exportsPost(request('POST', {}), params({ id }));
  assert.equal(refused.status, 409);
  assert.equal(((await refused.json()) as { error: string }).error, 'The crawl is being resumed: pause, stop or let it finish before exporting');
  assert.equal(db.prepare('SELECT COUNT(*) FROM Export WHERE crawlId = ?').pluck().get(id), 0, 'no export stored');
  // Paused again before the worker resumed it: the export is taken.
  assert.equal((await control(request('POST', { action: 'pause' }), params({ id }))).status, 200);
  assert.equal((await exportsPost(request('POST', {}), params({ id }))).status, 201);
});

test('the two admins demoted at once: one is, the other stays admin (409), so someone can still manage users', async () => {
  const { db } = s;
  const patch = (await import('../../../app/api/users/[id]/route')).PATCH;
  const rootId = db.prepare("SELECT id FROM User WHERE username = 'root'").pluck().get() as number;
  const adaId = Number(db.prepare("INSERT INTO User (username, passwordHash, role, createdAt) VALUES ('ada', ?, 'admin', datetime('now'))").run(await hashPassword('pw')).lastInsertRowid);
  assert.equal(db.prepare("SELECT COUNT(*) FROM User WHERE role = 'admin'").pluck().get(), 2);
  // root, an admin, demotes ada and itself at once: each request alone would be allowed.
  const answers = await Promise.all([adaId, rootId].map((id) => patch(request('PATCH', { role: 'curator' }), params({ id: String(id) }))));
  const bodies = await Promise.all(answers.map((r) => r.json() as Promise<{ error?: string }>));
  assert.deepEqual(answers.map((r) => r.status).sort(), [200, 409], JSON.stringify(bodies));
  assert.ok(bodies.some((b) => b.error === 'The last admin keeps the role: make another user admin first'));
  assert.equal(db.prepare("SELECT COUNT(*) FROM User WHERE role = 'admin'").pluck().get(), 1, 'one admin is left');
  db.prepare("UPDATE User SET role = 'admin' WHERE id = ?").run(rootId);
});
