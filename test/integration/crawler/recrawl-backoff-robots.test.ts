/**
 * Recrawl rounds and a host in back-off that comes back with a robots.txt refusing all its pages:
 * nothing of it is requested any more, so no answer could end its back-off, and its row stayed for
 * ever (counting its old rounds without an answer should it fail again). It now ends at the first
 * round that finds nothing of the host left to refetch. Real parts: a migrated SQLite database,
 * engines on a shortened minute (the second with robots.txt read afresh), a loopback server closed
 * after the first crawl and opened again on its port.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withCrawl } from '../../support/site-crawl';
import { hostGoingDown } from '../../support/host-going-down';

test('recrawls: the back-off of a host whose pages robots.txt all refuses when it is tried again ends, logged', { timeout: 90_000 }, async () => {
  const site = await hostGoingDown();
  const { origin, close } = site;
  try {
    await withCrawl('tm-recrawl-backoff-robots-', { seeds: [`${origin}/`], name: 'Back-off and robots', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } }, async ({ dir, db, icd, crawlId }) => {
      const engine = (robotsMaxAgeMs?: number) => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 200, robotsMaxAgeMs });
      const until = async (done: () => boolean, what: string) => {
        for (const end = Date.now() + 40_000; !done(); await sleep(10)) assert.ok(Date.now() < end, `timed out waiting for ${what}`);
      };
      const backoffRows = () => db.prepare('SELECT COUNT(*) FROM engine_recrawl_host WHERE crawl_id = ?').pluck().get(crawlId) as number;
      const down = engine();
      let run = down.run();
      await until(() => (db.prepare("SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND status = 200 AND url != ?").pluck().get(crawlId, `${origin}/robots.txt`) as number) === 2, 'the first crawl');
      await close();
      // Round 1 gets no answer: the host waits out its back-off until round 3.
      await until(() => backoffRows() === 1, 'the back-off');
      await down.stop();
      assert.equal(await run, 'stopped');

      // Back, refusing everything; a new engine reads robots.txt afresh (a day later, say): it keeps
      // answers an hour, and the first engine's, kept for a day, are more than that allows
      // (robots-cache.ts restore), so it does not resume with them.
      site.robots = 'User-agent: *\nDisallow: /\n';
      await site.listen();
      const back = engine(3_600_000);
      run = back.run();
      await until(() => back.incremental?.rounds.some((r) => r.round >= 4) ?? false, 'round 4');
      await back.stop();
      assert.equal(await run, 'stopped');

      assert.equal(backoffRows(), 0, 'the back-off ended');
      const host = new URL(origin).host;
      const backoff = db.prepare("SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'recrawl-host-backoff' ORDER BY id").pluck().all(crawlId) as string[];
      assert.equal(backoff.at(-1), `recrawl round 3: nothing of ${host} was requested, robots.txt refusing all its pages; its back-off ends: its pages are recrawled at their own frequency should robots.txt allow them again`);
      const refused = db.prepare("SELECT url FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'robots' ORDER BY id").pluck().all(crawlId) as string[];
      assert.deepEqual(refused, [`${origin}/`, `${origin}/a`], 'each page refused, logged once');
    });
  } finally {
    if (site.listening()) await close();
  }
});
