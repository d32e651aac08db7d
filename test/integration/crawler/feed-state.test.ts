/**
 * A feed's state outlives the run that polled it: a paused and resumed crawl, or a worker
 * restarted again and again, keeps the feed's minimum poll interval and does not take the
 * articles it already knows for new ones. Real parts: a migrated SQLite database, engines run one
 * after another on it with a shortened minute, a loopback site that logs each feed poll.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

const MINUTE_MS = 300;
/** The ICD's minimum poll interval, in (shortened) minutes: 6 s here (the restarts take about 1.5 s). */
const MIN_POLL_MINUTES = 20;
const INTERVAL_MS = MIN_POLL_MINUTES * MINUTE_MS;

test('a resumed crawl keeps each feed\'s minimum interval and its known articles', { timeout: 60_000 }, async () => {
  const polls: number[] = [];
  const articles = ['/a1', '/a2'];
  let origin = '';
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (path === '/feed.xml') {
      polls.push(Date.now());
      const items = articles.map((a, i) => `<item><title>${a}</title><link>${origin}${a}</link><pubDate>${new Date(Date.UTC(2026, 0, 1, 8 + i)).toUTCString()}</pubDate></item>`).join('');
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title>${items}</channel></rss>`);
    }
    if (articles.includes(path)) return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>article ${path}</p>`);
    res.writeHead(404).end();
  };
  const fields = (o: string) => ({ name: 'Feed across runs', coherence: { feeds: [`${o}/feed.xml`], minFeedPollMinutes: MIN_POLL_MINUTES } });
  await withSiteCrawl('tm-feed-state-', site, fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const engine = () => new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS });
    const captured = (path: string) => (db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, `${origin}${path}`) as number) > 0;

    // Run 1: the feed is polled at once and its two articles are crawled; then the crawl is paused.
    const first = engine();
    let run = first.run();
    for (const end = Date.now() + 15_000; !(captured('/a1') && captured('/a2')) && Date.now() < end; ) await sleep(10);
    await first.pause();
    assert.equal(await run, 'paused');
    assert.equal(polls.length, 1, 'one poll in the first run');
    assert.equal(first.incremental?.feedArticlesQueued, 2);

    // Runs 2 and 3, at once, as a worker restarted in a crash loop does: too soon for another poll.
    articles.push('/a3');
    let queuedLater = 0;
    for (let restart = 0; restart < 2; restart++) {
      const again = engine();
      run = again.run();
      await sleep(600);
      await again.pause();
      assert.equal(await run, 'paused');
      queuedLater += again.incremental?.feedArticlesQueued ?? 0;
    }
    assert.equal(polls.length, 1, `no poll before the minimum interval: polls ${polls.map((t) => t - polls[0]!).join(', ')} ms after the first`);

    // Run 4: polled once the interval is over; only the article the feed added is new.
    const last = engine();
    run = last.run();
    for (const end = Date.now() + 20_000; !(polls.length >= 2 && captured('/a3')) && Date.now() < end; ) await sleep(10);
    await last.stop();
    queuedLater += last.incremental?.feedArticlesQueued ?? 0;
    assert.equal(await run, 'stopped');
    assert.ok(polls.length >= 2, 'the feed was polled again');
    assert.ok(polls[1]! - polls[0]! >= INTERVAL_MS * 0.95, `the second poll came ${polls[1]! - polls[0]!} ms after the first (interval ${INTERVAL_MS} ms)`);
    assert.ok(captured('/a3'), 'the new article was crawled');
    assert.equal(queuedLater, 1, 'after the first run, only the new article was queued as new');
  });
});
