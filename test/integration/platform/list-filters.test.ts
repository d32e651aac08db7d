/**
 * The `q` filters of the crawl lists (captures, crawl log, Web objects), through the route handlers
 * as Next calls them, over a real migrated SQLite database: the text is found as written.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { routeDatabase, signedInAs } from '../../support/route-database';

const ORIGIN = 'http://cockpit.test';
let cookie = '';
let crawlId = 0;

const URLS = ['http://a.test/100%25-sure', 'http://a.test/a_b', 'http://a.test/axb', 'http://a.test/About', 'http://a.test/plain', 'http://a.test/back\\slash'];

before(async () => {
  const services = await routeDatabase('tidemark-list-filters-');
  const { db } = services;
  cookie = (await signedInAs(services, 'viewer', 'curator')).cookie;
  const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Quay', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
  crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', 'Quay', 'finished', 'run', datetime('now'))").run(icdId).lastInsertRowid);
  const at = '2026-11-28T10:00:00.000+00:00';
  for (const [i, url] of URLS.entries()) {
    const captureId = db
      .prepare("INSERT INTO Capture (crawlId, url, status, mime, size, recordType, warcFile, warcOffset, warcLength, score, similarity, fetchedAt, durationMs) VALUES (?, ?, 200, 'text/html', 10, 'response', 'f.warc.gz', ?, 10, ?, ?, ?, 1)")
      .run(crawlId, url, i * 10, i / 10, i % 2 ? i / 10 : null, at).lastInsertRowid;
    db.prepare("INSERT INTO CrawlLogEntry (crawlId, url, status, outcome, at) VALUES (?, ?, 200, 'ok', ?)").run(crawlId, url, at);
    db.prepare("INSERT INTO WebObject (crawlId, captureId, url, host, type, application, rule, fields, createdAt) VALUES (?, ?, ?, 'a.test', 'post', 'app', 'r', ?, ?)").run(crawlId, captureId, url, JSON.stringify({ title: `Post ${i}` }), at);
  }
  // An object of a page on an internationalised host, stored as its URL's host: punycode, with its port.
  db.prepare("INSERT INTO WebObject (crawlId, captureId, url, host, type, application, rule, fields, createdAt) VALUES (?, 1, ?, ?, 'post', 'app', 'r', '{}', ?)").run(crawlId, 'http://xn--bcher-kva.test:8080/buch', 'xn--bcher-kva.test:8080', at);
});

// Found by an exploratory session (international names): the host filter compared what was typed with
// the stored host as it is, so `bücher.test:8080` (as the page shows it to a reader), `BÜCHER.test:8080`
// or the page's URL pasted found none of the host's objects.
test('the Web objects\' host filter takes a host in its script, in capitals, in punycode or pasted as a URL', async () => {
  for (const host of ['bücher.test:8080', 'BÜCHER.test:8080', 'xn--bcher-kva.test:8080', 'http://bücher.test:8080/buch', 'bücher.test.:8080']) {
    assert.deepEqual(await urlsOf('objects', `host=${encodeURIComponent(host)}`), ['http://xn--bcher-kva.test:8080/buch'], host);
  }
  assert.equal((await urlsOf('objects', 'host=A.TEST')).length, URLS.length, 'an ASCII host in capitals');
  assert.deepEqual(await urlsOf('objects', 'host=b%C3%BCcher.test'), [], 'without its port, another host');
});

const get = (path: string) => new Request(`${ORIGIN}${path}`, { headers: { host: 'cockpit.test', cookie } });
type Ctx = { params: Promise<{ id: string }> };

// Literal paths, which a bundler can follow (`[id]` in a template would read as a glob).
const routes = {
  captures: () => import('../../../app/api/crawls/[id]/captures/route'),
  log: () => import('../../../app/api/crawls/[id]/log/route'),
  objects: () => import('../../../app/api/crawls/[id]/objects/route'),
};

async function urlsOf(list: keyof typeof routes, query: string): Promise<string[]> {
  const route = (await routes[list]()) as { GET: (req: Request, ctx: Ctx) => Promise<Response> };
  const res = await route.GET(get(`/api/crawls/${crawlId}/${list}?${query}`), { params: Promise.resolve({ id: String(crawlId) }) });
  assert.equal(res.status, 200, `${list}?${query}: ${await res.clone().text()}`);
  const body = (await res.json()) as { items: { url: string }[]; total: number };
  assert.equal(body.total, body.items.length, `${list}?${query}: one page holds them all`);
  return body.items.map((i) => i.url).sort();
}

test('% and _ in q are the characters themselves, not LIKE wildcards, in every list', async () => {
  for (const list of ['captures', 'log', 'objects'] as const) {
    assert.deepEqual(await urlsOf(list, `q=${encodeURIComponent('%')}`), ['http://a.test/100%25-sure'], `${list}: %`);
    assert.deepEqual(await urlsOf(list, `q=${encodeURIComponent('_')}`), ['http://a.test/a_b'], `${list}: _`);
    assert.deepEqual(await urlsOf(list, `q=${encodeURIComponent('a_b')}`), ['http://a.test/a_b'], `${list}: a_b is not axb`);
    assert.deepEqual(await urlsOf(list, `q=${encodeURIComponent('\\')}`), ['http://a.test/back\\slash'], `${list}: backslash`);
    assert.deepEqual(await urlsOf(list, `q=${encodeURIComponent('\u0000')}`), [], `${list}: NUL matches no URL`);
    assert.deepEqual(await urlsOf(list, `q=${encodeURIComponent("'")}`), [], `${list}: a quote`);
  }
});

test('q still ignores the case of ASCII letters, as before, and combines with the other filters and the order', async () => {
  for (const list of ['captures', 'log', 'objects'] as const) assert.deepEqual(await urlsOf(list, 'q=ABOUT'), ['http://a.test/About'], list);
  assert.deepEqual(await urlsOf('objects', 'q=post%203'), ['http://a.test/About'], 'objects: q searches the fields too');
  assert.deepEqual(await urlsOf('objects', 'q=a.test&type=comment'), []);
  assert.deepEqual(await urlsOf('log', 'q=a.test&outcome=robots'), []);
  const route = await import('../../../app/api/crawls/[id]/captures/route');
  const res = await route.GET(get(`/api/crawls/${crawlId}/captures?q=a.test&sort=similarity&pageSize=2`), { params: Promise.resolve({ id: String(crawlId) }) });
  const body = (await res.json()) as { items: { url: string; similarity: number }[]; total: number };
  assert.equal(body.total, 3, 'only the pages compared with the topic');
  assert.deepEqual(body.items.map((i) => i.similarity), [0.5, 0.3]);
  const pinned = await route.GET(get(`/api/crawls/${crawlId}/captures?q=a.test&upTo=3&pageSize=2&page=2`), { params: Promise.resolve({ id: String(crawlId) }) });
  const pinnedBody = (await pinned.json()) as { items: { id: number }[]; total: number; newer: number };
  assert.deepEqual([pinnedBody.items.map((i) => i.id), pinnedBody.total, pinnedBody.newer], [[1], 3, 3]);
});
