/**
 * A page whose first answer was cut off mid-body (the server closed the connection after half the
 * declared Content-Length) and which answers whole since. The cut capture is archived, its body
 * only part of the page; its row looked like a whole answer, and the first recrawl round compared
 * the whole body with the cut body's digest: the page "changed" though it had not. The capture now
 * records its WARC-Truncated value, and recrawls start from no known content for such a page: the
 * first whole answer is its first, read for its links, not a change. Real parts: a migrated SQLite
 * database, the engine on a shortened minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { cutBodySite } from '../../support/cut-body-site';

test('a page first cut off mid-body and whole since is not reported changed by the first recrawl round', { timeout: 60_000 }, async () => {
  const { listener: site, requests } = cutBodySite();
  const fields = { name: 'Cut body', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-recrawl-cut-body-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    for (const end = Date.now() + 30_000; !engine.incremental?.rounds.length && Date.now() < end; ) await sleep(5);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const captures = db.prepare('SELECT status, truncated, payloadDigest FROM Capture WHERE crawlId = ? AND url = ? ORDER BY fetchedAt, id').all(crawlId, `${origin}/p`) as { status: number; truncated: string | null; payloadDigest: string }[];
    assert.ok(captures.length >= 2, `the cut visit and round 1: ${JSON.stringify(captures)}`);
    assert.deepEqual([captures[0]!.status, captures[0]!.truncated], [200, 'disconnect'], 'the cut capture says it was cut');
    assert.deepEqual([captures[1]!.status, captures[1]!.truncated], [200, null], 'round 1 got the whole page');
    assert.notEqual(captures[0]!.payloadDigest, captures[1]!.payloadDigest);
    const r1 = engine.incremental!.rounds[0]!;
    assert.equal(r1.round, 1);
    assert.equal(requests.get('/p'), 2, 'the visit and round 1');
    // The old code compared round 1's whole body with the cut one's digest: /p changed.
    assert.deepEqual([r1.fetched, r1.changed], [2, 0], `nothing changed, /p answered whole for the first time: ${JSON.stringify(r1)}`);
    assert.equal(r1.newLinks, 1, 'the whole body\'s link, which the cut one had not, is queued');
  });
});
