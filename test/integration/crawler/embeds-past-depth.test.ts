/**
 * A page at the depth limit is archived whole: the requisites of its requisites (a stylesheet's
 * images, @import-ed sheets and their fonts, an iframe's images and stylesheets) are taken past
 * maxDepth as Heritrix's transclusions are, while the iframe document's navigation links are not.
 * Found by an exploratory session: with maxDepth 0 the seed's stylesheet and iframe were fetched
 * but nothing they pulled in. Real parts: the engine, a migrated SQLite database, a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

const SITE: Record<string, [type: string, body: string | Buffer]> = {
  '/': ['text/html', '<title>Home</title><link rel="stylesheet" href="/main.css"><iframe src="/frame.html"></iframe><a href="/next">next</a>'],
  '/main.css': ['text/css', '@import "/more.css"; body { background: url(/bg.png) } h1 { background: url(/moved.png) }'],
  '/more.css': ['text/css', '@font-face { font-family: X; src: url(/font.woff2) }'],
  '/frame.html': ['text/html', '<title>Frame</title><link rel="stylesheet" href="/frame.css"><img src="/frame.png"><a href="/from-frame">away</a>'],
  // Page → iframe → stylesheet → image: three embed hops.
  '/frame.css': ['text/css', 'div { background: url(/frame-bg.png) }'],
  '/font.woff2': ['font/woff2', 'wOF2'],
  '/next': ['text/html', '<title>Next</title>'],
  '/from-frame': ['text/html', '<title>From the frame</title>'],
};

function site(req: { url?: string }, res: ServerResponse): void {
  if (req.url === '/moved.png') return void res.writeHead(302, { location: '/moved-to.png' }).end();
  const entry = SITE[req.url ?? ''];
  if (entry) return void res.writeHead(200, { 'content-type': entry[0] }).end(entry[1]);
  if (req.url?.endsWith('.png')) return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  res.writeHead(404).end();
}

test('with maxDepth 0 the seed is archived whole, requisites of requisites included; the iframe\'s links are not followed', { timeout: 60_000 }, async () => {
  await withSiteCrawl('tm-embeds-past-depth-', site, { name: 'Embeds past depth', scope: { maxDepth: 0 } }, async ({ origin, dir, db, icd, crawlId }) => {
    assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') }).run(), 'finished');
    const captured = new Set(db.prepare('SELECT url FROM Capture WHERE crawlId = ?').pluck().all(crawlId) as string[]);
    const wanted = ['/main.css', '/bg.png', '/more.css', '/font.woff2', '/moved.png', '/moved-to.png', '/frame.html', '/frame.css', '/frame.png', '/frame-bg.png'];
    assert.deepEqual(wanted.filter((p) => !captured.has(`${origin}${p}`)), [], 'every requisite of the seed and of its requisites captured');
    const reason = db.prepare('SELECT reason FROM frontier_url WHERE crawl_id = ? AND url = ?').pluck();
    assert.equal(reason.get(crawlId, `${origin}/next`), 'max-depth', 'the seed\'s navigation link is past the limit');
    assert.equal(reason.get(crawlId, `${origin}/from-frame`), 'max-depth', 'so is the iframe document\'s');
  });
});
