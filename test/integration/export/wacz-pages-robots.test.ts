/**
 * A WACZ's pages.jsonl does not list a host's robots.txt that the crawl fetched for its rules, even
 * when the server answers it with an HTML page (a soft 404, as many sites do): it was listed as a
 * page, and first, ahead of the seed. Found by an exploratory session. Real parts: a loopback site,
 * the engine, a migrated SQLite database, the export job.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { serveOn, withCrawl } from '../../support/site-crawl';
import { exportWacz } from '../../support/wacz-export';

const html = (res: ServerResponse, title: string, body = '') => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${title}</title>${body}`);

test("pages.jsonl leaves out a robots.txt answered with an HTML page, and opens on the seed", { timeout: 60_000 }, async () => {
  const site = await serveOn('127.0.0.53', (req, res) => {
    const path = req.url ?? '/';
    if (path === '/robots.txt') return html(res, 'Page not found');
    if (path === '/') return html(res, 'Home', '<a href="/about">about</a>');
    if (path === '/about') return html(res, 'About');
    res.writeHead(404).end();
  });
  try {
    await withCrawl('tm-wacz-pages-robots-', { name: 'Soft 404 robots', seeds: [`${site.origin}/`] }, async ({ dir, db, icd, crawlId }) => {
      const warcDir = join(dir, 'warcs');
      assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') }).run(), 'finished');
      const robots = db.prepare("SELECT mime FROM Capture WHERE crawlId = ? AND url = ?").pluck().get(crawlId, `${site.origin}/robots.txt`);
      assert.equal(robots, 'text/html', 'robots.txt was captured, as HTML');
      const entries = await exportWacz(db, crawlId, dir, warcDir);
      const [, ...lines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
      const listed = lines.map((l) => (JSON.parse(l) as { url: string }).url);
      assert.deepEqual(listed, [`${site.origin}/`, `${site.origin}/about`], 'the seed first, then its link; no robots.txt');
    });
  } finally {
    site.close();
  }
});
