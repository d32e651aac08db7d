/**
 * Creating, renaming and deleting knowledge bases through the real route handlers over a migrated
 * SQLite database (route-database.ts): names checked, taken names refused, a rename carried into the
 * crawl definitions and crawls that named the knowledge base (a crawl of a renamed one's ICD is
 * still created), a delete refused while an ICD names it or a crawl that may still run copied it,
 * and `default` neither renamed nor deleted.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../../app/lib/server/services';
import { callRoute, routeDatabase, signedInAs, type RouteHandler } from '../../support/route-database';

let s: Services;
let admin = { cookie: '', csrf: '' };
let archivist = { cookie: '', csrf: '' };

const KB = (app: string) => `<?xml version="1.0" encoding="UTF-8"?>
<knowledge-base version="1">
  <application id="${app}" name="${app}" category="news">
    <detect><xpath>//body[@id='${app}']</xpath></detect>
  </application>
</knowledge-base>
`;

const routes = () => import('../../../app/api/knowledge-bases/route');
const named = () => import('../../../app/api/knowledge-bases/[name]/route');
const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P, as = admin) => callRoute(as, handler, method, path, body, params);

/** A request whose answer may have no body (a 204). */
async function raw<P>(handler: RouteHandler<P>, method: string, path: string, params: P, as = admin): Promise<{ status: number; body: Record<string, unknown> | null }> {
  const origin = 'http://cockpit.test';
  const res = await handler(new Request(`${origin}${path}`, { method, headers: { host: 'cockpit.test', origin, cookie: as.cookie, 'x-csrf-token': as.csrf } }), { params: Promise.resolve(params) });
  const text = await res.text();
  return { status: res.status, body: text ? (JSON.parse(text) as Record<string, unknown>) : null };
}

const create = async (body: unknown, as = admin) => call((await routes()).POST, 'POST', '/api/knowledge-bases', body, {}, as);
const rename = async (from: string, to: unknown) => call((await named()).PATCH, 'PATCH', `/api/knowledge-bases/${from}`, { name: to }, { name: from });
const remove = async (name: string, as = admin) => raw((await named()).DELETE, 'DELETE', `/api/knowledge-bases/${name}`, { name }, as);
const read = async (name: string) => call((await named()).GET, 'GET', `/api/knowledge-bases/${name}`, undefined, { name });
const createIcd = async (name: string, knowledgeBase: string): Promise<number> => {
  const { POST } = await import('../../../app/api/icds/route');
  const created = await call(POST, 'POST', '/api/icds', { name, seeds: ['https://a.example.org/'], aah: { enabled: true, knowledgeBase } }, {});
  assert.equal(created.status, 201, JSON.stringify(created.body));
  return created.body.id as number;
};
const readIcd = async (id: number) => {
  const { GET } = await import('../../../app/api/icds/[id]/route');
  return (await call(GET, 'GET', `/api/icds/${id}`, undefined, { id: String(id) })).body as { updatedAt: string; definition: { aah: { knowledgeBase: string } } };
};
const createCrawl = async (icdId: number) => {
  const { POST } = await import('../../../app/api/crawls/route');
  return call(POST, 'POST', '/api/crawls', { icdId }, {});
};

before(async () => {
  s = await routeDatabase('tidemark-kb-names-');
  admin = await signedInAs(s, 'root', 'admin');
  archivist = await signedInAs(s, 'ada', 'archivist');
  // The server stores the shipped knowledge base as `default` when it starts (seed.ts).
  const { PUT } = await named();
  assert.equal((await call(PUT, 'PUT', '/api/knowledge-bases/default', { xml: KB('shipped') }, { name: 'default' })).status, 200);
});

