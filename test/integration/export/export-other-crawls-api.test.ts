/**
 * The export API takes other crawls of the crawl's ICD: GET …/exports/other-crawls lists them, the
 * preview counts a collection over them all, POST …/exports with `otherCrawls` stores them (409 for
 * a crawl of another ICD), and the worker makes one export of both crawls, which the API shows with
 * the crawls it takes. Real parts: the route handlers over a migrated SQLite database, two crawls
 * of a loopback site by the engine into the data folder, the worker's CrawlManager.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { crawlSpoolDir, crawlWarcDir, exportDir } from '../../../worker/store/data-layout';
import { callRoute, routeDatabase, signedInAs, startWorker, type RouteHandler } from '../../support/route-database';
import { insertCrawl, insertLaterCrawl } from '../../support/crawl-rows';
import { testIcd, withSite } from '../../support/site-crawl';
import { editionSite } from '../../support/two-crawls';
import { until } from '../../support/engine-run';

const s = await routeDatabase('tm-export-other-crawls-');
const exportsRoute = await import('../../../app/api/crawls/[id]/exports/route');
const preview = await import('../../../app/api/crawls/[id]/exports/preview/route');
const others = await import('../../../app/api/crawls/[id]/exports/other-crawls/route');
const oneExport = await import('../../../app/api/exports/[id]/route');
let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
after(() => worker?.stop());

test('an export of a crawl takes another crawl of its ICD: listed, previewed, requested and made as one collection', { timeout: 120_000 }, async () => {
  const manager = await signedInAs(s, 'harbour-master', 'manager');
  const { site, setEdition } = editionSite();
  await withSite(site, async (origin) => {
    const icd = testIcd({ name: 'Harbour yearly', seeds: [`${origin}/`], politeness: { enabled: false, concurrency: 1, respectRobots: false }, limits: { maxRetries: 0 } });
    const crawl = async (crawlId: number) => {
      const engine = new CrawlEngine({ crawlId, icd, db: s.db, warcDir: crawlWarcDir(s.env.dataDir, crawlId), spoolDir: crawlSpoolDir(s.env.dataDir, crawlId) });
      assert.equal(await engine.run(), 'finished');
      s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
    };
    const first = insertCrawl(s.db, icd);
    await crawl(first);
    await sleep(1100 - (Date.now() % 1000));
    setEdition(2);
    const later = insertLaterCrawl(s.db, first);
    await crawl(later);
    const elsewhere = insertCrawl(s.db, testIcd({ name: 'Elsewhere', seeds: [`${origin}/`] }));
    s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(elsewhere);
    const p = { id: String(later) };

    const listed = await callRoute(manager, others.GET as RouteHandler<{ id: string }>, 'GET', `/api/crawls/${later}/exports/other-crawls`, undefined, p);
    assert.equal(listed.status, 200);
    const list = listed.body as unknown as { id: number; name: string; status: string; exportRefusal: string | null; finishedAt: string | null }[];
    assert.deepEqual(list.map((c) => [c.id, c.name, c.status, c.exportRefusal]), [[first, 'Harbour yearly', 'finished', null]], 'the other crawl of its ICD, not the other ICD\'s');

    const previewOf = (query: string) => callRoute(manager, preview.GET as RouteHandler<{ id: string }>, 'GET', `/api/crawls/${later}/exports/preview?${query}`, undefined, p);
    const alone = (await previewOf('')).body as { captures: number; bytes: number };
    const firstAlone = (await callRoute(manager, preview.GET as RouteHandler<{ id: string }>, 'GET', `/api/crawls/${first}/exports/preview`, undefined, { id: String(first) })).body as { captures: number; bytes: number };
    const both = await previewOf(`otherCrawls=${first}`);
    assert.equal(both.status, 200);
    assert.deepEqual(both.body, { captures: alone.captures + firstAlone.captures, bytes: alone.bytes + firstAlone.bytes }, 'counted over both crawls');
    assert.ok(alone.captures >= 3, JSON.stringify(alone));
    const wrong = await previewOf(`otherCrawls=${elsewhere}`);
    assert.equal(wrong.status, 400);
    assert.match(JSON.stringify(wrong.body), /another ICD/);

    const post = (body: object) => callRoute(manager, exportsRoute.POST as RouteHandler<{ id: string }>, 'POST', `/api/crawls/${later}/exports`, body, p);
    const refused = await post({ format: 'wacz', otherCrawls: [elsewhere] });
    assert.equal(refused.status, 409);
    assert.match(JSON.stringify(refused.body), /another ICD/);
    const made = await post({ format: 'wacz', otherCrawls: [first] });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    assert.deepEqual(made.body.otherCrawls, [{ id: first, name: 'Harbour yearly' }]);
    const exportId = made.body.id as number;

    worker = await startWorker(s);
    const get = () => callRoute(manager, oneExport.GET as RouteHandler<{ id: string }>, 'GET', `/api/exports/${exportId}`, undefined, { id: String(exportId) });
    await until('the export ends', () => ['done', 'failed'].includes(s.db.prepare('SELECT status FROM Export WHERE id = ?').pluck().get(exportId) as string), 60_000);
    const done = (await get()).body as { status: string; error: string | null; files: { name: string }[]; otherCrawls: unknown };
    assert.equal(done.status, 'done', done.error ?? '');
    assert.deepEqual(done.otherCrawls, [{ id: first, name: 'Harbour yearly' }]);
    const wacz = readFileSync(join(exportDir(s.env.dataDir, exportId), done.files[0]!.name));
    for (const id of [first, later]) assert.ok(wacz.includes(`archive/tidemark-${id}-`), `crawl ${id}'s WARC files in the package`);
    const listOfLater = await callRoute(manager, exportsRoute.GET as RouteHandler<{ id: string }>, 'GET', `/api/crawls/${later}/exports`, undefined, p);
    assert.deepEqual((listOfLater.body as unknown as { otherCrawls: unknown }[])[0]!.otherCrawls, [{ id: first, name: 'Harbour yearly' }]);
  });
});
