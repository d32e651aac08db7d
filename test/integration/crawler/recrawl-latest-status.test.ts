/**
 * A visit–revisit crawl with recrawls: pages that answered 200 at their visit and a 404 or a
 * redirect at their revisit, and the same since. The recrawls took each page up from its last 2xx
 * HTML capture, the visit's, so the first round compared its 404 (or redirect) with the visit's
 * payload and found the page changed although it answered as at its revisit. Each now starts from
 * its latest answer whatever its status, which a round compares by the status. Real parts: a
 * migrated SQLite database, the engine with a shortened minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';
import { runUntil } from '../../support/engine-run';

test('the first recrawl round compares a page that went (404) or moved (301) at its revisit with that answer, not with its visit\'s 200', { timeout: 60_000 }, async () => {
  const { listener: site, requests } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/gone">gone</a> <a href="/moved">moved</a>');
    // A page at its visit; gone, or moved home, from its revisit on.
    if (path === '/gone' && n === 1) return html('<p>the tide is low</p>');
    if (path === '/moved' && n === 1) return html('<p>the tide is high</p>');
    if (path === '/moved') return void res.writeHead(301, { location: '/', 'content-type': 'text/html' }).end('<p>moved</p>');
    res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>');
  });
  const fields = { name: 'Latest status', coherence: { mode: 'visit-revisit', recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-recrawl-latest-status-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    await runUntil(engine, 'the first recrawl round ended', () => (engine.incremental?.rounds.length ?? 0) > 0);
    const statuses = (path: string) => db.prepare('SELECT status FROM Capture WHERE crawlId = ? AND url = ? ORDER BY fetchedAt, id').pluck().all(crawlId, `${origin}${path}`) as number[];
    assert.deepEqual(statuses('/gone').slice(0, 3), [200, 404, 404], 'the visit, the revisit, round 1');
    assert.deepEqual(statuses('/moved').slice(0, 3), [200, 301, 301], 'the visit, the revisit, round 1');
    const r1 = engine.incremental!.rounds[0]!;
    assert.equal(r1.round, 1);
    assert.deepEqual([requests.get('/gone'), requests.get('/moved')], [3, 3], 'each page: the visit, the revisit, round 1');
    // The old code compared round 1's 404 and 301 with the visits' payloads: both changed.
    assert.deepEqual([r1.pages, r1.fetched, r1.changed], [3, 3, 0], `nothing changed since the revisit: ${JSON.stringify(r1)}`);
    const stored = db.prepare('SELECT url, payload_digest FROM engine_recrawl_page WHERE crawl_id = ? AND url != ? ORDER BY url').all(crawlId, `${origin}/`);
    assert.deepEqual(stored, [{ url: `${origin}/gone`, payload_digest: 'status:404' }, { url: `${origin}/moved`, payload_digest: 'status:301' }]);
  });
});
