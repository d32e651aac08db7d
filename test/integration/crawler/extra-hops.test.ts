/**
 * One extra hop (scope.extraHops; Browsertrix's "include any linked page"): a crawl of one site also
 * captures the pages on another that its pages link to, and the redirect completing one, but not
 * what those pages link to on their host. Real parts: the engine, a migrated SQLite database, two
 * loopback sites on two addresses (two hosts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('with one extra hop the pages the site links to elsewhere are captured, and nothing past them', { timeout: 60_000 }, async () => {
  const elsewhere = createServer((req, res) => {
    if (req.url === '/moved') return void res.writeHead(301, { location: '/landing' }).end();
    res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>${req.url}</title><a href="/further">further</a> <a href="http://127.0.0.3:9/far">far</a>`);
  });
  await new Promise<void>((r) => elsewhere.listen(0, '127.0.0.2', r));
  const other = `http://127.0.0.2:${(elsewhere.address() as AddressInfo).port}`;
  try {
    for (const extraHops of [1, 0]) {
      const site = (req: import('node:http').IncomingMessage, res: import('node:http').ServerResponse) => {
        if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<title>Home</title><a href="/about">about</a> <a href="${other}/cited">cited</a> <a href="${other}/moved">moved</a>`);
        res.writeHead(200, { 'content-type': 'text/html' }).end('<title>About</title>');
      };
      await withSiteCrawl(`tm-extra-hops-${extraHops}-`, site, { name: 'Extra hops', scope: { extraHops } }, async ({ origin, dir, db, icd, crawlId }) => {
        assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') }).run(), 'finished');
        const captured = (db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId) as string[]).filter((u) => !u.endsWith('/robots.txt'));
        const excluded = Object.fromEntries(db.prepare('SELECT url, reason FROM frontier_url WHERE crawl_id = ? AND state = 4').raw().all(crawlId) as [string, string][]);
        if (extraHops === 1) {
          assert.deepEqual(captured, [`${origin}/`, `${origin}/about`, `${other}/cited`, `${other}/landing`, `${other}/moved`].sort(), 'the redirect completing a linked page is followed');
          assert.equal(excluded[`${other}/further`], 'out-of-scope-host', 'the cited page\'s own link on its host is not followed');
          assert.equal(excluded['http://127.0.0.3:9/far'], 'out-of-scope-host');
        } else {
          assert.deepEqual(captured, [`${origin}/`, `${origin}/about`]);
          assert.equal(excluded[`${other}/cited`], 'out-of-scope-host');
        }
      });
    }
  } finally {
    elsewhere.closeAllConnections();
    elsewhere.close();
  }
});
