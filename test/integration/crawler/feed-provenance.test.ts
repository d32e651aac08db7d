/**
 * Where the URLs found outside a page come from: a feed's articles and a robots.txt's Sitemap: lines
 * are stored as found there, not as links of the first seed. Found by an exploratory session: an
 * article only the feed listed was stored via the seed (which has no link to it), kind navigation,
 * and with maxDepth 0 refused as max-depth and never fetched, while the feed reported it new.
 * Real parts: a migrated SQLite database, the engine with its feed monitor on a shortened minute,
 * a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { inspectUrl } from '../../../worker/frontier/url-inspection';
import { withSiteCrawl } from '../../support/site-crawl';

test('with maxDepth 0, a feed\'s article is fetched, stored as found in the feed; a robots.txt sitemap as found in robots.txt', { timeout: 60_000 }, async () => {
  let origin = '';
  const site: RequestListener = (req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\nSitemap: ${origin}/sitemap.xml\n`);
    if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>home, with no link</p>');
    if (path === '/feed.xml') {
      const rss = `<?xml version="1.0"?><rss version="2.0"><channel><title>Q</title><item><title>A</title><link>${origin}/article</link></item></channel></rss>`;
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' }).end(rss);
    }
    if (path === '/article') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>article</p><a href="/next">next</a>');
    res.writeHead(404).end();
  };
  const fields = (o: string) => ({ name: 'Feed provenance', scope: { maxDepth: 0 }, coherence: { feeds: [`${o}/feed.xml`], minFeedPollMinutes: 1 } });
  await withSiteCrawl('tm-feed-provenance-', site, fields, async ({ origin: o, dir, db, crawlId, icd }) => {
    origin = o;
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: 300 });
    const run = engine.run();
    const inspect = (path: string) => inspectUrl(db, crawlId, icd, `${o}${path}`);
    const settled = () => inspect('/article').entry?.state === 'done' && inspect('/sitemap.xml').entry !== null && inspect('/next').entry !== null;
    for (const end = Date.now() + 30_000; !settled() && Date.now() < end; ) await sleep(20);
    await engine.stop();
    assert.equal(await run, 'stopped');

    const article = inspect('/article');
    assert.deepEqual(article.entry && { state: article.entry.state, kind: article.entry.kind, via: article.entry.via, depth: article.entry.depth },
      { state: 'done', kind: 'feed-item', via: `${o}/feed.xml`, depth: 1 }, 'fetched, found in the feed one link from it');
    assert.deepEqual([article.discoveryPath, article.pathCut], [[{ url: `${o}/feed.xml`, kind: 'feed' }], false]);
    assert.ok(article.captures.length >= 1, 'captured');
    // Its own links count from it: at depth 2, past maxDepth 0.
    const next = inspect('/next');
    assert.deepEqual(next.entry && { state: next.entry.state, reason: next.entry.reason, via: next.entry.via, depth: next.entry.depth }, { state: 'excluded', reason: 'max-depth', via: `${o}/article`, depth: 2 });
    assert.deepEqual(next.discoveryPath, [{ url: `${o}/feed.xml`, kind: 'feed' }, { url: `${o}/article`, kind: 'feed-item' }]);

    // The Sitemap: line: found in robots.txt (one link from it, so past maxDepth 0 as before), not on the seed.
    const sitemap = inspect('/sitemap.xml');
    assert.deepEqual(sitemap.entry && { kind: sitemap.entry.kind, via: sitemap.entry.via, depth: sitemap.entry.depth, reason: sitemap.entry.reason },
      { kind: 'sitemap', via: `${o}/robots.txt`, depth: 1, reason: 'max-depth' });
    assert.deepEqual([sitemap.discoveryPath, sitemap.pathCut], [[{ url: `${o}/robots.txt`, kind: 'robots.txt' }], false]);
  });
});
