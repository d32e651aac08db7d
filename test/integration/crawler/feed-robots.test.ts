/**
 * The ICD's feeds are URLs of a site like its seeds: a feed robots.txt disallows is not polled
 * (it was, and the articles it listed were queued from it). Real parts: a migrated SQLite database,
 * the engine with its feed monitor on a shortened minute, a loopback site that logs each request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { freePort } from '../../support/free-port';
import { serveOn, withSiteCrawl } from '../../support/site-crawl';

test('a feed that robots.txt disallows is not polled; an allowed one is', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let origin = '';
  const rss = (article: string) => `<?xml version="1.0"?><rss version="2.0"><channel><title>Quay</title><item><title>One</title><link>${origin}${article}</link></item></channel></rss>`;
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private/\n');
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (path === '/private/feed.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('/private-article'));
    if (path === '/feed.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('/article'));
    if (path === '/article' || path === '/private-article') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>article</p>');
    res.writeHead(404).end();
  };
  const fields = (o: string) => ({
    name: 'Feeds and robots',
    politeness: { enabled: true, minDelayMs: 50, maxDelayMs: 50, delayFactor: 0 },
    coherence: { feeds: [`${o}/private/feed.xml`, `${o}/feed.xml`], minFeedPollMinutes: 1 },
  });
  await withSiteCrawl('tm-feed-robots-', site, fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const sent: number[] = [];
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, onCaptures: (captures) => sent.push(...captures.map((c) => c.id)) });
    const run = engine.run();
    for (const end = Date.now() + 30_000; requested.filter((p) => p === '/feed.xml').length < 2 && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    // Every capture is sent live, robots.txt's and the feed polls' too (they are no frontier URLs).
    const stored = db.prepare('SELECT id, url FROM Capture WHERE crawlId = ? ORDER BY id').all(crawlId) as { id: number; url: string }[];
    assert.ok(stored.some((c) => c.url.endsWith('/robots.txt')) && stored.some((c) => c.url.endsWith('/feed.xml')));
    assert.deepEqual([...sent].sort((a, b) => a - b), stored.map((c) => c.id));
    // The refused poll is in the crawl log, as a page robots.txt disallows is.
    const refused = db.prepare('SELECT outcome, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ?').all(crawlId, `${o}/private/feed.xml`) as { outcome: string; message: string }[];
    assert.ok(refused.length >= 1, 'the refused poll is logged');
    for (const r of refused) assert.deepEqual(r, { outcome: 'robots', message: 'feed not polled: disallowed by robots.txt' });
  });
  assert.ok(requested.filter((p) => p === '/feed.xml').length >= 2, `the allowed feed was polled: ${requested.join(' ')}`);
  assert.ok(requested.includes('/article'), 'its article was crawled');
  assert.deepEqual(requested.filter((p) => p.startsWith('/private')), [], 'nothing robots.txt disallows was requested');
});

test('a feed whose polls fail does not keep the other feeds from being polled', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let origin = '';
  const site = oneFeedSite(requested, () => origin);
  // One poll a period for the two feeds (M = ⌈2 / 4⌉), the first of them always 404.
  const fields = (o: string) => ({ name: 'Feeds, one broken', coherence: { feeds: [`${o}/gone.xml`, `${o}/feed.xml`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-broken-', site, fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 200 });
    const run = engine.run();
    for (const end = Date.now() + 20_000; !requested.includes('/feed.xml') && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
  });
  assert.ok(requested.includes('/feed.xml'), `the working feed was polled: ${requested.join(' ')}`);
});

test('a feed on a host that refuses connections: its poll fails naming the refusal (not "robots.txt could not be read"), and the other feed is polled', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let origin = '';
  const site = oneFeedSite(requested, () => origin);
  const refused = `http://127.0.0.1:${await freePort()}/feed.xml`;
  const fields = (o: string) => ({ name: 'Feeds, one refused', limits: { maxRetries: 1 }, coherence: { feeds: [refused, `${o}/feed.xml`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-refused-', site, fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 200 });
    const run = engine.run();
    // The engine makes its feed tables as it starts.
    const lastPoll = () => db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'engine_feed_poll'").get()
      ? db.prepare('SELECT last_outcome AS outcome, last_detail AS detail FROM engine_feed_poll WHERE crawl_id = ? AND url = ?').get(crawlId, refused) as { outcome: string; detail: string } | undefined
      : undefined;
    for (const end = Date.now() + 30_000; !(requested.includes('/feed.xml') && lastPoll()) && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    const poll = lastPoll();
    assert.equal(poll?.outcome, 'failed', JSON.stringify(poll));
    assert.match(poll!.detail, /^connect-refused: no connection to the host for robots\.txt \(.*ECONNREFUSED/);
  });
  assert.ok(requested.includes('/feed.xml'), `the working feed was polled: ${requested.join(' ')}`);
});

test('a feed whose robots.txt cannot be fetched for now (503): each poll refused is logged robots-retry, once a poll, and counted among the failures as a recrawl refetch\'s is', { timeout: 60_000 }, async () => {
  const minuteMs = 300;
  let robotsAsked = 0;
  const other = await serveOn('127.0.0.61', (req, res) => {
    if (req.url === '/robots.txt') robotsAsked++;
    res.writeHead(req.url === '/robots.txt' ? 503 : 200, { 'content-type': 'application/rss+xml' }).end('<rss version="2.0"><channel></channel></rss>');
  });
  const feed = `${other.origin}/feed.xml`;
  try {
    const fields = { name: 'Feed, robots.txt 503', limits: { maxRetries: 0 }, coherence: { feeds: [feed], minFeedPollMinutes: 1 } };
    await withSiteCrawl('tm-feed-robots-503-', oneFeedSite([], () => ''), fields, async ({ dir, db, crawlId, icd }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs, robotsBackoff: { baseMs: 60_000, maxMs: 60_000 } });
      const logged = () => db.prepare('SELECT outcome, message, at FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, feed) as { outcome: string; message: string; at: number | string }[];
      const started = Date.now();
      const run = engine.run();
      for (const end = Date.now() + 30_000; logged().length < 2 && Date.now() < end; ) await sleep(20);
      await engine.stop();
      assert.equal(await run, 'stopped');
      const elapsed = Date.now() - started;
      const entries = logged();
      assert.ok(entries.length >= 2, `both refused polls are logged: ${JSON.stringify(entries)}`);
      for (const e of entries) assert.deepEqual({ outcome: e.outcome, message: e.message }, { outcome: 'robots-retry', message: 'feed not polled: robots.txt could not be fetched for now; asked again at its next poll' });
      // Not robots.txt unavailable for good (an exclusion): a poll the crawl did not get, a failure.
      const stats = engine.stats();
      assert.deepEqual([stats.failed, stats.failedByReason, stats.excluded, stats.excludedByReason], [entries.length, { 'robots-retry': entries.length }, 0, {}], JSON.stringify(stats));
      // One entry a poll, and a poll a period (the minimum interval): not one at each of the engine's ticks.
      assert.ok(entries.length <= Math.ceil(elapsed / minuteMs) + 1, `${entries.length} entries in ${elapsed} ms`);
    });
  } finally {
    other.close();
  }
  assert.equal(robotsAsked, 1, 'robots.txt asked once, then again only after its back-off');
});

test('a feed poll whose robots.txt fetch a pause cuts off is neither logged nor recorded: it said nothing of the feed', { timeout: 60_000 }, async () => {
  let robotsAsked = 0;
  // The feed's own host, robots.txt slow to answer: the pause comes while it is fetched.
  const other = await serveOn('127.0.0.62', (req, res) => {
    if (req.url === '/robots.txt') return void (robotsAsked++, setTimeout(() => res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow:\n'), 3_000));
    res.writeHead(200, { 'content-type': 'application/rss+xml' }).end('<rss version="2.0"><channel></channel></rss>');
  });
  const feed = `${other.origin}/feed.xml`;
  try {
    const fields = { name: 'Feed, robots.txt cut off', coherence: { feeds: [feed], minFeedPollMinutes: 1 } };
    await withSiteCrawl('tm-feed-robots-cut-', oneFeedSite([], () => ''), fields, async ({ dir, db, crawlId, icd }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300, haltGraceMs: 100 });
      const run = engine.run();
      for (const end = Date.now() + 20_000; robotsAsked === 0 && Date.now() < end; ) await sleep(20);
      assert.equal(robotsAsked, 1, "the feed's robots.txt is being fetched");
      await engine.pause();
      assert.equal(await run, 'paused');
      assert.deepEqual(db.prepare('SELECT outcome FROM CrawlLogEntry WHERE crawlId = ? AND url = ?').pluck().all(crawlId, feed), [], 'nothing logged');
      // Recorded, it was a poll refused by robots.txt ("robots.txt could not be read"), and the next waited a period.
      assert.deepEqual(db.prepare('SELECT last_outcome FROM engine_feed_poll WHERE crawl_id = ? AND url = ?').pluck().all(crawlId, feed), [], 'no poll recorded');
    });
  } finally {
    other.close();
  }
});

/** A site with one working feed, /feed.xml (listing `origin()`/article), no robots.txt, and 404 elsewhere; each path requested goes into `requested`. */
function oneFeedSite(requested: string[], origin: () => string): RequestListener {
  return (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    if (path === '/robots.txt') return void res.writeHead(404).end();
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (path === '/feed.xml') {
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title><item><title>A</title><link>${origin()}/article</link></item></channel></rss>`);
    }
    res.writeHead(404).end();
  };
}
