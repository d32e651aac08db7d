/**
 * A crawl whose stored ICD this version refuses (an earlier version accepted an exclude pattern
 * with a repetition inside a repetition, before de68208): the archivist corrects the refused setting
 * (POST /api/crawls/:id/stored-icd) and the crawl goes on from where it was, with the corrected
 * setting. Before, the worker marked it failed, and nothing could resume it. Real parts: the route
 * handlers over a migrated database (route-database.ts), the worker's CrawlManager, a loopback site.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import type { Services } from '../../../app/lib/server/services';
import { callRoute, routeDatabase, signedInAs, startWorker, type RouteHandler } from '../../support/route-database';
import { startHoldingSite, type HoldingSite } from '../../support/holding-site';
import { until } from '../../support/engine-run';

let s: Services;
let admin = { cookie: '', csrf: '' };
let running: Awaited<ReturnType<typeof startWorker>> | null = null;
let site: HoldingSite | null = null;

before(async () => {
  s = await routeDatabase('tidemark-stored-icd-correct-');
  admin = await signedInAs(s, 'root', 'admin');
});
after(async () => {
  site?.close();
  await running?.stop();
});

const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(admin, handler, method, path, body, params);
const crawlRow = (id: number) => s.db.prepare('SELECT status, desired, error, definition FROM Crawl WHERE id = ?').get(id) as { status: string; desired: string; error: string | null; definition: string };
/** The pattern an earlier version took and this one refuses: it can take exponential time. */
const OLD_PATTERN = '(a+)+$';

