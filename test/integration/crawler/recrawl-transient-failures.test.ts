/**
 * Recrawl rounds meet a failure that says nothing of the page: a connection cut, a 503, a 429. Such
 * a refetch observes nothing: the page's revisit frequency (fr) stays as it was, the round does not
 * count it as changed, and it is refetched in the next round. Real parts: a migrated SQLite database,
 * the engine on a shortened minute, a loopback site that fails each page's third request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

test('recrawls: a refetch without an answer about the page is no change: fr unchanged, retried in the next round', { timeout: 60_000 }, async () => {
  const { listener: site, requests } = countedSite((path, n, req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/a">a</a> <a href="/b">b</a> <a href="/c">c</a>');
    if (!['/a', '/b', '/c'].includes(path)) return void res.writeHead(404).end();
    // Requests: 1 the visit, 2 round 1, 3 round 3 (the pages are not due in round 2): it fails.
    if (n === 3) {
      if (path === '/a') return void req.socket.destroy();
      return void res.writeHead(path === '/b' ? 503 : 429, { 'content-type': 'text/html' }).end(`<p>try later ${Date.now()}</p>`);
    }
    html(`<p>the stable page ${path}</p>`);
  });
  await withSiteCrawl('tm-recrawl-transient-', site, { name: 'Recrawl transient failures', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    const rounds = () => engine.incremental?.rounds ?? [];
    for (const end = Date.now() + 40_000; rounds().length < 6 && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    assert.ok(rounds().length >= 6, `six rounds ran (${rounds().length})`);
    const [r1, , r3, r4] = rounds();
    assert.deepEqual([r1!.due, r1!.fetched, r1!.changed], [4, 4, 0], 'round 1: every page refetched, none changed');
    // Round 3: the three failures are neither changes nor observations; / alone was observed.
    assert.deepEqual([r3!.round, r3!.due, r3!.fetched, r3!.changed], [3, 4, 1, 0], 'round 3: only / observed, nothing changed');
    // Round 4: the failed pages are still due (fr 2, last observed in round 1) and refetched; / is not due.
    assert.deepEqual([r4!.round, r4!.due, r4!.fetched, r4!.changed], [4, 3, 3, 0], 'round 4: the failed pages retried');
    // Unchanged in rounds 1 and 4: fr 4 → 2 → 1, next due in round 8. A failure counted as a change
    // (fr back to 4) had them refetched in round 4 and again in round 6.
    for (const path of ['/a', '/b', '/c']) {
      assert.equal(requests.get(path), 4, `${path}: the visit, rounds 1, 3 (failed) and 4 only`);
      const page = db.prepare('SELECT fr, last_round FROM engine_recrawl_page WHERE crawl_id = ? AND url = ?').get(crawlId, origin + path);
      assert.deepEqual(page, { fr: 1, last_round: 4 }, `${path}'s revisit state`);
    }
    // What the servers answered is archived, and the crawl log says the page was not observed.
    const logged = db.prepare("SELECT url, status, outcome, message FROM CrawlLogEntry WHERE crawlId = ? AND message LIKE 'recrawl round 3;%' ORDER BY url").all(crawlId) as { url: string; status: number | null; outcome: string; message: string }[];
    const [cut, ...answered] = logged;
    assert.deepEqual([cut?.url, cut?.status], [`${origin}/a`, null], 'the cut connection is logged, with nothing to archive');
    assert.notEqual(cut!.outcome, 'ok');
    assert.match(cut!.message, /^recrawl round 3; no answer about the page, retried in the next round: ./);
    assert.equal(engine.stats().failedByReason[cut!.outcome], 1, 'counted among the failures by its reason');
    assert.deepEqual(answered, [
      // The 5xx, archived, has its failure as outcome, as a page's 5xx (it was logged ok); a 429 is an answer, as on a first visit.
      { url: `${origin}/b`, status: 503, outcome: 'http-5xx', message: 'recrawl round 3; no answer about the page (http-5xx): retried in the next round' },
      { url: `${origin}/c`, status: 429, outcome: 'ok', message: 'recrawl round 3; no answer about the page (HTTP 429): retried in the next round' },
    ]);
    assert.equal(engine.stats().failedByReason['http-5xx'], 1, 'the 5xx counted among the failures');
  });
});
