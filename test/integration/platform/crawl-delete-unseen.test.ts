/**
 * While a deleted crawl's rows are still being deleted (its Crawl row gone, its captures, log,
 * coherence pages, frontier … left for the background batches), no route shows them: each of the
 * crawl's own routes answers as for a crawl that never was, and the routes over several crawls
 * (the crawls list, an export's other crawls, the knowledge-base tester's captured page, another
 * crawl's captures) leave it out; a crawl created meanwhile has none of its rows. To the route
 * handlers as Next calls them, over a real migrated SQLite file; the deletion is held by the
 * server's own CrawlDeletions, which deletes one crawl at a time: it is kept busy on an earlier
 * deletion whose batches wait until the checks are done.
 */
import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { routeDatabase, routeResponse, signedInAs, type RouteHandler } from '../../support/route-database';
import { insertCrawl, insertCrawlRows, insertLaterCrawl, rowsOfCrawl } from '../../support/crawl-rows';
import { testIcd } from '../../support/site-crawl';
import type { Services } from '../../../app/lib/server/services';
import { CrawlDeletions } from '../../../worker/process/crawl-deletion';

let admin = { cookie: '', csrf: '' };
let s: Services;

before(async () => {
  s = await routeDatabase('tidemark-delete-unseen-');
  admin = await signedInAs(s, 'root', 'admin');
});

/** A finished crawl of a new ICD, with `rows` captures and the rest (insertCrawlRows). */
function finishedCrawl(name: string, rows: number): number {
  const id = insertCrawl(s.db, testIcd({ name, seeds: ['http://h0.test/'] }));
  finish(id, rows);
  return id;
}

function finish(crawlId: number, rows: number): void {
  s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  insertCrawlRows(s.db, crawlId, rows);
}

type Handler = RouteHandler<Record<string, string>>;

/** The route modules the test calls, by their folder under app/api (imported once the database is set up). */
const ROUTE_MODULES: Record<string, () => Promise<Record<string, unknown>>> = {
  crawls: () => import('../../../app/api/crawls/route'),
  'crawls/[id]': () => import('../../../app/api/crawls/[id]/route'),
  'crawls/[id]/captures': () => import('../../../app/api/crawls/[id]/captures/route'),
  'crawls/[id]/captures/[captureId]': () => import('../../../app/api/crawls/[id]/captures/[captureId]/route'),
  'crawls/[id]/log': () => import('../../../app/api/crawls/[id]/log/route'),
  'crawls/[id]/log/download': () => import('../../../app/api/crawls/[id]/log/download/route'),
  'crawls/[id]/objects': () => import('../../../app/api/crawls/[id]/objects/route'),
  'crawls/[id]/annotations': () => import('../../../app/api/crawls/[id]/annotations/route'),
  'crawls/[id]/relevance': () => import('../../../app/api/crawls/[id]/relevance/route'),
  'crawls/[id]/report': () => import('../../../app/api/crawls/[id]/report/route'),
  'crawls/[id]/seeds': () => import('../../../app/api/crawls/[id]/seeds/route'),
  'crawls/[id]/throughput': () => import('../../../app/api/crawls/[id]/throughput/route'),
  'crawls/[id]/frontier/top': () => import('../../../app/api/crawls/[id]/frontier/top/route'),
  'crawls/[id]/incremental': () => import('../../../app/api/crawls/[id]/incremental/route'),
  'crawls/[id]/inspect': () => import('../../../app/api/crawls/[id]/inspect/route'),
  'crawls/[id]/exclusions': () => import('../../../app/api/crawls/[id]/exclusions/route'),
  'crawls/[id]/stored-icd': () => import('../../../app/api/crawls/[id]/stored-icd/route'),
  'crawls/[id]/exports': () => import('../../../app/api/crawls/[id]/exports/route'),
  'crawls/[id]/exports/other-crawls': () => import('../../../app/api/crawls/[id]/exports/other-crawls/route'),
  'crawls/[id]/exports/preview': () => import('../../../app/api/crawls/[id]/exports/preview/route'),
  'crawls/[id]/coherence': () => import('../../../app/api/crawls/[id]/coherence/route'),
  'crawls/[id]/coherence/tree': () => import('../../../app/api/crawls/[id]/coherence/tree/route'),
  'crawls/[id]/coherence/page': () => import('../../../app/api/crawls/[id]/coherence/page/route'),
  'crawls/[id]/coherence/graphml': () => import('../../../app/api/crawls/[id]/coherence/graphml/route'),
  'crawls/[id]/coherence/certificate': () => import('../../../app/api/crawls/[id]/coherence/certificate/route'),
  'crawls/[id]/control': () => import('../../../app/api/crawls/[id]/control/route'),
  'crawls/[id]/urls': () => import('../../../app/api/crawls/[id]/urls/route'),
  'aah/test': () => import('../../../app/api/aah/test/route'),
};