test('a paused crawl whose stored ICD is refused is corrected from the cockpit and resumes where it was, with the correction', { timeout: 120_000 }, async () => {
  const { POST: postIcd } = await import('../../../app/api/icds/route');
  const { POST: postCrawl } = await import('../../../app/api/crawls/route');
  const { POST: control } = await import('../../../app/api/crawls/[id]/control/route');
  const { GET: getStored, POST: correct } = await import('../../../app/api/crawls/[id]/stored-icd/route');
  // `/` links to /a and /b; /a waits for the test, so the crawl is paused with /a captured and /b queued.
  site = await startHoldingSite((path) => path === '/a');
  const icd = await call(postIcd, 'POST', '/api/icds', {
    name: 'Notices', seeds: [`${site.origin}/`], scope: { includeFavicon: false }, politeness: { enabled: false, concurrency: 1 }, limits: { maxRetries: 0 }, aah: { enabled: false },
  }, {});
  assert.equal(icd.status, 201, JSON.stringify(icd.body));
  const crawl = await call(postCrawl, 'POST', '/api/crawls', { icdId: icd.body.id }, {});
  assert.equal(crawl.status, 201, JSON.stringify(crawl.body));
  const id = crawl.body.id as number;
  const params = { id: String(id) };
  running = await startWorker(s);
  await site.held;
  assert.equal((await call(control, 'POST', `/api/crawls/${id}/control`, { action: 'pause' }, params)).status, 200);
  await until('the crawl is pausing', () => crawlRow(id).status === 'pausing');
  site.release();
  await until('the crawl is paused', () => crawlRow(id).status === 'paused');
  const captured = s.db.prepare("SELECT url FROM Capture WHERE crawlId = ? AND url NOT LIKE '%/robots.txt' ORDER BY id").pluck().all(id);
  assert.deepEqual(captured, [`${site.origin}/`, `${site.origin}/a`]);
  assert.deepEqual(site.requested, ['/robots.txt', '/', '/a'], 'requested before the pause');

  // Its ICD copy as an earlier version stored it.
  const stored = JSON.parse(crawlRow(id).definition) as { scope: { exclude: string[] } };
  stored.scope.exclude = [OLD_PATTERN];
  const oldDefinition = JSON.stringify(stored);
  s.db.prepare('UPDATE Crawl SET definition = ? WHERE id = ?').run(oldDefinition, id);

  // A plain resume is refused up front, naming the refused field and where to correct it: it was
  // accepted (200), and the worker paused the crawl again at once.
  const resumed = await call(control, 'POST', `/api/crawls/${id}/control`, { action: 'resume' }, params);
  assert.equal(resumed.status, 409, JSON.stringify(resumed.body));
  assert.match(String(resumed.body.error), /^This crawl's definition has settings this version of Tidemark refuses \(an earlier version accepted them\), so it cannot be resumed as it is\. Refused: scope\.exclude\.0: [^\n]*repetition inside a repetition[^\n]*\. Correct scope\.exclude first, on the crawl's page \(Correct the refused settings, then Correct and resume\) or with POST \/api\/crawls\/\d+\/stored-icd\.$/);
  const refusedRow = crawlRow(id);
  assert.deepEqual([refusedRow.status, refusedRow.desired, refusedRow.error], ['paused', 'pause', null], 'nothing changed');
  // The crawl's view says which settings are refused, so the cockpit offers the correction, not Resume.
  const { GET: getCrawlView } = await import('../../../app/api/crawls/[id]/route');
  assert.deepEqual((await call(getCrawlView, 'GET', `/api/crawls/${id}`, undefined, params)).body.refusedSettings, ['scope.exclude']);

  // Its exclusions are listed beside the form, the refused pattern among them (before: 400 "invalid").
  const { GET: getExclusions } = await import('../../../app/api/crawls/[id]/exclusions/route');
  const exclusions = await call(getExclusions, 'GET', `/api/crawls/${id}/exclusions`, undefined, params);
  assert.equal(exclusions.status, 200, JSON.stringify(exclusions.body));
  assert.deepEqual((exclusions.body.patterns as { pattern: string }[]).map((p) => p.pattern), [OLD_PATTERN]);
  // Its reports and relevance chart show what it captured (before: 400 "invalid"); what judges URLs by its settings waits for the correction.
  const { GET: getReport } = await import('../../../app/api/crawls/[id]/report/route');
  const { GET: getRelevance } = await import('../../../app/api/crawls/[id]/relevance/route');
  const { GET: inspect } = await import('../../../app/api/crawls/[id]/inspect/route');
  const { POST: postUrls } = await import('../../../app/api/crawls/[id]/urls/route');
  const report = await call(getReport, 'GET', `/api/crawls/${id}/report`, undefined, params);
  assert.equal(report.status, 200, JSON.stringify(report.body));
  assert.deepEqual((report.body.seeds as { seed: string }[]).map((r) => r.seed), [`${site.origin}/`]);
  assert.equal((await call(getRelevance, 'GET', `/api/crawls/${id}/relevance`, undefined, params)).status, 200);
  for (const judged of [
    await call(inspect, 'GET', `/api/crawls/${id}/inspect?url=${encodeURIComponent(`${site.origin}/b`)}`, undefined, params),
    await call(postUrls, 'POST', `/api/crawls/${id}/urls`, [{ url: `${site.origin}/c`, score: 1 }], params),
  ]) {
    assert.equal(judged.status, 409, JSON.stringify(judged.body));
    assert.match(String(judged.body.error), /refuses \(an earlier version accepted them\): correct them first/);
  }

  const listed = await call(getStored, 'GET', `/api/crawls/${id}/stored-icd`, undefined, params);
  assert.equal(listed.status, 200, JSON.stringify(listed.body));
  const refused = listed.body.refused as { field: string; value: unknown; problems: string[] }[];
  assert.deepEqual(refused.map((r) => [r.field, r.value]), [['scope.exclude', [OLD_PATTERN]]]);
  assert.equal(listed.body.correctable, null);
  assert.deepEqual(listed.body.replacements, []);

  // Only the refused fields, and only with values today's rules take.
  const other = await call(correct, 'POST', `/api/crawls/${id}/stored-icd`, { corrections: { 'scope.exclude': ['/b$'], 'scope.maxDepth': 1 } }, params);
  assert.equal(other.status, 409, JSON.stringify(other.body));
  assert.match(String(other.body.error), /Only the settings this version refuses may be replaced \(scope\.exclude\), not scope\.maxDepth/);
  const still = await call(correct, 'POST', `/api/crawls/${id}/stored-icd`, { corrections: { 'scope.exclude': ['(b+)+$'] } }, params);
  assert.equal(still.status, 400, JSON.stringify(still.body));
  assert.deepEqual((still.body.issues as { path: unknown[] }[]).map((i) => i.path), [['scope', 'exclude', 0]]);
  assert.equal(crawlRow(id).definition, oldDefinition, 'nothing stored of a refused correction');

  const corrected = await call(correct, 'POST', `/api/crawls/${id}/stored-icd`, { corrections: { 'scope.exclude': ['/b$'] }, resume: true }, params);
  assert.equal(corrected.status, 200, JSON.stringify(corrected.body));
  assert.deepEqual(corrected.body.replaced, [{ field: 'scope.exclude', before: [OLD_PATTERN], after: ['/b$'] }]);
  await until('the resumed crawl finished', () => crawlRow(id).status === 'finished');
  // Went on from where it was: nothing fetched twice; /b, queued before, excluded by the corrected pattern.
  assert.deepEqual(site.requested.filter((p) => p !== '/robots.txt'), ['/', '/a']);
  assert.deepEqual(s.db.prepare('SELECT state, reason FROM frontier_url WHERE crawl_id = ? AND url = ?').get(id, `${site.origin}/b`), { state: 4, reason: 'exclude-match' });
  assert.equal(crawlRow(id).error, null);
  assert.deepEqual((JSON.parse(crawlRow(id).definition) as { scope: { exclude: string[] } }).scope.exclude, ['/b$']);

  // The replacement is kept, with the definition the earlier captures were made with.
  const history = s.db.prepare('SELECT source, replacedById, changes, previousDefinition FROM CrawlIcdReplacement WHERE crawlId = ?').all(id) as { source: string; replacedById: number; changes: string; previousDefinition: string }[];
  assert.equal(history.length, 1);
  assert.equal(history[0]!.source, 'cockpit');
  assert.equal(history[0]!.previousDefinition, oldDefinition);
  assert.equal(history[0]!.replacedById, s.db.prepare("SELECT id FROM User WHERE username = 'root'").pluck().get());
  const listedAfter = await call(getStored, 'GET', `/api/crawls/${id}/stored-icd`, undefined, params);
  assert.deepEqual(listedAfter.body.refused, []);
  assert.deepEqual((listedAfter.body.replacements as { changes: unknown }[]).map((r) => r.changes), [[{ field: 'scope.exclude', before: [OLD_PATTERN], after: ['/b$'] }]]);
  // Ended: nothing more to correct.
  assert.equal((await call(correct, 'POST', `/api/crawls/${id}/stored-icd`, { corrections: {} }, params)).status, 409);
});

