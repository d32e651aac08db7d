/**
 * A robots.txt too large to stay in memory (over the fetcher's 1 MB) is spooled to disk like any
 * body. Archiving it released (deleted) the spool file before the robots cache read it, so its
 * rules were never read: robots.txt was taken for unreachable, to be retried later and then
 * treated as disallowing everything. Real parts: a migrated SQLite database, the engine, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('a robots.txt spooled to disk is archived and its rules are followed', { timeout: 60_000 }, async () => {
  // 1.5 MB: the rules first, then comment lines, as some generated robots.txt files are.
  const robots = 'User-agent: *\nDisallow: /private/\n' + '# a long list kept for the record\n'.repeat(45_000);
  const site: RequestListener = (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end(robots);
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/private/secret">no</a> <a href="/public">yes</a>');
    if (req.url === '/public' || req.url === '/private/secret') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>page</p>');
    res.writeHead(404).end();
  };
  await withSiteCrawl('tm-robots-spool-', site, { name: 'Robots spooled' }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs', String(crawlId)), spoolDir: join(dir, 'spool', String(crawlId)) });
    const run = engine.run();
    // On the old code the home page waited for a robots.txt retry (30 s and more): stop it then.
    const stop = setTimeout(() => void engine.stop(), 20_000);
    assert.equal(await run, 'finished');
    clearTimeout(stop);
    const captured = db.prepare('SELECT url, size FROM Capture WHERE crawlId = ? ORDER BY url').all(crawlId) as { url: string; size: number }[];
    assert.deepEqual(captured.map((c) => c.url), [`${origin}/`, `${origin}/public`, `${origin}/robots.txt`]);
    assert.equal(captured.find((c) => c.url.endsWith('/robots.txt'))?.size, Buffer.byteLength(robots), 'robots.txt archived whole');
  });
});