async function route(folder: string, method: string): Promise<Handler> {
  const handler = (await ROUTE_MODULES[folder]!())[method];
  assert.equal(typeof handler, 'function', `${method} in app/api/${folder}/route.ts`);
  return handler as Handler;
}

/** The answer of `method` `path` (under /api) with the route's `params`: status and body as text. */
async function ask(handlerPath: string, method: string, path: string, params: Record<string, string>, body?: unknown): Promise<{ status: number; body: string }> {
  const res = await routeResponse(admin, await route(handlerPath, method), method, `/api/${path}`, body, params);
  return { status: res.status, body: res.status === 204 ? '' : await res.text() };
}

/**
 * Holds the server's deletions: deletes `blocker` (a crawl with rows, of a lower id than any crawl
 * the test deletes next) through the route, its batches waiting for release(). Deletions go one
 * crawl at a time, so the next ones wait behind it with all their rows.
 */
async function holdDeletions(blocker: number): Promise<{ release(): Promise<void> }> {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  s.crawlDeletions = new CrawlDeletions({ db: s.db, dataDir: s.env.dataDir, log: (line) => assert.fail(line), between: () => released });
  assert.equal((await ask('crawls/[id]', 'DELETE', `crawls/${blocker}`, { id: String(blocker) })).status, 204);
  return {
    async release() {
      release();
      await s.crawlDeletions.wake();
    },
  };
}

/** Every route of one crawl, as [handler folder, method, path after /api/crawls/:id, body]. */
function crawlRoutes(captureId: number, coherencePageId: number): [string, string, string, unknown?][] {
  const c = 'crawls/[id]';
  return [
    [c, 'GET', ''],
    [`${c}/captures`, 'GET', '/captures?q=p1'],
    [`${c}/captures/[captureId]`, 'GET', `/captures/${captureId}`],
    [`${c}/captures/[captureId]`, 'GET', `/captures/${captureId}?payload=1`],
    [`${c}/log`, 'GET', '/log'],
    [`${c}/log/download`, 'GET', '/log/download'],
    [`${c}/objects`, 'GET', '/objects'],
    [`${c}/annotations`, 'GET', `/annotations?captureId=${captureId}`],
    [`${c}/annotations`, 'POST', '/annotations', { captureId, text: 'seen?' }],
    [`${c}/relevance`, 'GET', '/relevance'],
    [`${c}/report`, 'GET', '/report'],
    [`${c}/seeds`, 'GET', '/seeds'],
    [`${c}/throughput`, 'GET', '/throughput'],
    [`${c}/frontier/top`, 'GET', '/frontier/top'],
    [`${c}/incremental`, 'GET', '/incremental'],
    [`${c}/inspect`, 'GET', `/inspect?url=${encodeURIComponent('http://h1.test/p1')}`],
    [`${c}/exclusions`, 'GET', '/exclusions?test=p1'],
    [`${c}/exclusions`, 'POST', '/exclusions', { pattern: 'p2' }],
    [`${c}/exclusions`, 'DELETE', '/exclusions', { pattern: 'p1' }],
    [`${c}/stored-icd`, 'GET', '/stored-icd'],
    [`${c}/stored-icd`, 'POST', '/stored-icd', { corrections: {} }],
    [`${c}/exports`, 'GET', '/exports'],
    [`${c}/exports`, 'POST', '/exports', { format: 'warc' }],
    [`${c}/exports/other-crawls`, 'GET', '/exports/other-crawls'],
    [`${c}/exports/preview`, 'GET', '/exports/preview'],
    [`${c}/coherence`, 'GET', '/coherence'],
    [`${c}/coherence/tree`, 'GET', '/coherence/tree'],
    [`${c}/coherence/page`, 'GET', `/coherence/page?id=${coherencePageId}`],
    [`${c}/coherence/graphml`, 'GET', '/coherence/graphml'],
    [`${c}/coherence/certificate`, 'GET', '/coherence/certificate'],
    [`${c}/control`, 'POST', '/control', { action: 'resume' }],
    [`${c}/urls`, 'POST', '/urls', [{ url: 'http://h1.test/new', score: 0.5 }]],
    [c, 'DELETE', ''],
  ];
}

