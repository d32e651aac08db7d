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
import { until } from '../../support/engine-run';
import { stepWallClock } from '../../support/wall-clock-step';

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

// Found by an exploratory session (time): every host's last request then ended "in the future", and
// the crawl stood still, its pages queued, for as long as the step.
const PAGES = 10;

test('a wall clock set back an hour mid-crawl does not hold the host\'s next pages for that hour', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let putBack: (() => void) | null = null;
  const site: RequestListener = (req, res) => {
    requested.push(req.url ?? '/');
    const n = req.url === '/' ? 0 : Number(/^\/p(\d+)$/.exec(req.url ?? '')?.[1] ?? NaN);
    if (!Number.isInteger(n)) return void res.writeHead(404).end();
    if (n === 2 && !putBack) putBack = stepWallClock(-3_600_000);
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>p${n}</title>${n + 1 < PAGES ? `<a href="/p${n + 1}">next</a>` : ''}`);
  };
  const polite = { enabled: true, respectRobots: false, minDelayMs: 20, maxDelayMs: 20, delayFactor: 0 };
  await withSiteCrawl('tm-clock-step-', site, { name: 'Clock set back', politeness: polite, scope: { maxDepth: 100 } }, async ({ dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    const run = engine.run();
    try {
      await until('every page is fetched', () => requested.length === PAGES);
      assert.equal(await run, 'finished');
    } finally {
      (putBack as (() => void) | null)?.();
      await engine.stop();
    }
    assert.ok(putBack, 'the clock was set back');
    assert.equal(db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ?').pluck().get(crawlId), PAGES);
  });
});
