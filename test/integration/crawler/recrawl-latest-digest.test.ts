/**
 * A visit–revisit crawl with recrawls: a page changed between its visit and its revisit has two
 * captures of different payload digests. The first recrawl round took the page up with the digest
 * of whichever capture SQLite's `GROUP BY url` picked — the visit's — so the round found the page
 * changed although it answered as at its revisit. It now starts from the latest capture's digest
 * (by fetch time, then id). Real parts: a migrated SQLite database, the engine with a shortened
 * minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { countedSite } from '../../support/counted-site';

test('the first recrawl round compares a page with its latest capture, not an earlier one of another digest', { timeout: 60_000 }, async () => {
  const { listener: site, requests } = countedSite((path, n, _req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
    if (path === '/') return html('<a href="/p">p</a>');
    // Changed once, between the visit and the revisit; the same since.
    if (path === '/p') return html(n === 1 ? '<p>the tide is low</p>' : '<p>the tide is high</p>');
    res.writeHead(404).end();
  });
  const fields = { name: 'Latest digest', coherence: { mode: 'visit-revisit', recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-recrawl-latest-digest-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    for (const end = Date.now() + 30_000; !engine.incremental?.rounds.length && Date.now() < end; ) await sleep(5);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const digests = db.prepare('SELECT payloadDigest FROM Capture WHERE crawlId = ? AND url = ? AND status = 200 ORDER BY fetchedAt, id').pluck().all(crawlId, `${origin}/p`) as string[];
    assert.equal(digests.length >= 3, true, `visit, revisit and round 1: ${digests.join(' ')}`);
    assert.notEqual(digests[0], digests[1], 'the visit and the revisit differ');
    assert.equal(digests[2], digests[1], 'round 1 got what the revisit got');
    const r1 = engine.incremental!.rounds[0]!;
    assert.equal(r1.round, 1);
    assert.equal(requests.get('/p'), 3, 'the visit, the revisit, round 1');
    // The old code compared round 1's answer with the visit's digest: /p changed.
    assert.deepEqual([r1.fetched, r1.changed], [2, 0], `nothing changed since the revisit: ${JSON.stringify(r1)}`);
  });
});
