/**
 * A feed that answers 503 through its retries: the fetch fails (http-5xx), what the server sent is
 * archived, and its crawl-log entry was `ok` with the message `feed poll`, as a poll that read its
 * feed: the crawl log's filter by outcome did not find it among the failures. Its outcome is now the
 * fetch's failure and its message says the poll failed. Real parts: a migrated SQLite database, the
 * engine with its feed monitor on a shortened minute, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { runUntil } from '../../support/engine-run';

test('a feed poll whose fetch failed with a 5xx is archived and logged with the failure as its outcome', { timeout: 60_000 }, async () => {
  const site: RequestListener = (req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (req.url === '/feed.xml') return void res.writeHead(503, { 'content-type': 'text/plain' }).end('down for maintenance');
    res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>');
  };
  const fields = (o: string) => ({ name: 'Failing feed', coherence: { feeds: [`${o}/feed.xml`], minFeedPollMinutes: 1 }, limits: { maxRetries: 0 } });
  await withSiteCrawl('tm-feed-failed-poll-', site, fields, async ({ origin, dir, db, crawlId, icd }) => {
    const feedUrl = `${origin}/feed.xml`;
    const logged = () => db.prepare('SELECT outcome, status, message FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, feedUrl) as { outcome: string; status: number | null; message: string | null }[];
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    await runUntil(engine, 'the feed was polled', () => logged().length > 0);
    const [entry] = logged();
    // Was { outcome: 'ok', status: 503, message: 'feed poll' }.
    assert.deepEqual(entry, { outcome: 'http-5xx', status: 503, message: 'feed poll failed: HTTP 503' });
    assert.equal(db.prepare('SELECT status FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, feedUrl), 503, 'archived all the same');
    assert.ok((engine.stats().failedByReason['http-5xx'] ?? 0) >= 1, 'counted among the failures');
  });
});
