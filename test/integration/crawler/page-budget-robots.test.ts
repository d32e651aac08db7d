/**
 * The page budget (scope.maxPages) counts fetch attempts: a URL robots.txt refuses is never
 * requested, is reported among the exclusions, and must not spend it.
 * Real parts: a loopback site, a migrated SQLite database, the engine.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('URLs robots.txt disallows do not spend the page budget', { timeout: 60_000 }, async () => {
  const requested: string[] = [];
  // The disallowed links come first in the page, so they are leased before the allowed ones.
  const links = [1, 2, 3, 4, 5].map((i) => `<a href="/private/${i}">p</a>`).join('') + [1, 2, 3].map((i) => `<a href="/open/${i}">o</a>`).join('');
  const site: RequestListener = (req, res) => {
    requested.push(req.url ?? '');
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /private\n');
    res.writeHead(200, { 'content-type': 'text/html' }).end(req.url === '/' ? links : `<p>${req.url}</p>`);
  };
  await withSiteCrawl('tm-budget-robots-', site, { name: 'Budget and robots.txt', scope: { maxPages: 4 }, politeness: { enabled: false, concurrency: 1 } }, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    const pages = db.prepare("SELECT url FROM Capture WHERE crawlId = ? AND url NOT LIKE '%robots.txt' ORDER BY url").pluck().all(crawlId);
    assert.deepEqual(pages, [`${origin}/`, `${origin}/open/1`, `${origin}/open/2`, `${origin}/open/3`], `requested: ${requested.join(' ')}`);
    assert.equal(requested.filter((u) => u.startsWith('/private')).length, 0);
  });
});
