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
import type { RequestListener, ServerResponse } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { serveOn, withCrawl, withSiteCrawl } from '../../support/site-crawl';
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

// Found by a differential exploration: a URL's frontier row kept the kind it was stored with first,
// so a page the site frames on its home page and links to from another page was left out of
// pages.jsonl (and, already fetched, the later link never reached the frontier).
const framedAndLinked: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  if (path === '/') return html(res, 'Home', '<iframe src="/framed"></iframe><iframe src="/moved-frame"></iframe><iframe src="/only-framed"></iframe><a href="/about">about</a>');
  if (path === '/about') return html(res, 'About', '<a href="/framed">the framed page</a> <a href="/frame-moved-here">the moved one</a>');
  if (path === '/moved-frame') return void res.writeHead(302, { location: '/frame-moved-here' }).end();
  if (['/framed', '/frame-moved-here', '/only-framed'].includes(path)) return html(res, path.slice(1));
  res.writeHead(404).end();
};

/** Crawls framedAndLinked with the ICD `fields`, exports a WACZ: the stored kinds of /framed and /only-framed, and the paths pages.jsonl lists. */
async function framedAndLinkedCrawl(prefix: string, fields: Record<string, unknown>): Promise<{ kinds: unknown[]; listed: string[] }> {
  let found: { kinds: unknown[]; listed: string[] } | null = null;
  await withSiteCrawl(prefix, framedAndLinked, { name: 'Framed and linked', ...fields }, async ({ dir, db, icd, crawlId, origin }) => {
    const warcDir = join(dir, 'warcs');
    assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') }).run(), 'finished');
    const kind = db.prepare('SELECT kind FROM frontier_url WHERE crawl_id = ? AND url = ?').pluck();
    const entries = await exportWacz(db, crawlId, dir, warcDir);
    const [, ...lines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
    found = {
      kinds: ['/framed', '/only-framed'].map((p) => kind.get(crawlId, `${origin}${p}`)),
      listed: lines.map((l) => new URL((JSON.parse(l) as { url: string }).url).pathname).sort(),
    };
  });
  return found!;
}

test('a URL first found as an iframe and later linked as a page is listed among the pages', { timeout: 60_000 }, async () => {
  const crawl = await framedAndLinkedCrawl('tm-wacz-pages-linked-frame-', {});
  assert.deepEqual(crawl.kinds, ['navigation', 'requisite']);
  assert.deepEqual(crawl.listed, ['/', '/about', '/frame-moved-here', '/framed']);
});

// A frame is listed for a link to it as a page only when the scope takes that link: past maxDepth the
// crawl would not have fetched it as a page, and Browsertrix lists no page it did not crawl as one
// (its frames never); the frame replays inside the page that frames it.
test('a link the scope refuses as too deep makes no page of a frame captured before', { timeout: 60_000 }, async () => {
  const crawl = await framedAndLinkedCrawl('tm-wacz-pages-too-deep-link-', { scope: { maxDepth: 1 } });
  assert.deepEqual(crawl.kinds, ['requisite', 'requisite']);
  assert.deepEqual(crawl.listed, ['/', '/about']);
});

test('a link the scope refuses makes no page of a frame, when links rescore the URLs they find too', { timeout: 60_000 }, async () => {
  // maxDepth 1: the frames (depth 1) are fetched, /about's links to them (depth 2) are past the limit.
  const focus = { enabled: true, keywords: [{ term: 'about' }], updateFunction: 'AVG' };
  const crawl = await framedAndLinkedCrawl('tm-wacz-pages-refused-link-', { scope: { maxDepth: 1 }, focus });
  assert.deepEqual(crawl.kinds, ['requisite', 'requisite']);
  assert.deepEqual(crawl.listed, ['/', '/about']);
});
