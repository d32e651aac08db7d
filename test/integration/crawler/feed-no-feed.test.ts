/**
 * A feed URL that answers an HTML page (200 text/html, no feed in it) was reported `ok`, 0 items
 * listed and no problem, as a feed with nothing posted is. It is now a failed poll saying no feed was
 * found in the answer and what type came instead; an empty feed is still `ok`.
 * Real parts: a migrated SQLite database, the engine with its feed monitor, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('a feed URL answering an HTML page is a failed poll: no feed found in the answer (text/html)', { timeout: 60_000 }, async () => {
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    if (path === '/' || path === '/news') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<html><body><p>news</p></body></html>');
    if (path === '/empty.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end('<?xml version="1.0"?><rss version="2.0"><channel><title>E</title></channel></rss>');
    res.writeHead(404).end();
  };
  const fields = (o: string) => ({ name: 'No feed', coherence: { feeds: [`${o}/news`, `${o}/empty.xml`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-no-feed-', site, fields, async ({ origin, dir, db, crawlId, icd }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    const tableMade = () => db.prepare("SELECT 1 FROM sqlite_master WHERE name = 'engine_feed_poll'").get() !== undefined;
    const polls = () => !tableMade() ? [] : db.prepare('SELECT url, last_outcome AS outcome, last_status AS status, last_detail AS detail, last_listed AS listed FROM engine_feed_poll WHERE crawl_id = ? ORDER BY url').all(crawlId) as { url: string }[];
    for (const end = Date.now() + 30_000; polls().length < 2 && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');
    assert.deepEqual(polls(), [
      { url: `${origin}/empty.xml`, outcome: 'ok', status: 200, detail: null, listed: 0 },
      { url: `${origin}/news`, outcome: 'failed', status: 200, detail: 'no feed found in the answer (text/html): not RSS, Atom nor JSON Feed', listed: 0 },
    ]);
    const logged = db.prepare('SELECT message FROM CrawlLogEntry WHERE crawlId = ? AND url = ?').pluck().all(crawlId, `${origin}/news`) as string[];
    assert.ok(logged.some((m) => m.startsWith('feed poll failed: no feed found in the answer (text/html)')), `its crawl-log entry says so: ${logged.join(' | ')}`);
  });
});