test('POST creates a knowledge base: empty, of the XML given, or a copy of another; a taken or bad name and invalid XML are refused', async () => {
  const empty = await create({ name: 'blank' }, archivist);
  assert.equal(empty.status, 201, JSON.stringify(empty.body));
  assert.match(String(empty.body.xml), /<knowledge-base version="1">/);
  assert.equal((await read('blank')).status, 200);

  const given = await create({ name: 'tides', xml: KB('tides') });
  assert.equal(given.status, 201);
  assert.equal((await read('tides')).body.xml, KB('tides'));

  const copy = await create({ name: 'tides.copy', copyOf: 'tides' });
  assert.equal(copy.status, 201);
  assert.equal((await read('tides.copy')).body.xml, KB('tides'));

  const taken = await create({ name: 'tides', xml: KB('other') });
  assert.equal(taken.status, 409);
  assert.match(String(taken.body.error), /A knowledge base named “tides” already exists/);
  assert.equal((await read('tides')).body.xml, KB('tides'), 'the stored one is untouched');

  const badName = await create({ name: 'no spaces/here' });
  assert.equal(badName.status, 400);
  assert.deepEqual((badName.body.issues as { path: string[] }[])[0].path, ['name']);
  assert.equal((await create({ name: '' })).status, 400);
  assert.equal((await create({ name: 'x'.repeat(65) })).status, 400);

  const invalid = await create({ name: 'broken', xml: '<knowledge-base version="1">\n  <application id="x">\n</knowledge-base>' });
  assert.equal(invalid.status, 400);
  assert.ok((invalid.body.errors as { line: number }[]).length > 0);
  assert.equal((await read('broken')).status, 404, 'nothing stored');

  assert.equal((await create({ name: 'orphan', copyOf: 'nowhere' })).status, 404);
  assert.equal((await create({ name: 'both', xml: KB('b'), copyOf: 'tides' })).status, 400);
  assert.equal((await create({ name: 'curated' }, await signedInAs(s, 'cu', 'curator'))).status, 403);
});

// `.` and `..` were stored (201), but their URLs, /api/knowledge-bases/.., resolve to other paths:
// the knowledge base could never be read, changed nor deleted.
test('a name of dots only is refused at name, when created and when renamed to', async () => {
  for (const name of ['.', '..', '...']) {
    const created = await create({ name, xml: KB('dots') });
    assert.equal(created.status, 400, name);
    assert.deepEqual(created.body.issues, [{ path: ['name'], message: 'Name: not only dots (. and .. in a URL mean this folder and the one above)' }], name);
  }
  assert.equal(s.db.prepare("SELECT COUNT(*) FROM KnowledgeBase WHERE name LIKE '.%'").pluck().get(), 0, 'none stored');
  assert.equal((await create({ name: 'to-rename', xml: KB('r') })).status, 201);
  const renamed = await rename('to-rename', '..');
  assert.equal(renamed.status, 400);
  assert.deepEqual((renamed.body.issues as { path: string[] }[]).map((i) => i.path), [['name']]);
  assert.equal((await read('to-rename')).status, 200, 'kept under its name');
});

test('a rename carries the name into the crawl definitions and crawls that named it; their crawls are still created', async () => {
  assert.equal((await create({ name: 'gauges', xml: KB('gauges') })).status, 201);
  const icdId = await createIcd('Gauges', 'gauges');
  const otherIcd = await createIcd('Other', 'tides');
  const before = await readIcd(icdId);
  const ended = await createCrawl(icdId);
  s.db.prepare("UPDATE Crawl SET status = 'finished' WHERE id = ?").run(ended.body.id);
  const crawl = await createCrawl(icdId);
  assert.equal(crawl.status, 201);
  assert.equal(crawl.body.knowledgeBaseName, 'gauges');

  const renamed = await rename('gauges', 'tide-gauges');
  assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
  assert.equal(renamed.body.icds, 1);
  assert.equal((await read('gauges')).status, 404);
  assert.equal((await read('tide-gauges')).body.xml, KB('gauges'));

  const after = await readIcd(icdId);
  assert.equal(after.definition.aah.knowledgeBase, 'tide-gauges');
  assert.notEqual(after.updatedAt, before.updatedAt, 'a new version: an editor holding the old one is told before saving the old name back');
  assert.equal((await readIcd(otherIcd)).definition.aah.knowledgeBase, 'tides', 'other ICDs untouched');
  assert.equal(s.db.prepare('SELECT knowledgeBaseName FROM Crawl WHERE id = ?').pluck().get(crawl.body.id), 'tide-gauges');
  assert.equal(s.db.prepare('SELECT knowledgeBaseName FROM Crawl WHERE id = ?').pluck().get(ended.body.id), 'gauges', 'an ended crawl keeps the name it ran with');

  const next = await createCrawl(icdId);
  assert.equal(next.status, 201, JSON.stringify(next.body));
  assert.equal(next.body.knowledgeBaseName, 'tide-gauges');
});

