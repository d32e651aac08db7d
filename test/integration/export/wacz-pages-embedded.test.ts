/**
 * A WACZ's pages.jsonl lists the pages the crawl reached as pages (seeds, navigation links and the
 * redirects they answer), not the HTML it fetched as a page's requisite (frames, iframes, an
 * `<object>`'s HTML, another host's iframe, an iframe's redirect): ReplayWeb.page's page list was
 * filled with such fragments, which Browsertrix does not list. Found by an exploratory session.
 * Real parts: loopback sites on two hosts, the engine, a migrated SQLite database, the export job.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { ServerResponse } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { serveOn, withCrawl } from '../../support/site-crawl';
import { exportWacz } from '../../support/wacz-export';

const html = (res: ServerResponse, title: string, body = '') => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${title}</title>${body}`);

test('pages.jsonl lists the pages reached as pages, not the frames, iframes and embedded HTML', { timeout: 60_000 }, async () => {
  const widget = await serveOn('127.0.0.52', (req, res) => (req.url === '/robots.txt' ? void res.writeHead(404).end() : html(res, 'Widget')));
  const site = await serveOn('127.0.0.51', (req, res) => {
    const path = req.url ?? '/';
    if (path === '/') {
      return html(res, 'Home', `<iframe src="/iframe"></iframe><iframe src="/moved-frame"></iframe><iframe src="${widget.origin}/w"></iframe><object data="/object"></object><a href="/old">old</a><a href="/frames">frames</a>`);
    }
    if (path === '/frames') return html(res, 'Frameset', '<frameset><frame src="/frame"></frameset>');
    if (path === '/moved-frame') return void res.writeHead(302, { location: '/frame-moved-here' }).end();
    if (path === '/old') return void res.writeHead(301, { location: '/new' }).end();
    if (['/iframe', '/frame-moved-here', '/object', '/frame', '/new'].includes(path)) return html(res, path.slice(1));
    res.writeHead(404).end();
  });
  try {
    await withCrawl('tm-wacz-pages-embedded-', { name: 'Embedded pages', seeds: [`${site.origin}/`] }, async ({ dir, db, icd, crawlId }) => {
      const warcDir = join(dir, 'warcs');
      assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') }).run(), 'finished');
      const captured = db.prepare("SELECT url FROM Capture WHERE crawlId = ? AND status = 200 AND mime LIKE 'text/html%'").pluck().all(crawlId) as string[];
      assert.equal(captured.length, 8, `every HTML document captured: ${captured.join(', ')}`);
      const entries = await exportWacz(db, crawlId, dir, warcDir);
      const [, ...lines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
      const listed = lines.map((l) => (JSON.parse(l) as { url: string }).url).sort();
      assert.deepEqual(listed, [`${site.origin}/`, `${site.origin}/frames`, `${site.origin}/new`]);
    });
  } finally {
    site.close();
    widget.close();
  }
});
