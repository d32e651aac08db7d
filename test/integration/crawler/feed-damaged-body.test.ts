/**
 * A feed whose gzip body is cut in the middle (its length header right, its gzip stream stopping
 * before its end): the poll is recorded as failed, with the reason in the feed's poll summary and
 * in the crawl log (its entry's outcome `unreadable-body`, a failure), and the part it holds is not read, so the feed's remembered items stay as the
 * whole poll before left them (read, its short list made the scheduler forget the items past the cut).
 * Real parts: a migrated SQLite database, the engine with its feed monitor on a shortened minute,
 * a loopback site serving the feed with Content-Encoding: gzip.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { gzipSync } from 'node:zlib';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

const MINUTE_MS = 300;
/** More items than a feed remembers at least (200), so that a short list makes it forget some. */
const ITEMS = 300;

test('a feed whose gzip body is cut in the middle is a failed poll, its remembered items unchanged', { timeout: 60_000 }, async () => {
  let polls = 0;
  let origin = '';
  const feed = () => {
    const items = Array.from({ length: ITEMS }, (_, i) => `<item><title>A${i}</title><link>${origin}/a${i}</link></item>`).join('');
    // Stored, not compressed: a cut at a quarter of the bytes is a cut at about a quarter of the items.
    return gzipSync(`<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title>${items}</channel></rss>`, { level: 0 });
  };
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (path === '/feed.xml') {
      polls++;
      const whole = feed();
      const body = polls === 1 ? whole : whole.subarray(0, whole.length >> 2);
      return void res.writeHead(200, { 'content-type': 'application/rss+xml', 'content-encoding': 'gzip', 'content-length': body.length }).end(body);
    }
    res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>');
  };
  const fields = (o: string) => ({ name: 'Cut feed', coherence: { feeds: [`${o}/feed.xml`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-cut-', site, fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const feedUrl = `${origin}/feed.xml`;
    // The engine creates the table as it starts.
    const hasTable = () => db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'engine_feed_poll'").get() !== undefined;
    const summary = () => !hasTable() ? undefined : db.prepare('SELECT polls, failed_polls, last_outcome, last_status, last_detail, last_listed, last_new FROM engine_feed_poll WHERE crawl_id = ? AND url = ?').get(crawlId, feedUrl) as
      | { polls: number; failed_polls: number; last_outcome: string; last_status: number | null; last_detail: string | null; last_listed: number; last_new: number }
      | undefined;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS });
    const run = engine.run();
    for (const end = Date.now() + 30_000; (summary()?.polls ?? 0) < 2 && Date.now() < end; ) await sleep(10);
    await engine.stop();
    assert.equal(await run, 'stopped');

    const s = summary()!;
    assert.ok(s.polls >= 2, `polled ${s.polls} times`);
    assert.equal(s.failed_polls, s.polls - 1, 'every poll after the first, served cut, failed');
    assert.equal(s.last_outcome, 'failed');
    assert.equal(s.last_status, 200);
    assert.match(s.last_detail ?? '', /content coding \(gzip\) stops before its end: the body was cut short/);
    assert.equal(s.last_listed, 0, 'the cut list is not read');
    assert.equal(s.last_new, 0);

    const memory = db.prepare('SELECT seen FROM engine_feed WHERE crawl_id = ? AND url = ?').pluck().get(crawlId, feedUrl) as string;
    const seen = JSON.parse(memory) as string[];
    assert.deepEqual([...seen].sort(), Array.from({ length: ITEMS }, (_, i) => `${origin}/a${i}`).sort(), 'the items of the whole poll are all remembered');

    const logged = db.prepare('SELECT outcome, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, feedUrl) as { outcome: string; message: string | null }[];
    assert.deepEqual(logged[0], { outcome: 'ok', message: 'feed poll' });
    assert.ok(logged.length >= 2, `${logged.length} feed polls logged`);
    for (const entry of logged.slice(1)) {
      assert.match(entry.message ?? '', /^feed poll failed: its content coding \(gzip\) stops before its end/, 'the crawl log says why');
      // A failure outcome, so the crawl log's filter finds the failed polls (it was `ok`).
      assert.equal(entry.outcome, 'unreadable-body');
    }
    // Archived all the same, and counted among the crawl's failures as a resumed crawl counts them again.
    assert.equal(db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, feedUrl), logged.length);
    assert.equal(engine.stats().failedByReason['unreadable-body'], logged.length - 1);
  });
});