test('a rename to a taken or bad name, of default, or of no knowledge base is refused and changes nothing', async () => {
  assert.equal((await create({ name: 'r1', xml: KB('r1') })).status, 201);
  const icdId = await createIcd('R1', 'r1');
  const taken = await rename('r1', 'tides');
  assert.equal(taken.status, 409);
  assert.match(String(taken.body.error), /“tides” already exists/);
  // At the name field, as when creating: the cockpit shows it there.
  assert.deepEqual(taken.body.issues, [{ path: ['name'], message: 'A knowledge base named “tides” already exists: choose another name' }]);
  assert.equal((await read('tides')).body.xml, KB('tides'));
  assert.equal((await read('r1')).status, 200);
  assert.equal((await readIcd(icdId)).definition.aah.knowledgeBase, 'r1');

  const fromDefault = await rename('default', 'shipped');
  assert.equal(fromDefault.status, 409);
  assert.equal(fromDefault.body.issues, undefined, 'not about the new name');
  assert.match(String(fromDefault.body.error), /cannot be renamed/);
  assert.equal((await read('default')).status, 200);

  assert.equal((await rename('r1', 'bad name')).status, 400);
  assert.equal((await rename('nowhere', 'somewhere')).status, 404);
  const same = await rename('r1', 'r1');
  assert.equal(same.status, 200);
});

test('a delete is refused while a crawl definition names it or a crawl that may still run copied it; default is never deleted', async () => {
  assert.equal((await create({ name: 'doomed', xml: KB('doomed') })).status, 201);
  const icdId = await createIcd('Doomed definition', 'doomed');
  const crawl = await createCrawl(icdId);
  assert.equal(crawl.status, 201);

  const byIcd = await remove('doomed');
  assert.equal(byIcd.status, 409);
  assert.match(String(byIcd.body?.error), /in use, so it was not deleted: the crawl definition “Doomed definition” \(#\d+\) names it; and the crawl “Doomed definition” \(#\d+\), which may still run, uses it\. To delete it, first choose another knowledge base in that crawl definition and let that crawl end$/);

  // The definition now names another: the crawl created from it still may run.
  const { PUT } = await import('../../../app/api/icds/[id]/route');
  const moved = await call(PUT, 'PUT', `/api/icds/${icdId}`, { name: 'Doomed definition', seeds: ['https://a.example.org/'], aah: { enabled: true, knowledgeBase: 'tides' } }, { id: String(icdId) });
  assert.equal(moved.status, 200, JSON.stringify(moved.body));
  const byCrawl = await remove('doomed');
  assert.equal(byCrawl.status, 409);
  assert.match(String(byCrawl.body?.error), /the crawl “Doomed definition” \(#\d+\), which may still run, uses it\./);
  assert.equal((await read('doomed')).status, 200);

  s.db.prepare("UPDATE Crawl SET status = 'finished' WHERE id = ?").run(crawl.body.id);
  assert.equal((await remove('doomed', archivist)).status, 403, 'deleting is the delete permission, as for ICDs');
  assert.equal((await remove('doomed')).status, 204);
  assert.equal((await read('doomed')).status, 404);
  assert.equal((await remove('doomed')).status, 404);

  const byDefault = await remove('default');
  assert.equal(byDefault.status, 409);
  assert.match(String(byDefault.body?.error), /cannot be deleted/);
  assert.equal((await read('default')).status, 200);
});
