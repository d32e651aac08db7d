/**
 * Inputs an exploratory session sent to the cockpit that were accepted and then held its thread or
 * failed the crawl: each is refused at its field now. Real parts: the route handlers over a
 * migrated SQLite database (route-database.ts).
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../../app/lib/server/services';
import { callRoute, routeDatabase, signedInAs, type RouteHandler } from '../../support/route-database';

let s: Services;
let admin = { cookie: '', csrf: '' };
before(async () => {
  s = await routeDatabase('tidemark-input-checks-');
  admin = await signedInAs(s, 'root', 'admin');
});

const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(admin, handler, method, path, body, params);
const issuesOf = (body: Record<string, unknown>) => (body.issues as { path: (string | number)[]; message: string }[]).map((i) => [i.path.join('.'), i.message]);
const icd = (fields: Record<string, unknown>) => ({ name: 'Checks', seeds: ['http://site.test/'], aah: { enabled: false }, ...fields });

test('an ICD is refused at the field of each pattern that cannot run or can backtrack for long', async () => {
  const { POST } = await import('../../../app/api/icds/route');
  // The backreference held the cockpit 68 s on a 600-character URL; the 60,000 characters failed the crawl at its start.
  const refused = await call(POST, 'POST', '/api/icds', icd({ scope: { exclude: ['(.*)(.*)(.*)\\1#'], include: ['x'.repeat(60_000)] } }), {});
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  const issues = issuesOf(refused.body);
  assert.deepEqual(issues.map(([path]) => path), ['scope.include.0', 'scope.exclude.0']);
  assert.match(issues[0]![1]!, /^A pattern has at most 5,000 characters/);
  assert.match(issues[1]![1]!, /^A backreference/);
  assert.equal(s.db.prepare('SELECT COUNT(*) FROM Icd').pluck().get(), 0, 'nothing stored');
  // A lookbehind without repetition was refused as exponential: it is safe, and taken.
  assert.equal((await call(POST, 'POST', '/api/icds', icd({ scope: { exclude: ['(?<=a)b'] } }), {})).status, 201);
});

// Accepted (201): the crawl then fetched nothing, its log blaming robots.txt with outcome invalid-url.
test('an ICD is refused at userAgent when no HTTP header can carry it', async () => {
  const { POST } = await import('../../../app/api/icds/route');
  const refused = await call(POST, 'POST', '/api/icds', icd({ name: 'Agent', userAgent: 'a\r\nX-Evil: 1' }), {});
  assert.equal(refused.status, 400, JSON.stringify(refused.body));
  assert.deepEqual(issuesOf(refused.body), [['userAgent', 'Only characters an HTTP header may carry: printable ones (up to ÿ, U+00FF), spaces and tabs, no line breaks or other control characters']]);
  assert.equal(s.db.prepare("SELECT COUNT(*) FROM Icd WHERE name = 'Agent'").pluck().get(), 0);
});

test('a live exclusion, or a test of one, that cannot run is refused at its field before the crawl sees it', async () => {
  const { POST: postIcd } = await import('../../../app/api/icds/route');
  const { POST: postCrawl } = await import('../../../app/api/crawls/route');
  const { GET, POST } = await import('../../../app/api/crawls/[id]/exclusions/route');
  const created = await call(postIcd, 'POST', '/api/icds', icd({ name: 'Live' }), {});
  const crawl = await call(postCrawl, 'POST', '/api/crawls', { icdId: created.body.id }, {});
  assert.equal(crawl.status, 201, JSON.stringify(crawl.body));
  const id = crawl.body.id as number;
  const params = { id: String(id) };
  // Accepted before (201): the worker then failed every page with links as `internal` and emptied the queue.
  const huge = await call(POST, 'POST', `/api/crawls/${id}/exclusions`, { pattern: 'x'.repeat(1_000_000) }, params);
  assert.equal(huge.status, 400);
  assert.deepEqual(issuesOf(huge.body), [['pattern', 'A pattern has at most 5,000 characters (this one has 1,000,000)']]);
  const tested = await call(GET, 'GET', `/api/crawls/${id}/exclusions?test=${encodeURIComponent('(.*)(.*)(.*)\\1#')}`, undefined, params);
  assert.equal(tested.status, 400);
  assert.deepEqual(issuesOf(tested.body).map(([path]) => path), ['test']);
  assert.equal(s.db.prepare('SELECT COUNT(*) FROM CrawlExclusion').pluck().get(), 0);
  assert.deepEqual(JSON.parse(s.db.prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(id) as string).scope?.exclude ?? [], []);
});

test('a knowledge base whose <url> pattern can backtrack exponentially is refused at its line, and the tester runs none of it', async () => {
  const { PUT } = await import('../../../app/api/knowledge-bases/[name]/route');
  const { POST: tester } = await import('../../../app/api/aah/test/route');
  // Saved before, and the tester then held the cockpit 20 s on this URL.
  const xml = '<knowledge-base version="1">\n  <application id="x" name="X" category="forum">\n    <detect><url>(?=(a+)+#)</url></detect>\n  </application>\n</knowledge-base>';
  const saved = await call(PUT, 'PUT', '/api/knowledge-bases/redos', { xml }, { name: 'redos' });
  assert.equal(saved.status, 400);
  const errors = saved.body.errors as { line: number; column: number; message: string }[];
  assert.deepEqual(errors.map((e) => [e.line, e.column]), [[3, 13]]);
  assert.match(errors[0]!.message, /^<url>: this pattern can take exponential time on some URLs/);
  const tried = await call(tester, 'POST', '/api/aah/test', { xml, url: `http://example.org/${'a'.repeat(30)}`, html: '<p>x</p>' }, {});
  assert.equal(tried.status, 200);
  assert.deepEqual([(tried.body.errors as unknown[]).length, tried.body.application], [1, null]);
});
