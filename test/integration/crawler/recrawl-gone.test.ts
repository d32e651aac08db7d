/**
 * Recrawl rounds meet pages that went away or moved: a page gone for good is one change (it
 * disappeared), not one change every round; a page that moved gives its new address to the crawl.
 * Real parts: a migrated SQLite database, the engine on a shortened minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('recrawls: a page gone for good is fetched less and less often; a moved page gives its new address', { timeout: 60_000 }, async () => {
  let visited = false;
  const requested: string[] = [];
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/gone">gone</a> <a href="/moved">moved</a> <a href="/stable">stable</a>');
    // After the visit: /gone answers 410 with a page that says when, /moved redirects.
    if (path === '/gone') return visited ? void res.writeHead(410, { 'content-type': 'text/html' }).end(`<p>Gone since ${Date.now()}</p>`) : html('<p>soon gone</p>');
    if (path === '/moved') return visited ? void res.writeHead(301, { location: '/new-home' }).end() : html('<p>soon moved</p>');
    if (path === '/stable') return html('<p>stable</p>');
    if (path === '/new-home') return html('<p>the new home</p>');
    res.writeHead(404).end();
  };
  await withSiteCrawl('tm-recrawl-gone-', site, { name: 'Recrawl gone pages', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    const captured = (url: string) => (db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, url) as number) > 0;
    for (const end = Date.now() + 20_000; !['/gone', '/moved', '/stable'].every((p) => captured(origin + p)) && Date.now() < end; ) await sleep(20);
    visited = true;
    const rounds = () => engine.incremental?.rounds ?? [];
    for (const end = Date.now() + 30_000; rounds().length < 4 && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    assert.ok(rounds().length >= 4, 'four rounds ran');
    // Rounds 1 (410: a change), 2 (410 again: no change, so fr halves), then not before round 4.
    const gone = requested.filter((p) => p === '/gone').length - 1;
    assert.equal(gone, Math.min(3, rounds().length - 1), `/gone refetched in rounds 1, 2 and 4 only (${gone} times in ${rounds().length} rounds)`);
    assert.ok(captured(`${origin}/new-home`), `the moved page's new address was crawled: ${requested.join(' ')}`);
  });
});
