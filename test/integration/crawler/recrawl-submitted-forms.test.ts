/**
 * A recrawled page that changed has its new links planned as a first visit's are, resolved with the
 * same settings: with scope.submitGetForms, a GET form it gained is the URL a browser submits, as
 * the main crawl takes it, not its bare action. Found by a differential exploration (the recrawl's
 * link extraction was given the query handling alone). Real parts: the engine on a short minute, a
 * migrated SQLite database, a loopback site whose home page gains a form once captured.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { RequestListener } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('with submitGetForms, a form a recrawled page gained is the URL a browser submits, as on a first visit', { timeout: 60_000 }, async () => {
  let changed = false;
  const site: RequestListener = (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(404).end();
    const form = changed ? '<form action="/search"><input name="q" value="tide"></form>' : '';
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title><p>Tides</p>${form}`);
  };
  const fields = { name: 'Recrawl forms', scope: { submitGetForms: true }, coherence: { recrawlIntervalMinutes: 1 } };
  await withSiteCrawl('tm-recrawl-forms-', site, fields, async ({ dir, db, icd, crawlId, origin }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    const captures = (path: string) => db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, `${origin}${path}`) as number;
    for (const end = Date.now() + 20_000; captures('/') === 0 && Date.now() < end; ) await sleep(20);
    changed = true;
    for (const end = Date.now() + 30_000; captures('/search?q=tide') + captures('/search') === 0 && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    assert.ok(captures('/') >= 2, 'the home page was recrawled');
    assert.deepEqual([captures('/search?q=tide'), captures('/search')], [1, 0], 'the submitted URL, not the bare action');
  });
});
