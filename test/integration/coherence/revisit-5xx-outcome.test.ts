/**
 * A revisit answered by a server error after the fetch's retries — whole, or its body cut off after
 * the 5xx status — is archived, and its crawl-log entry has the fetch's failure as outcome
 * (`http-5xx`, or the cut connection's reason), counted among the crawl's failures, as a page's
 * 5xx is (commitItem); it was logged `ok`. Live and restored counters agree. Real parts: a migrated
 * SQLite database, the engine, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

test('a revisit answered by a 5xx, whole or cut off, is logged with the failure as outcome, not ok', { timeout: 60_000 }, async () => {
  const { listener: site } = countedSite((path, n, req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/busy">busy</a> <a href="/cut">cut</a>');
    if (!['/busy', '/cut'].includes(path)) return void res.writeHead(404).end();
    if (n === 1) return html(`<p>the page ${path}</p>`);
    if (path === '/busy') return void res.writeHead(503, { 'content-type': 'text/html' }).end('<p>try later</p>');
    // A 503 whose body stops after a few of its announced bytes.
    res.writeHead(503, { 'content-type': 'text/html', 'content-length': '1000' });
    res.write('<p>try', () => setTimeout(() => req.socket.destroy(), 20));
  });
  const fields = { name: 'Revisit 5xx outcome', coherence: { mode: 'visit-revisit' }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-revisit-5xx-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    const revisit = (path: string) => db.prepare("SELECT status, outcome, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? AND message LIKE 'coherence revisit%'").all(crawlId, origin + path) as { status: number; outcome: string; message: string }[];
    assert.deepEqual(revisit('/busy'), [{ status: 503, outcome: 'http-5xx', message: 'coherence revisit; no answer about the page: HTTP 503' }]);
    const [cut, ...more] = revisit('/cut');
    assert.equal(more.length, 0, 'one entry for the cut revisit');
    assert.equal(cut!.status, 503, 'what was received is archived');
    assert.notEqual(cut!.outcome, 'ok', `the cut answer is logged as a failure: ${JSON.stringify(cut)}`);
    assert.match(cut!.message, /^coherence revisit; no answer about the page: ./);
    const stats = engine.stats();
    assert.equal(stats.failedByReason['http-5xx'], 1);
    assert.equal(stats.failedByReason[cut!.outcome], 1);
    for (const path of ['/busy', '/cut']) {
      const page = db.prepare('SELECT status, evidence FROM CoherencePage WHERE crawlId = ? AND url = ?').get(crawlId, origin + path);
      assert.deepEqual(page, { status: 'missing', evidence: 'unreachable' }, path);
    }
    // A resumed crawl counts them again from the crawl log: the same figures.
    const restored = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await restored.run(), 'finished');
    assert.deepEqual(restored.stats().failedByReason, stats.failedByReason);
  });
});
