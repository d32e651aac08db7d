/**
 * A feed an exclude pattern of the crawl matches is not polled, as a seed it matches is not
 * fetched: one the ICD's patterns match is reported excluded (with the pattern) from the start,
 * and a live exclusion (what POST /api/crawls/:id/exclusions stores) stops a feed's polls, a
 * removed one lets them go on. Real parts: a migrated SQLite database, the engine with its feed
 * monitor on a shortened minute, a loopback site that logs each request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { readIncrementalView } from '../../../worker/crawler/incremental-records';
import { addLiveExclusion, removeLiveExclusion } from '../../../worker/process/crawl-requests';
import { withSiteCrawl, type SiteCrawl } from '../../support/site-crawl';
import { until } from '../../support/engine-run';

/** Feeds at /feed.xml, /private/feed.xml, /~private/feed.xml and /moved.xml (which redirects to /private/moved.xml), each listing an article; no robots.txt. */
function feedSite(requested: string[], origin: () => string): RequestListener {
  const rss = (article: string) => `<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title><item><title>A</title><link>${origin()}${article}</link></item></channel></rss>`;
  return (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (path === '/feed.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('/article'));
    if (path === '/private/feed.xml' || path === '/private/moved.xml' || path === '/~private/feed.xml' || path === '/%7Eprivate/feed.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('/private/article'));
    if (path === '/moved.xml') return void res.writeHead(301, { location: '/private/moved.xml' }).end();
    if (path === '/article' || path === '/private/article') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>article</p>');
    res.writeHead(404).end();
  };
}

/**
 * Serves the feed site and stores a crawl of it with the ICD `fields` of its origin; runs `fn`
 * with the crawl and the paths requested so far, and returns every path requested.
 */
async function withFeedCrawl(prefix: string, fields: (origin: string) => Record<string, unknown>, fn: (c: SiteCrawl, requested: string[]) => Promise<void>): Promise<string[]> {
  const requested: string[] = [];
  let origin = '';
  await withSiteCrawl(prefix, feedSite(requested, () => origin), fields, async (c) => {
    origin = c.origin;
    await fn(c, requested);
  });
  return requested;
}

const pollOf = (db: import('better-sqlite3').Database, crawlId: number, url: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'engine_feed_poll'").get()
    ? (db.prepare('SELECT polls, last_outcome AS outcome, last_detail AS detail FROM engine_feed_poll WHERE crawl_id = ? AND url = ?').get(crawlId, url) as { polls: number; outcome: string; detail: string } | undefined)
    : undefined;

/** Runs the crawl's engine (a minute of 200 ms) while `during` runs, then stops it; the engine, for its counters. */
async function runWhile(c: SiteCrawl, during: () => Promise<void>): Promise<CrawlEngine> {
  const engine = new CrawlEngine({ crawlId: c.crawlId, icd: c.icd, db: c.db, warcDir: join(c.dir, 'warcs'), spoolDir: join(c.dir, 'spool'), minuteMs: 200 });
  const run = engine.run();
  try {
    await during();
  } finally {
    await engine.stop();
  }
  assert.equal(await run, 'stopped');
  return engine;
}

const runUntil = (c: SiteCrawl, what: string, done: () => boolean) => runWhile(c, () => until(what, done, 30_000));

test('a feed an exclude pattern of the ICD matches is never requested and is reported excluded with the pattern; a feed that moved to an excluded address is requested once, then reported so', { timeout: 60_000 }, async () => {
  const fields = (o: string) => ({
    name: 'Feeds excluded', scope: { exclude: ['/private/'] },
    coherence: { feeds: [`${o}/private/feed.xml`, `${o}/moved.xml`, `${o}/feed.xml`], minFeedPollMinutes: 1 },
  });
  const requested = await withFeedCrawl('tm-feed-exclusion-', fields, async (c, requested) => {
    const { origin: o, db, crawlId, icd } = c;
    // Each period is 200 ms: four polls of /feed.xml are four periods, where /moved.xml was requested in each.
    const engine = await runUntil(c, 'the other feed polled four times', () => requested.filter((p) => p === '/feed.xml').length >= 4);
    const excluded = pollOf(db, crawlId, `${o}/private/feed.xml`);
    assert.deepEqual(excluded, { polls: 0, outcome: 'excluded', detail: "the crawl's exclude pattern /private/ matches it" });
    // In the crawl log once, as an exclusion (the hosts report counts it so, not as a fetch).
    const logged = db.prepare("SELECT url, status, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'exclude-match' ORDER BY url").all(crawlId);
    assert.deepEqual(logged, [
      { url: `${o}/moved.xml`, status: null, message: `feed not polled: the crawl's exclude pattern /private/ matches the address it moved to, ${o}/private/moved.xml` },
      { url: `${o}/private/feed.xml`, status: null, message: "feed not polled: the crawl's exclude pattern /private/ matches it" },
    ]);
    assert.equal(engine.stats().excludedByReason['exclude-match'], 2);
    // The feed that moved was requested once (its redirect), not again each period.
    assert.equal(requested.filter((p) => p === '/moved.xml').length, 1, requested.join(' '));
    // Run again (a resumed crawl): still not polled, and not logged again.
    const before = requested.filter((p) => p === '/feed.xml').length;
    await runUntil(c, 'the other feed polled again', () => requested.filter((p) => p === '/feed.xml').length > before);
    assert.equal(db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'exclude-match'").pluck().get(crawlId), 2);
    // The address it moved to is remembered across runs: the feed is not requested again.
    assert.equal(requested.filter((p) => p === '/moved.xml').length, 1, requested.join(' '));
    const moved = pollOf(db, crawlId, `${o}/moved.xml`);
    assert.deepEqual([moved?.outcome, moved?.detail], ['excluded', `the crawl's exclude pattern /private/ matches the address it moved to, ${o}/private/moved.xml`]);
    // The cockpit's row says so, and plans no poll of it.
    const view = readIncrementalView(db, crawlId, { feeds: icd.coherence.feeds, minFeedPollMinutes: 1, recrawlIntervalMinutes: 0 }, 'running', Date.now());
    const row = view.feeds!.rows.find((r) => r.url === `${o}/private/feed.xml`)!;
    assert.deepEqual([row.outcome, row.problem, row.nextPollAt], ['excluded', "Not polled, excluded: the crawl's exclude pattern /private/ matches it", null]);
  });
  assert.deepEqual(requested.filter((p) => p.startsWith('/private')), [], `nothing excluded was requested: ${requested.join(' ')}`);
});

test('a live exclusion stops a feed\'s polls within a period; removed, the polls go on', { timeout: 90_000 }, async () => {
  const fields = (o: string) => ({ name: 'Feed excluded live', coherence: { feeds: [`${o}/feed.xml`], minFeedPollMinutes: 1 } });
  const requested = await withFeedCrawl('tm-feed-live-exclusion-', fields, async (c, requested) => {
    const { origin: o, db, crawlId } = c;
    const polls = () => requested.filter((p) => p === '/feed.xml').length;
    await runWhile(c, async () => {
      await until('the feed polled twice', () => polls() >= 2, 30_000);
      const pattern = '/feed\\.xml$';
      assert.ok('done' in (addLiveExclusion(db, crawlId, pattern, null) as object));
      await until('the engine applied the exclusion', () => db.prepare('SELECT appliedAt FROM CrawlExclusion WHERE crawlId = ?').pluck().get(crawlId) !== null, 5_000);
      await until('the feed reported excluded', () => pollOf(db, crawlId, `${o}/feed.xml`)?.outcome === 'excluded', 10_000);
      const atExclusion = polls();
      // Several periods (200 ms each) pass without a poll.
      await new Promise((r) => setTimeout(r, 1500));
      assert.equal(polls(), atExclusion, 'no poll once excluded');
      assert.match(pollOf(db, crawlId, `${o}/feed.xml`)!.detail, /exclude pattern \/feed\\\.xml\$ matches it/);

      assert.ok('done' in (removeLiveExclusion(db, crawlId, pattern) as object));
      await until('the feed polled again', () => polls() > atExclusion, 30_000);
    });
  });
});

test('a feed is matched against exclude patterns in its canonical form, as a seed is', { timeout: 60_000 }, async () => {
  // Written with %7E, an escaped unreserved character: its canonical form has ~, which the pattern names.
  const fields = (o: string) => ({
    name: 'Feed excluded canonically', scope: { exclude: ['/~private/'] },
    coherence: { feeds: [`${o}/%7Eprivate/feed.xml`, `${o}/feed.xml`], minFeedPollMinutes: 1 },
  });
  const requested = await withFeedCrawl('tm-feed-canonical-exclusion-', fields, async (c, requested) => {
    const { origin: o, db, crawlId } = c;
    await runUntil(c, 'the other feed polled twice', () => requested.filter((p) => p === '/feed.xml').length >= 2);
    assert.deepEqual(pollOf(db, crawlId, `${o}/%7Eprivate/feed.xml`), { polls: 0, outcome: 'excluded', detail: "the crawl's exclude pattern /~private/ matches it" });
  });
  assert.deepEqual(requested.filter((p) => p.includes('private')), [], `nothing excluded was requested: ${requested.join(' ')}`);
});

test('a live exclusion is recorded for a feed at once, not at its next polling period', { timeout: 60_000 }, async () => {
  // A period of 30 shortened minutes (6 s): the next period is far later than the engine's 500 ms.
  const fields = (o: string) => ({ name: 'Feed excluded live, long period', coherence: { feeds: [`${o}/feed.xml`], minFeedPollMinutes: 30 } });
  const requested = await withFeedCrawl('tm-feed-live-exclusion-soon-', fields, async (c, requested) => {
    const { origin: o, db, crawlId } = c;
    await runWhile(c, async () => {
      await until('the feed polled', () => pollOf(db, crawlId, `${o}/feed.xml`)?.outcome === 'ok', 30_000);
      assert.ok('done' in (addLiveExclusion(db, crawlId, '/feed\\.xml$', null) as object));
      const addedAt = Date.now();
      await until('the feed reported excluded', () => pollOf(db, crawlId, `${o}/feed.xml`)?.outcome === 'excluded', 5_000);
      // Well before the next period (6 s), with room for a loaded machine: the engine looks every 500 ms.
      assert.ok(Date.now() - addedAt < 4_000, `recorded ${Date.now() - addedAt} ms after the exclusion was added`);
      assert.equal(db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'exclude-match' AND url = ?").pluck().get(crawlId, `${o}/feed.xml`), 1);
    });
  });
  assert.equal(requested.filter((p) => p === '/feed.xml').length, 1);
});
