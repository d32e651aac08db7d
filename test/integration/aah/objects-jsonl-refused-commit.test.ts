/**
 * A page whose commit the database refuses (here its Web objects' rows) is not acknowledged: the
 * crawl pauses, and the resumed crawl fetches the page again. Its objects must reach objects.jsonl
 * once, from the commit that stood; they were appended whatever became of the commit, so the file
 * held them twice. The failure is real SQLite's (a trigger); real parts: a migrated database, the
 * engine, a loopback site, a knowledge base.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';
import { NEWSROOM_KB_XML as KB_XML } from '../../support/newsroom-kb';

test('objects.jsonl gets the objects of a page whose commit was refused once, from the commit of its refetch', { timeout: 60_000 }, async () => {
  const { listener: site, requests } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/story">story</a>');
    if (path === '/story') return html(`<html data-app="newsroom"><body><section class="story"><h2>Story, fetch ${n}</h2></section></body></html>`);
    res.writeHead(404).end();
  });
  const fields = { name: 'Objects of a refused commit', aah: { enabled: true }, politeness: { enabled: false, respectRobots: false } };
  await withSiteCrawl('tm-objects-refused-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const story = `${origin}/story`;
    const objectsJsonl = join(dir, 'objects.jsonl');
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), knowledgeBase: { name: 'newsroom', xml: KB_XML }, objectsJsonlPath: objectsJsonl });
    const jsonlTitles = () => (existsSync(objectsJsonl) ? readFileSync(objectsJsonl, 'utf8').split('\n').filter(Boolean) : [])
      .map((line) => JSON.parse(line) as { url: string; fields: { title: string } }).filter((o) => o.url === story).map((o) => o.fields.title);

    db.exec(`CREATE TRIGGER refuse_objects BEFORE INSERT ON WebObject WHEN NEW.url = '${story}' BEGIN SELECT RAISE(ABORT, 'refused by the test'); END`);
    const first = engine();
    assert.equal(await first.run(), 'paused', 'the refused commit pauses the crawl');
    assert.equal(requests.get('/story'), 1);
    assert.deepEqual(jsonlTitles(), [], 'nothing of the refused commit in objects.jsonl');

    db.exec('DROP TRIGGER refuse_objects');
    assert.equal(await engine().run(), 'finished');
    assert.equal(requests.get('/story'), 2, 'fetched again when resumed');
    const stored = db.prepare("SELECT json_extract(fields, '$.title') FROM WebObject WHERE crawlId = ? AND url = ?").pluck().all(crawlId, story);
    assert.deepEqual(stored, ['Story, fetch 2']);
    assert.deepEqual(jsonlTitles(), stored, 'objects.jsonl holds the stored object, once');
  });
});