test("a crawl being deleted: its routes answer as for a crawl that never was, and no route over several crawls shows its rows", { timeout: 60_000 }, async () => {
  const blocker = finishedCrawl('Blocker', 10);
  const deleted = finishedCrawl('Harbour', 50);
  const sibling = insertLaterCrawl(s.db, deleted);
  finish(sibling, 20);
  const never = sibling + 1_000;
  s.db.prepare("INSERT INTO CrawlExclusion (crawlId, pattern, addedAt) VALUES (?, 'p1', datetime('now'))").run(deleted);
  s.db.prepare("INSERT INTO CoherenceRun (crawlId, referenceTime, startedAt) VALUES (?, datetime('now'), datetime('now'))").run(deleted);
  // An export of the sibling that took the deleted crawl: kept (copies), naming it.
  const exportId = Number(s.db.prepare("INSERT INTO Export (crawlId, status, files) VALUES (?, 'done', '[]')").run(sibling).lastInsertRowid);
  s.db.prepare('INSERT INTO ExportCrawl (exportId, crawlId) VALUES (?, ?)').run(exportId, deleted);
  const captureId = s.db.prepare("SELECT id FROM Capture WHERE crawlId = ? AND url = 'http://h1.test/p1'").pluck().get(deleted) as number;
  const coherencePageId = s.db.prepare('SELECT id FROM CoherencePage WHERE crawlId = ? LIMIT 1').pluck().get(deleted) as number;
  const held = await holdDeletions(blocker);
  const rowsBefore = rowsOfCrawl(s.db, deleted);
  assert.equal((await ask('crawls/[id]', 'DELETE', `crawls/${deleted}`, { id: String(deleted) })).status, 204);
  try {
    // Held: the crawl's row is gone (its deletion's row written), every other row of it still there.
    assert.equal(s.db.prepare('SELECT COUNT(*) FROM Crawl WHERE id = ?').pluck().get(deleted), 0);
    assert.deepEqual(rowsOfCrawl(s.db, deleted), { ...rowsBefore, CrawlDeletion: 1 });

    const unlike: string[] = [];
    for (const [handler, method, path, body] of crawlRoutes(captureId, coherencePageId)) {
      const of = async (id: number) => ask(handler, method, `crawls/${id}${path}`, { id: String(id), captureId: String(captureId) }, body);
      const [answer, neverAnswer] = [await of(deleted), await of(never)];
      assert.equal(neverAnswer.status, 404, `${method} ${path} of a crawl that never was: ${neverAnswer.body}`);
      if (answer.status !== neverAnswer.status || answer.body !== neverAnswer.body) unlike.push(`${method} …${path} → ${answer.status} ${answer.body.slice(0, 200)}`);
    }
    assert.deepEqual(unlike, [], 'routes of the deleted crawl that answered otherwise than for a crawl that never was');

    // The crawls list and its counts.
    const list = JSON.parse((await ask('crawls', 'GET', 'crawls?pageSize=100', {})).body) as { items: { id: number }[]; total: number };
    assert.deepEqual(list.items.map((c) => c.id).sort((a, b) => a - b), [sibling]);
    assert.equal(list.total, 1);
    assert.equal(JSON.parse((await ask('crawls', 'GET', `crawls?q=%23${deleted}`, {})).body).total, 0);
    // Another crawl of its ICD: the export form's other crawls, a preview or an export taking it.
    const sib = { id: String(sibling) };
    const others = JSON.parse((await ask('crawls/[id]/exports/other-crawls', 'GET', `crawls/${sibling}/exports/other-crawls`, sib)).body) as { id: number }[];
    assert.deepEqual(others, []);
    const preview = await ask('crawls/[id]/exports/preview', 'GET', `crawls/${sibling}/exports/preview?otherCrawls=${deleted}`, sib);
    assert.deepEqual([preview.status, JSON.parse(preview.body).error], [400, `Crawl ${deleted} does not exist`]);
    const taking = await ask('crawls/[id]/exports', 'POST', `crawls/${sibling}/exports`, sib, { otherCrawls: [deleted] });
    assert.deepEqual([taking.status, JSON.parse(taking.body).error], [409, `Crawl ${deleted} does not exist`]);
    // The sibling's export that took it names it, without a name.
    const exportsOfSibling = JSON.parse((await ask('crawls/[id]/exports', 'GET', `crawls/${sibling}/exports`, sib)).body) as { id: number; otherCrawls: { id: number; name: string | null }[] }[];
    assert.deepEqual(exportsOfSibling.map((e) => [e.id, e.otherCrawls]), [[exportId, [{ id: deleted, name: null }]]]);
    // Its capture, asked through another crawl: not that crawl's.
    const throughSibling = await ask('crawls/[id]/captures/[captureId]', 'GET', `crawls/${sibling}/captures/${captureId}`, { id: String(sibling), captureId: String(captureId) });
    assert.equal(throughSibling.status, 404);
    const noted = await ask('crawls/[id]/annotations', 'POST', `crawls/${sibling}/annotations`, sib, { captureId, text: 'seen?' });
    assert.equal(noted.status, 404);
    // The knowledge-base tester's page "as captured by crawl N".
    const xml = readFileSync('knowledge-base/default.xml', 'utf8');
    const tested = async (crawlId: number) => ask('aah/test', 'POST', 'aah/test', {}, { xml, url: 'http://h1.test/p1', crawlId });
    const [testedDeleted, testedNever] = [await tested(deleted), await tested(never)];
    assert.deepEqual([testedDeleted.status, JSON.parse(testedDeleted.body).error], [404, `There is no crawl ${deleted}`]);
    assert.deepEqual([testedNever.status, JSON.parse(testedNever.body).error], [404, `There is no crawl ${never}`]);
  } finally {
    await held.release();
  }
  assert.deepEqual(rowsOfCrawl(s.db, deleted), {});
  assert.ok(Object.keys(rowsOfCrawl(s.db, sibling)).length > 0);
});

