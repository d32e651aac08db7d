/**
 * The first recrawl round asks with the validators of each page's stored capture. syncPages took a
 * page into the rounds without its capture's ETag and Last-Modified, so round 1 downloaded every page
 * whole and only later rounds made conditional GETs; it now reads them from the capture's WARC record.
 * Real parts: a migrated SQLite database, the engine on a shortened minute, a loopback site that
 * records the validators each request sent, the WARC files written.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

const LAST_MODIFIED = 'Mon, 01 Jan 2024 00:00:00 GMT';

test('the first recrawl round sends the ETag and Last-Modified of the stored capture, and its 304 counts the page unchanged', { timeout: 60_000 }, async () => {
  const sent = new Map<string, string[]>();
  const { listener: site } = countedSite((path, _n, req, res) => {
    const inm = req.headers['if-none-match'];
    const ims = req.headers['if-modified-since'];
    sent.set(path, [...(sent.get(path) ?? []), `${inm ?? '-'} ${ims ?? '-'}`]);
    const html = (body: string, headers: Record<string, string>) => void res.writeHead(200, { 'content-type': 'text/html', ...headers }).end(body);
    if (path === '/') return html('<a href="/etag">e</a> <a href="/lm">l</a>', {});
    if (path === '/etag') return inm === '"static-v1"' ? void res.writeHead(304, { etag: '"static-v1"' }).end() : html('<p>etag</p>', { etag: '"static-v1"' });
    if (path === '/lm') return ims === LAST_MODIFIED ? void res.writeHead(304).end() : html('<p>lm</p>', { 'last-modified': LAST_MODIFIED });
    res.writeHead(404).end();
  });
  const fields = { name: 'First round conditional', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-recrawl-first-conditional-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    for (const end = Date.now() + 40_000; (engine.incremental?.rounds.length ?? 0) < 1 && Date.now() < end; ) await sleep(5);
    await engine.stop();
    assert.equal(await run, 'stopped');
    assert.equal(sent.get('/etag')?.[1], '"static-v1" -', `round 1's refetch of /etag sent its ETag: ${JSON.stringify(sent.get('/etag'))}`);
    assert.equal(sent.get('/lm')?.[1], `- ${LAST_MODIFIED}`, `round 1's refetch of /lm sent its Last-Modified: ${JSON.stringify(sent.get('/lm'))}`);
    const second = (url: string) => db.prepare('SELECT status, recordType FROM Capture WHERE crawlId = ? AND url = ? ORDER BY id LIMIT 1 OFFSET 1').get(crawlId, url);
    assert.deepEqual(second(`${origin}/etag`), { status: 304, recordType: 'revisit' });
    assert.deepEqual(second(`${origin}/lm`), { status: 304, recordType: 'revisit' });
    assert.equal(engine.incremental?.rounds[0]?.changed, 0);
  });
});
