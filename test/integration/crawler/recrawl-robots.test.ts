/**
 * Recrawl rounds refetch pages for as long as a crawl runs (weeks), and robots.txt is read again
 * each day: a page it has come to disallow is not refetched (rounds did not ask it). Real parts: a
 * migrated SQLite database, the engine on a shortened minute and robots.txt age, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { robotsSite } from '../../support/robots-site';

test('a recrawl round does not refetch a page robots.txt has come to disallow', { timeout: 60_000 }, async () => {
  const site = robotsSite({ body: (path) => `<p>${path} ${Date.now()}</p>` });
  const { requested } = site;
  await withSiteCrawl('tm-recrawl-robots-', site.listener, { name: 'Recrawl and robots', coherence: { recrawlIntervalMinutes: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, robotsMaxAgeMs: 200 });
    const run = engine.run();
    const captured = (url: string) => (db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, url) as number) > 0;
    for (const end = Date.now() + 20_000; !captured(`${origin}/b`) && Date.now() < end; ) await sleep(20);
    assert.ok(captured(`${origin}/b`), 'the visit captured /b');
    // The site now disallows /b; rounds start after this.
    site.robots = 'User-agent: *\nDisallow: /b\n';
    const from = requested.length;
    const rounds = () => engine.incremental?.rounds.length ?? 0;
    const before = rounds();
    for (const end = Date.now() + 30_000; rounds() < before + 2 && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const later = requested.slice(from);
    assert.ok(rounds() >= before + 2 && later.includes('/a'), `two rounds refetched the pages: ${later.join(' ')}`);
    assert.ok(later.includes('/robots.txt'), 'robots.txt was read again');
    assert.deepEqual(later.filter((p) => p === '/b'), [], `/b was not refetched: ${later.join(' ')}`);
  });
});