test("a crawl created while the newest crawl is being deleted has a new id and none of the deleted crawl's rows", { timeout: 60_000 }, async () => {
  const blocker = finishedCrawl('Blocker', 10);
  const newest = finishedCrawl('Harbour', 50);
  const icdId = s.db.prepare('SELECT icdId FROM Crawl WHERE id = ?').pluck().get(newest) as number;
  const held = await holdDeletions(blocker);
  assert.equal((await ask('crawls/[id]', 'DELETE', `crawls/${newest}`, { id: String(newest) })).status, 204);
  let created: number;
  try {
    assert.ok(rowsOfCrawl(s.db, newest).Capture! > 0);
    const answer = await ask('crawls', 'POST', 'crawls', {}, { icdId });
    assert.equal(answer.status, 201, answer.body);
    created = (JSON.parse(answer.body) as { id: number }).id;
    // The largest id was the deleted crawl's: a table without AUTOINCREMENT would give it again.
    assert.ok(created > newest, `new crawl ${created} after deleted crawl ${newest}`);
    assert.deepEqual(rowsOfCrawl(s.db, created), {});
    const captures = JSON.parse((await ask('crawls/[id]/captures', 'GET', `crawls/${created}/captures`, { id: String(created) })).body) as { total: number };
    assert.equal(captures.total, 0);
  } finally {
    await held.release();
  }
  // The deletion took the deleted crawl's rows only.
  assert.deepEqual(rowsOfCrawl(s.db, newest), {});
  assert.equal(s.db.prepare('SELECT COUNT(*) FROM Crawl WHERE id = ?').pluck().get(created), 1);
});