test('a crawl an earlier version of this one marked failed for its refused settings is corrected and runs', { timeout: 120_000 }, async () => {
  const { GET: getStored, POST: correct } = await import('../../../app/api/crawls/[id]/stored-icd/route');
  site ??= await startHoldingSite(() => false);
  site.release();
  running ??= await startWorker(s);
  const definition = JSON.stringify({ name: 'Old', seeds: [`${site.origin}/`], scope: { exclude: [OLD_PATTERN], includeFavicon: false }, politeness: { enabled: false }, aah: { enabled: false } });
  s.db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Old', ?, datetime('now'), datetime('now'))").run(definition);
  const icdId = s.db.prepare('SELECT max(id) FROM Icd').pluck().get();
  const error = "This crawl's definition has settings this version of Tidemark refuses (an earlier version accepted them), so it cannot run:\n  scope.exclude.0: …";
  const id = Number(s.db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, error, createdAt) VALUES (?, ?, 'Old', 'failed', 'run', ?, datetime('now'))").run(icdId, definition, error).lastInsertRowid);
  // One failed for another reason has ended.
  const otherId = Number(s.db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, error, createdAt) VALUES (?, ?, 'Other', 'failed', 'run', 'disk I/O error', datetime('now'))").run(icdId, definition).lastInsertRowid);
  const listed = await call(getStored, 'GET', `/api/crawls/${id}/stored-icd`, undefined, { id: String(id) });
  assert.equal(listed.body.correctable, null);
  const ended = await call(getStored, 'GET', `/api/crawls/${otherId}/stored-icd`, undefined, { id: String(otherId) });
  assert.equal(ended.body.correctable, 'The crawl is failed: only a paused crawl\'s refused settings can be corrected');
  assert.equal((await call(correct, 'POST', `/api/crawls/${otherId}/stored-icd`, { corrections: { 'scope.exclude': [] } }, { id: String(otherId) })).status, 409);

  const corrected = await call(correct, 'POST', `/api/crawls/${id}/stored-icd`, { corrections: { 'scope.exclude': [] }, resume: true }, { id: String(id) });
  assert.equal(corrected.status, 200, JSON.stringify(corrected.body));
  await until('the corrected crawl finished', () => crawlRow(id).status === 'finished');
  assert.equal(s.db.prepare("SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url NOT LIKE '%/robots.txt'").pluck().get(id), 3);
});
