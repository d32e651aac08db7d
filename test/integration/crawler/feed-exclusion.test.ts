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
import { withSiteCrawl } from '../../support/site-crawl';
import { until } from '../../support/engine-run';

/** Feeds at /feed.xml, /private/feed.xml and /moved.xml (which redirects to /private/moved.xml), each listing an article; no robots.txt. */
function feedSite(requested: string[], origin: () => string): RequestListener {
  const rss = (article: string) => `<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title><item><title>A</title><link>${origin()}${article}</link></item></channel></rss>`;
  return (req, res) => {
    const path = req.url ?? '/';
    requested.push(path);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (path === '/feed.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('/article'));
    if (path === '/private/feed.xml' || path === '/private/moved.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('/private/article'));
    if (path === '/moved.xml') return void res.writeHead(301, { location: '/private/moved.xml' }).end();
    if (path === '/article' || path === '/private/article') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>article</p>');
    res.writeHead(404).end();
  };
}

const pollOf = (db: import('better-sqlite3').Database, crawlId: number, url: string) =>
  db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'engine_feed_poll'").get()
    ? (db.prepare('SELECT polls, last_outcome AS outcome, last_detail AS detail FROM engine_feed_poll WHERE crawl_id = ? AND url = ?').get(crawlId, url) as { polls: number; outcome: string; detail: string } | undefined)
    : undefined;

test('a feed an exclude pattern of the ICD matches is never requested and is reported excluded with the pattern; so is a feed that moved to an excluded address', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  let origin = '';
  const fields = (o: string) => ({
    name: 'Feeds excluded', scope: { exclude: ['/private/'] },
    coherence: { feeds: [`${o}/private/feed.xml`, `${o}/moved.xml`, `${o}/feed.xml`], minFeedPollMinutes: 1 },
  });
  await withSiteCrawl('tm-feed-exclusion-', feedSite(requested, () => origin), fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 200 });
    const run = engine.run();
    try {
      await until('the other feeds polled twice', () => requested.filter((p) => p === '/feed.xml').length >= 2 && requested.filter((p) => p === '/moved.xml').length >= 2, 30_000);
    } finally {
      await engine.stop();
    }
    assert.equal(await run, 'stopped');
    const excluded = pollOf(db, crawlId, `${o}/private/feed.xml`);
    assert.deepEqual(excluded, { polls: 0, outcome: 'excluded', detail: "the crawl's exclude pattern /private/ matches it" });
    // In the crawl log once, as an exclusion (the hosts report counts it so, not as a fetch).
    const logged = db.prepare("SELECT url, status, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'exclude-match'").all(crawlId);
    assert.deepEqual(logged, [{ url: `${o}/private/feed.xml`, status: null, message: "feed not polled: the crawl's exclude pattern /private/ matches it" }]);
    assert.equal(engine.stats().excludedByReason['exclude-match'], 1);
    // Run again (a resumed crawl): still not polled, and not logged again.
    const again = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 200 });
    const rerun = again.run();
    const before = requested.filter((p) => p === '/feed.xml').length;
    try {
      await until('the other feed polled again', () => requested.filter((p) => p === '/feed.xml').length > before, 30_000);
    } finally {
      await again.stop();
    }
    assert.equal(await rerun, 'stopped');
    assert.equal(db.prepare("SELECT COUNT(*) FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'exclude-match'").pluck().get(crawlId), 1);
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
  const requested: string[] = [];
  let origin = '';
  const fields = (o: string) => ({ name: 'Feed excluded live', coherence: { feeds: [`${o}/feed.xml`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-live-exclusion-', feedSite(requested, () => origin), fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const polls = () => requested.filter((p) => p === '/feed.xml').length;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 200 });
    const run = engine.run();
    try {
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
    } finally {
      await engine.stop();
    }
    assert.equal(await run, 'stopped');
  });
});
