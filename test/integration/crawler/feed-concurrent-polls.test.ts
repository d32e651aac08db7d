/**
 * A period's feed polls are independent: a feed that trickles its answer without end holds back
 * neither the feeds of other hosts nor their next periods, while politeness still makes a feed of
 * its own host wait for it (one request at a time per host key).
 * Real parts: a migrated SQLite database, the engine with its feed monitor on a shortened minute,
 * two loopback hosts (127.0.0.1 and 127.0.0.2: keys of their own) that log each request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { serveOn, withCrawl } from '../../support/site-crawl';

const MINUTE_MS = 300;

const rss = (link: string) => `<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title><item><title>A</title><link>${link}</link></item></channel></rss>`;

test('an endless feed does not stop the other hosts\u2019 feeds from being polled, period after period; its own host waits', { timeout: 90_000 }, async () => {
  const requested: string[] = [];
  const trickling = new Set<ServerResponse>();
  // 127.0.0.1: the seed, a feed that never finishes its answer, and a second feed of the same host.
  const slow: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(`slow ${path}`);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home</p>');
    if (path === '/endless') {
      res.writeHead(200, { 'content-type': 'application/rss+xml' });
      res.write('<?xml version="1.0"?><rss version="2.0"><channel>');
      trickling.add(res);
      const timer = setInterval(() => res.write(' '), 100);
      res.on('close', () => (clearInterval(timer), trickling.delete(res)));
      return;
    }
    if (path === '/same-host.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('/a'));
    res.writeHead(404).end();
  };
  const fast: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    requested.push(`fast ${path}`);
    if (path === '/feed.xml') return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss('/b'));
    res.writeHead(404).end();
  };
  const a = await serveOn('127.0.0.1', slow);
  const b = await serveOn('127.0.0.2', fast);
  try {
    // Politeness on (short delays): the feed of the endless feed's host must wait for its key.
    // The endless feed is chosen first (never polled, the first by URL; one feed a period), and the
    // total timeout is far beyond the test's time.
    const fields = {
      seeds: [`${a.origin}/`],
      name: 'Endless feed',
      politeness: { enabled: true, respectRobots: false, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 },
      limits: { totalTimeoutMs: 3_600_000 },
      coherence: { feeds: [`${a.origin}/endless`, `${a.origin}/same-host.xml`, `${b.origin}/feed.xml`], minFeedPollMinutes: 1 },
    };
    await withCrawl('tm-feed-concurrent-', fields, async ({ dir, db, icd, crawlId }) => {
      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS, haltGraceMs: 100 });
      const run = engine.run();
      const fastPolls = () => requested.filter((r) => r === 'fast /feed.xml').length;
      for (const end = Date.now() + 60_000; fastPolls() < 3 && Date.now() < end; ) await sleep(20);
      const seen = [...requested];
      const endlessOpen = trickling.size;
      await engine.stop();
      assert.equal(await run, 'stopped');
      assert.equal(seen.filter((r) => r === 'slow /endless').length, 1, `the endless feed was requested once: ${seen.join(', ')}`);
      assert.equal(endlessOpen, 1, 'its answer was still under way');
      assert.ok(seen.filter((r) => r === 'fast /feed.xml').length >= 3, `the other host's feed was polled in later periods meanwhile: ${seen.join(', ')}`);
      assert.ok(!seen.includes('slow /same-host.xml'), `the feed of the endless feed's host waited for its turn: ${seen.join(', ')}`);
    });
  } finally {
    a.close();
    b.close();
  }
});
