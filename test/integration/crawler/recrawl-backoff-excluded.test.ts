/**
 * Recrawl rounds and a host in back-off whose pages an exclude pattern added while the crawl runs
 * all match: they leave the recrawls, nothing of the host is requested any more, so no answer could
 * end its back-off, and its row stayed for ever. It now ends at the round that leaves the host no
 * page to refetch, logged. Real parts: a migrated SQLite database, the engine on a shortened minute,
 * a loopback server closed after the first crawl.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { addLiveExclusion } from '../../../worker/process/crawl-requests';
import { until } from '../../support/engine-run';
import { withCrawl } from '../../support/site-crawl';
import { hostGoingDown } from '../../support/host-going-down';

test('recrawls: the back-off of a host whose pages an exclude pattern added meanwhile all match ends, logged', { timeout: 90_000 }, async () => {
  const site = await hostGoingDown();
  const { origin, close } = site;
  try {
    await withCrawl('tm-recrawl-backoff-excluded-', { seeds: [`${origin}/`], name: 'Back-off and exclusions', coherence: { recrawlIntervalMinutes: 1 }, limits: { maxRetries: 0 } }, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 200 });
      const backoffRows = () => db.prepare('SELECT COUNT(*) FROM engine_recrawl_host WHERE crawl_id = ?').pluck().get(crawlId) as number;
      const run = engine.run();
      try {
        await until('the first crawl', () => (db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND status = 200 AND url != ?').pluck().get(crawlId, `${origin}/robots.txt`) as number) === 2, 40_000);
        await close();
        // Round 1 gets no answer: the host waits out its back-off until round 3.
        await until('the back-off', () => backoffRows() === 1, 40_000);
        const backoffRound = engine.incremental!.rounds.at(-1)!.round;
        assert.ok('done' in (addLiveExclusion(db, crawlId, '/(a)?$', null) as object));
        // Two more rounds, and the pattern taken up: the engine reads live exclusions on a clock of its
        // own, which a loaded machine (CI) can put past two rounds of this test's 200 ms minute.
        const pagesLeft = () => db.prepare('SELECT COUNT(*) FROM engine_recrawl_page WHERE crawl_id = ?').pluck().get(crawlId) as number;
        await until('two more rounds, without the pages', () => engine.incremental!.rounds.some((r) => r.round >= backoffRound + 2) && pagesLeft() === 0 && backoffRows() === 0, 40_000);
      } finally {
        await engine.stop();
        await run;
      }

      assert.equal(db.prepare('SELECT COUNT(*) FROM engine_recrawl_page WHERE crawl_id = ?').pluck().get(crawlId), 0, 'both pages left the recrawls');
      assert.equal(backoffRows(), 0, 'the back-off ended');
      const host = new URL(origin).host;
      const backoff = db.prepare("SELECT url, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'recrawl-host-backoff' ORDER BY id").all(crawlId) as { url: string; message: string }[];
      assert.match(backoff.at(-1)!.message, new RegExp(`^recrawl round \\d+: no page of ${host.replace(/\./g, '\\.')} is left to recrawl, exclude patterns of the crawl matching them all; its back-off ends$`));
      assert.ok([`${origin}/`, `${origin}/a`].includes(backoff.at(-1)!.url), 'logged at one of its pages');
    });
  } finally {
    if (site.listening()) await close();
  }
});
