/**
 * A crawl with feeds and recrawls runs for weeks, and the machine's clock may be set back (it ran
 * ahead, NTP steps it right): polls and rounds go on from the new time rather than waiting for the
 * clock to come back to the old one. Date.now runs a day ahead, then is set right; the timers are
 * Node's own. Real parts: a migrated SQLite database, the engine on a shortened minute, a loopback site.
 */
import { test, mock } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('feed polls and recrawl rounds go on after the clock is set back a day', { timeout: 60_000 }, async () => {
  const realNow = Date.now.bind(Date);
  let ahead = 24 * 3_600_000;
  mock.method(Date, 'now', () => realNow() + ahead);
  const requested: string[] = [];
  let origin = '';
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${realNow()}</p>`);
    if (path === '/feed.xml') {
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title><item><title>A</title><link>${origin}/</link></item></channel></rss>`);
    }
    res.writeHead(404).end();
  };
  const fields = (o: string) => ({ name: 'Clock set back', coherence: { recrawlIntervalMinutes: 1, feeds: [`${o}/feed.xml`], minFeedPollMinutes: 1 } });
  try {
    await withSiteCrawl('tm-clock-back-', site, fields, async ({ origin: o, dir, db, icd, crawlId }) => {
      origin = o;
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
      const run = engine.run();
      const rounds = () => engine.incremental?.rounds.length ?? 0;
      for (const end = realNow() + 20_000; rounds() < 1 && realNow() < end; ) await sleep(20);
      assert.equal(rounds(), 1, 'a round ran on the clock that was ahead');
      ahead = 0;
      const polls = () => requested.filter((p) => p === '/feed.xml').length;
      const [pollsBefore, roundsBefore] = [polls(), rounds()];
      for (const end = realNow() + 5_000; (polls() < pollsBefore + 2 || rounds() < roundsBefore + 2) && realNow() < end; ) await sleep(20);
      const [pollsAfter, roundsAfter] = [polls() - pollsBefore, rounds() - roundsBefore];
      await engine.stop();
      assert.equal(await run, 'stopped');
      assert.ok(pollsAfter >= 2, `the feed was polled after the clock was set back (${pollsAfter} polls in 5 s)`);
      assert.ok(roundsAfter >= 2, `recrawl rounds ran after the clock was set back (${roundsAfter} in 5 s)`);
    });
  } finally {
    mock.restoreAll();
  }
});
