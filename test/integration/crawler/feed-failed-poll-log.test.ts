/**
 * A feed that answers 503 through its retries: the fetch fails (http-5xx), what the server sent is
 * archived, and its crawl-log entry was `ok` with the message `feed poll`, as a poll that read its
 * feed: the crawl log's filter by outcome did not find it among the failures. Its outcome is now the
 * fetch's failure and its message says the poll failed. A poll that failed with nothing to archive
 * (a refused connection, a name that does not resolve, a timeout before a byte) had no crawl-log
 * entry at all; it is now logged and counted as a failed fetch. Real parts: a migrated SQLite
 * database, the engine with its feed monitor on a shortened minute, loopback servers.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { serveOn, withSiteCrawl } from '../../support/site-crawl';
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

test('a feed poll that failed with nothing to archive (refused, no such host, a timeout before a byte) is logged and counted as a failed fetch', { timeout: 60_000 }, async () => {
  const site: RequestListener = (req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    res.writeHead(404, { 'content-type': 'text/html' }).end('<p>gone</p>');
  };
  // A port nothing listens on any more: the connection is refused.
  const closed = await serveOn('127.0.0.31', site);
  closed.close();
  // A server that lets robots.txt be read and never answers the feed's request.
  const hanging = await serveOn('127.0.0.32', (req, res) => {
    if (req.url === '/robots.txt') res.writeHead(404, { 'content-type': 'text/plain' }).end('none');
  });
  const refusedFeed = `${closed.origin}/feed.xml`;
  const unresolvedFeed = 'http://feeds.nonexistent.invalid/feed.xml';
  const silentFeed = `${hanging.origin}/feed.xml`;
  try {
    const fields = {
      name: 'Unanswered feeds', coherence: { feeds: [refusedFeed, unresolvedFeed, silentFeed], minFeedPollMinutes: 1 },
      limits: { maxRetries: 0, connectTimeoutMs: 500, headersTimeoutMs: 500, totalTimeoutMs: 2_000 },
    };
    await withSiteCrawl('tm-feed-unanswered-poll-', site, fields, async ({ dir, db, crawlId, icd }) => {
      const logged = (url: string) => db.prepare('SELECT outcome, status, message, size, durationMs, retries FROM CrawlLogEntry WHERE crawlId = ? AND url = ? ORDER BY id').all(crawlId, url) as
        { outcome: string; status: number | null; message: string; size: number; durationMs: number; retries: number }[];
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
      await runUntil(engine, 'each feed was polled', () => [refusedFeed, unresolvedFeed, silentFeed].every((url) => logged(url).length > 0));
      const [refused] = logged(refusedFeed);
      assert.equal(refused!.outcome, 'connect-refused');
      assert.match(refused!.message, /^feed poll failed: no connection to the host for robots\.txt \(.*ECONNREFUSED/);
      const [unresolved] = logged(unresolvedFeed);
      assert.equal(unresolved!.outcome, 'dns');
      assert.match(unresolved!.message, /^feed poll failed: /);
      const [silent] = logged(silentFeed);
      assert.equal(silent!.outcome, 'headers-timeout');
      assert.match(silent!.message, /^feed poll failed: /);
      assert.ok(silent!.durationMs > 0, 'the time the poll waited');
      for (const entry of [refused, unresolved, silent]) {
        assert.equal(entry!.status, null);
        assert.equal(entry!.size, 0);
        assert.equal(entry!.retries, 0);
      }
      const failed = engine.stats().failedByReason;
      for (const reason of ['connect-refused', 'dns', 'headers-timeout']) assert.ok((failed[reason] ?? 0) >= 1, `${reason} counted among the failures (${JSON.stringify(failed)})`);
    });
  } finally {
    hanging.close();
  }
});
