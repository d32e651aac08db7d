/**
 * The route wrapper as Next calls it (a Request and a Promise of params), over a real migrated
 * SQLite database in a temporary data directory.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { z } from 'zod';

const dataDir = mkdtempSync(join(tmpdir(), 'tidemark-handler-'));
process.env.TIDEMARK_DATA_DIR = dataDir;
delete process.env.TIDEMARK_DB;

const { HttpError, apiRoute, idParam, pageParams, readJson } = await import('../../../app/lib/server/handler');
const { services } = await import('../../../app/lib/server/services');
const { applyMigrations } = await import('../../../worker/store/migrator');
const { hashPassword } = await import('../../../worker/auth/password');

const ORIGIN = 'http://cockpit.test';
const sessions: Record<string, { cookie: string; csrf: string }> = {};

before(async () => {
  const { db, sessions: store } = services();
  applyMigrations(db, resolve('prisma/migrations'));
  for (const role of ['curator', 'archivist', 'manager']) {
    db.prepare("INSERT INTO User (username, passwordHash, role, createdAt) VALUES (?, ?, ?, datetime('now'))").run(role, await hashPassword('pw'), role);
    const s = await store.login(role, 'pw');
    assert.ok(s);
    sessions[role] = { cookie: `tidemark_session=${s.token}`, csrf: s.user.csrfToken };
  }
});

function request(method: string, opts: { as?: string; csrf?: string | null; origin?: string | null; body?: string } = {}): Request {
  const headers: Record<string, string> = { host: 'cockpit.test' };
  const session = opts.as ? sessions[opts.as] : undefined;
  if (session) headers.cookie = session.cookie;
  const csrf = opts.csrf === undefined ? session?.csrf : opts.csrf;
  if (csrf) headers['x-csrf-token'] = csrf;
  const origin = opts.origin === undefined ? ORIGIN : opts.origin;
  if (origin) headers.origin = origin;
  return new Request(`${ORIGIN}/api/thing`, { method, headers, body: opts.body });
}

const params = <P>(p: P) => ({ params: Promise.resolve(p) });
const echo = apiRoute<{ id: string }>('run', async ({ params, user }) => ({ id: params.id, user: user.username }));

test('no session → 401; a role without the permission → 403; with it the handler runs', async () => {
  assert.equal((await echo(request('GET'), params({ id: '1' }))).status, 401);
  const forbidden = await echo(request('GET', { as: 'curator' }), params({ id: '1' }));
  assert.equal(forbidden.status, 403);
  assert.deepEqual(await forbidden.json(), { error: 'forbidden', permission: 'run' });
  const ok = await echo(request('GET', { as: 'archivist' }), params({ id: '7' }));
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { id: '7', user: 'archivist' });
});

test('state-changing requests need the session CSRF token and our own Origin', async () => {
  const id = params({ id: '1' });
  assert.equal((await echo(request('POST', { as: 'archivist', csrf: null }), id)).status, 403);
  assert.equal((await echo(request('POST', { as: 'archivist', csrf: 'not-the-token' }), id)).status, 403);
  assert.equal((await echo(request('POST', { as: 'archivist', csrf: sessions.curator!.csrf }), id)).status, 403, "another session's token");
  assert.equal((await echo(request('POST', { as: 'archivist', origin: 'http://evil.test' }), id)).status, 403);
  assert.equal((await echo(request('POST', { as: 'archivist', origin: 'null' }), id)).status, 403);
  assert.equal((await echo(request('POST', { as: 'archivist' }), id)).status, 200);
  // Non-browser clients send no Origin: the token alone decides.
  assert.equal((await echo(request('POST', { as: 'archivist', origin: null }), id)).status, 200);
});

test('zod errors → 400 with issues, HttpError → its status, undefined → 204, a Response as is', async () => {
  const schema = z.object({ seeds: z.array(z.string().url()) });
  const parse = apiRoute('view', async ({ req }) => readJson(req, schema));
  const bad = await parse(request('POST', { as: 'curator', body: JSON.stringify({ seeds: ['not a url'] }) }), params({}));
  assert.equal(bad.status, 400);
  const body = (await bad.json()) as { error: string; issues: { path: unknown[]; message: string }[] };
  assert.equal(body.error, 'invalid');
  assert.deepEqual(body.issues[0]!.path, ['seeds', 0]);
  assert.equal((await parse(request('POST', { as: 'curator', body: '{not json' }), params({}))).status, 400);

  const conflict = apiRoute('view', async () => {
    throw new HttpError(409, 'busy');
  });
  const res = await conflict(request('GET', { as: 'curator' }), params({}));
  assert.equal(res.status, 409);
  assert.deepEqual(await res.json(), { error: 'busy' });
  assert.equal((await apiRoute('view', async () => undefined)(request('GET', { as: 'curator' }), params({}))).status, 204);
  const teapot = await apiRoute('view', async () => new Response('tea', { status: 418 }))(request('GET', { as: 'curator' }), params({}));
  assert.equal(teapot.status, 418);
  assert.equal(await teapot.text(), 'tea');
});

test('pageParams clamps pageSize; a page that is not a whole number from 1 with a bounded offset is a 400', () => {
  assert.deepEqual(pageParams(new URL('http://x/?page=3&pageSize=20')), { page: 3, pageSize: 20, offset: 40 });
  assert.deepEqual(pageParams(new URL('http://x/')), { page: 1, pageSize: 50, offset: 0 });
  assert.deepEqual(pageParams(new URL('http://x/?page=&pageSize=100000')), { page: 1, pageSize: 500, offset: 0 });
  assert.deepEqual(pageParams(new URL('http://x/?page=2000001&pageSize=500')), { page: 2_000_001, pageSize: 500, offset: 1_000_000_000 });
  for (const page of ['1e300', '1e20', '0', '-2', '1.5', '0x10', 'abc', ' 2', '+2', '02', '2000002', '99999999999999999999']) {
    assert.throws(() => pageParams(new URL(`http://x/?page=${encodeURIComponent(page)}&pageSize=500`)), (err: unknown) => err instanceof HttpError && err.status === 400 && /^page must be a whole number from 1 to 2000001/.test(err.message), page);
  }
});

test('idParam takes decimal digits only: anything else Number() would read is a 404', () => {
  assert.equal(idParam('1'), 1);
  assert.equal(idParam('99999999999'), 99_999_999_999);
  assert.equal(idParam('9007199254740991'), Number.MAX_SAFE_INTEGER);
  for (const id of ['0x1', '1e0', '01', ' 1', '1 ', '+1', '1.0', '0', '-1', '', 'abc', '0b1', '9007199254740992', '12345678901234567', undefined]) {
    assert.throws(() => idParam(id), (err: unknown) => err instanceof HttpError && err.status === 404, String(id));
  }
});

test('resume is refused with a 409 saying why while an export of the crawl is pending or running; allowed once it is done', async () => {
  const { db } = services();
  const control = (await import('../../../app/api/crawls/[id]/control/route')).POST;
  // An ICD today's rules accept: the resume of a crawl whose copy they refuse is refused for that.
  const definition = JSON.stringify({ name: 'Quay', seeds: ['http://127.0.0.1:9/'] });
  const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Quay', ?, datetime('now'), datetime('now'))").run(definition).lastInsertRowid;
  const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, ?, 'Quay', 'paused', 'pause', datetime('now'))").run(icdId, definition).lastInsertRowid);
  const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, createdAt) VALUES (?, 'running', datetime('now'))").run(crawlId).lastInsertRowid);
  const resume = () => control(request('POST', { as: 'archivist', body: JSON.stringify({ action: 'resume' }) }), params({ id: String(crawlId) }));
  const refused = await resume();
  assert.equal(refused.status, 409);
  assert.match(((await refused.json()) as { error: string }).error, new RegExp(`^Export ${exportId} of this crawl is under way`));
  assert.equal(db.prepare('SELECT desired FROM Crawl WHERE id = ?').pluck().get(crawlId), 'pause', 'nothing changed');
  // Nor is it deleted under the export, which reads its files.
  const remove = (await import('../../../app/api/crawls/[id]/route')).DELETE;
  const kept = await remove(request('DELETE', { as: 'manager' }), params({ id: String(crawlId) }));
  assert.equal(kept.status, 409);
  assert.match(((await kept.json()) as { error: string }).error, new RegExp(`^Export ${exportId} of this crawl is under way: delete the crawl once`));
  assert.equal(db.prepare('SELECT COUNT(*) FROM Crawl WHERE id = ?').pluck().get(crawlId), 1);
  db.prepare("UPDATE Export SET status = 'done' WHERE id = ?").run(exportId);
  assert.equal((await resume()).status, 200);
  assert.equal(db.prepare('SELECT desired FROM Crawl WHERE id = ?').pluck().get(crawlId), 'run');
  // Still 'paused', but asked to resume: the worker may be launching it, so it is not deleted now.
  const resuming = await remove(request('DELETE', { as: 'manager' }), params({ id: String(crawlId) }));
  assert.equal(resuming.status, 409);
  assert.equal(((await resuming.json()) as { error: string }).error, 'The crawl is being resumed: pause or stop it first');
  assert.equal(db.prepare('SELECT COUNT(*) FROM Crawl WHERE id = ?').pluck().get(crawlId), 1);
});
