/**
 * A recrawl round's capture of a changed page has the page's title, as the visit's and a
 * revisit's have: the captures list showed none for it, and a WACZ listed its page untitled.
 * Real parts: a migrated SQLite database, the engine, a loopback site whose page changes each fetch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';
import { until } from '../../support/engine-run';

test('a recrawl round stores the title of the page it found changed', { timeout: 60_000 }, async () => {
  const { listener: site } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<title>Harbour</title><a href="/tides">tides</a>');
    if (path === '/tides') return html(`<title>Tide table, edition ${n}</title><p>High water at ${n}:00.</p>`);
    res.writeHead(404).end();
  });
  const fields = { name: 'Recrawl titles', politeness: { enabled: false, respectRobots: false }, coherence: { recrawlIntervalMinutes: 1 } };
  await withSiteCrawl('tm-recrawl-titles-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    await until('round 1 has ended', () => (engine.incremental?.rounds.length ?? 0) >= 1);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const titles = db.prepare("SELECT title FROM Capture WHERE crawlId = ? AND url = ? AND recordType = 'response' ORDER BY id").pluck().all(crawlId, `${origin}/tides`) as (string | null)[];
    assert.ok(titles.length >= 2, `the visit and round 1's capture: ${JSON.stringify(titles)}`);
    assert.deepEqual(titles.slice(0, 2), ['Tide table, edition 1', 'Tide table, edition 2']);
  });
});
