/**
 * Feed polls on the engine's clock: how often a feed is polled, and feeds that moved.
 * Real parts: a migrated SQLite database, the engine with its feed monitor on a shortened minute,
 * a loopback site that logs each request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

const MINUTE_MS = 300;

test('a feed whose answer takes a while is polled every period, not every other one', { timeout: 60_000 }, async () => {
  // A longer minute than the file's: a loaded machine (CI beside other files) added ~100–250 ms to
  // each 300 ms period, near the 1.5 periods that tell one poll a period from one every other period.
  const SLOW_FEED_MINUTE_MS = 1000;
  const polls: number[] = [];
  let origin = '';
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (path === '/feed.xml') {
      polls.push(Date.now());
      const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title><item><title>A</title><link>${origin}/article</link></item></channel></rss>`;
      // The feed's server takes a fifth of the period to answer.
      return void setTimeout(() => res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss), SLOW_FEED_MINUTE_MS / 5);
    }
    if (path === '/article') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>article</p>');
    res.writeHead(404).end();
  };
  const fields = (o: string) => ({ name: 'Slow feed', coherence: { feeds: [`${o}/feed.xml`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-period-', site, fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: SLOW_FEED_MINUTE_MS });
    const run = engine.run();
    for (const end = Date.now() + 30_000; polls.length < 6 && Date.now() < end; ) await sleep(10);
    await engine.stop();
    assert.equal(await run, 'stopped');
  });
  const gaps = polls.slice(1).map((t, i) => t - polls[i]!);
  assert.ok(gaps.length >= 5, `polled ${polls.length} times`);
  for (const gap of gaps) assert.ok(gap >= SLOW_FEED_MINUTE_MS * 0.9, `the minimum interval is kept: ${gaps.join(', ')} ms`);
  const sorted = [...gaps].sort((a, b) => a - b);
  assert.ok(sorted[Math.floor(sorted.length / 2)]! < SLOW_FEED_MINUTE_MS * 1.5, `one poll a period of ${SLOW_FEED_MINUTE_MS} ms: gaps ${gaps.join(', ')} ms`);
});

test('a feed that moved is read at its new address, its links resolved against it', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let origin = '';
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    // The ICD names the feed's old address; its relative links resolve against the new one.
    if (path === '/feed') return void res.writeHead(301, { location: '/news/feed.xml' }).end();
    if (path === '/news/feed.xml') {
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end('<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title><item><title>A</title><link>article</link></item></channel></rss>');
    }
    if (path === '/news/article') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>article</p>');
    res.writeHead(404).end();
  };
  const fields = (o: string) => ({ name: 'Moved feed', coherence: { feeds: [`${o}/feed`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-moved-', site, fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS });
    const run = engine.run();
    for (const end = Date.now() + 15_000; !requested.includes('/news/article') && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const captured = (db.prepare('SELECT url, status FROM Capture WHERE crawlId = ? ORDER BY id').all(crawlId) as { url: string; status: number }[]).map((r) => `${r.status} ${r.url.slice(origin.length)}`);
    assert.ok(captured.includes('301 /feed') && captured.includes('200 /news/feed.xml'), `both hops archived: ${captured.join(', ')}`);
    assert.ok(captured.includes('200 /news/article'), `the article was crawled: ${captured.join(', ')}`);
  });
});

test('a feed that redirects in a loop is given up after a few hops', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (path === '/loop') return void res.writeHead(302, { location: '/loop?again' }).end();
    if (path === '/loop?again') return void res.writeHead(302, { location: '/loop' }).end();
    res.writeHead(404).end();
  };
  // A real minute: one poll in the test's time.
  const fields = (o: string) => ({ name: 'Looping feed', coherence: { feeds: [`${o}/loop`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-loop-', site, fields, async ({ dir, db, crawlId, icd }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    const run = engine.run();
    const loops = () => requested.filter((p) => p.startsWith('/loop')).length;
    for (let seen = -1, end = Date.now() + 15_000; (seen !== loops() || seen === 0) && Date.now() < end; ) {
      seen = loops();
      await sleep(300);
    }
    await engine.stop();
    assert.equal(await run, 'stopped');
  });
  assert.equal(requested.filter((p) => p.startsWith('/loop')).length, 6, `the first request and five redirects: ${requested.join(' ')}`);
});
