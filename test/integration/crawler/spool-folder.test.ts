/**
 * A crawl's spool folder holds bodies too large for memory only while their records are written.
 * It used to stay behind after every run, one per crawl for good (bench/soak.ts: 2 a round), with
 * whatever a killed worker had been spooling. Real parts: a migrated SQLite database, the engine,
 * a loopback site with a page over the 1 MB that stays in memory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

test('a run empties its spool folder as it starts (a killed worker leaves files there) and removes it when it ends', { timeout: 60_000 }, async () => {
  const big = randomBytes(1_500_000).toString('base64');
  const site: RequestListener = (req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/big">big</a> <a href="/small">small</a>');
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${big}</p>`);
    if (req.url === '/small') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>small</p>');
    res.writeHead(404).end();
  };
  await withSiteCrawl('tm-spool-', site, { name: 'Spool' }, async ({ origin, dir, db, icd, crawlId }) => {
    const spoolDir = join(dir, 'spool', String(crawlId));
    // What a worker killed while spooling a body leaves.
    mkdirSync(spoolDir, { recursive: true });
    writeFileSync(join(spoolDir, 'body-left-by-a-killed-worker.bin'), randomBytes(64 * 1024));

    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs', String(crawlId)), spoolDir });
    assert.equal(await engine.run(), 'finished');
    const size = db.prepare('SELECT size FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, `${origin}/big`) as number;
    assert.ok(size > 2_000_000, `the big page was captured whole through the spool (${size} bytes)`);
    assert.equal(existsSync(spoolDir), false, 'the spool folder is gone');
  });
});
