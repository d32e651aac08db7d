/**
 * A requisite fetched past the depth limit, whose own requisite the embed-hop rule refused there, is
 * found again nearer its page: the refused link is planned again with the embed hops of the nearer
 * way, as links are planned on a first visit (url/scope.ts MAX_EMBED_HOPS), not with the one-hop rule
 * of a page whose embed hops are unknown. Found by a differential exploration. Real parts: the
 * engine, a migrated SQLite database, a loopback site whose slow frame waits for the deep one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { RequestListener } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { html, rowBecomes } from '../../support/frontier-row';
import { withSiteCrawl } from '../../support/site-crawl';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

test('a frame found nearer its page after the embed-hop rule cut its image gets the image, as a first visit there would', { timeout: 60_000 }, async () => {
  let db: Database.Database | null = null;
  let origin = '';
  let deepFirst = false;
  // maxDepth 0: / → /f1 → /f2 → /f3 (three embed hops) → /f3.png (four: refused). /slow, the seed's
  // other frame, answers once /f3 was fetched, and frames it two embed hops from the seed: from
  // there the image is three, within MAX_EMBED_HOPS.
  const site: RequestListener = async (req, res) => {
    if (req.url === '/') return html(res, '<title>Home</title><iframe src="/f1"></iframe><iframe src="/slow"></iframe>');
    if (req.url === '/f1') return html(res, '<iframe src="/f2"></iframe>');
    if (req.url === '/f2') return html(res, '<iframe src="/f3"></iframe>');
    if (req.url === '/f3') return html(res, '<img src="/f3.png">');
    if (req.url === '/slow') {
      deepFirst = await rowBecomes(() => db, `${origin}/f3`, (r) => r.state === 2);
      return html(res, '<iframe src="/f3"></iframe>');
    }
    if (req.url === '/f3.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    res.writeHead(404).end();
  };
  await withSiteCrawl('tm-cut-embeds-', site, { name: 'Cut embeds found nearer', scope: { maxDepth: 0 } }, async (c) => {
    db = c.db;
    origin = c.origin;
    assert.equal(await new CrawlEngine({ crawlId: c.crawlId, icd: c.icd, db: c.db, warcDir: join(c.dir, 'warcs'), spoolDir: join(c.dir, 'spool') }).run(), 'finished');
    assert.ok(deepFirst, '/f3 was fetched three embed hops from the seed before /slow framed it');
    const row = (path: string) => c.db.prepare('SELECT state, depth, via_url AS via, reason FROM frontier_url WHERE crawl_id = ? AND url = ?').get(c.crawlId, `${origin}${path}`);
    assert.deepEqual(row('/f3'), { state: 2, depth: 2, via: `${origin}/slow`, reason: null }, 'its row records the nearer way');
    assert.deepEqual(row('/f3.png'), { state: 2, depth: 3, via: `${origin}/f3`, reason: null }, 'the image, three embed hops from the seed that way, fetched');
  });
});
