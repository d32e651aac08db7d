/**
 * A windows-1252 page's links with non-ASCII in their query are requested as a browser requests
 * them, the query encoded in windows-1252 (`?q=caf%E9`), not in UTF-8 (`?q=caf%C3%A9`): found by
 * an exploratory session comparing the requests of Tidemark and Chromium in a server's log. The
 * server here answers only the browser's spelling. Real parts: a loopback site, the engine, a
 * migrated SQLite database.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';

const latin1 = (s: string) => Buffer.from(s, 'latin1');

const site: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  const send = (type: string, body: Buffer) => void res.writeHead(200, { 'content-type': type }).end(body);
  if (path === '/') return send('text/html; charset=windows-1252', latin1('<!doctype html><link rel=stylesheet href="/s.css"><a href="/caf\xe9?q=caf\xe9">caf\xe9</a><img src="/i.png?q=&eacute;">'));
  if (path === '/s.css') return send('text/css; charset=windows-1252', latin1('body{background:url(/bg.png?q=caf\xe9)}'));
  if (path === '/caf%C3%A9?q=caf%E9') return send('text/html; charset=windows-1252', latin1('<p>the caf\xe9</p>'));
  if (path === '/i.png?q=%E9' || path === '/bg.png?q=caf%E9') return send('image/png', Buffer.from('89504e470d0a1a0a', 'hex'));
  res.writeHead(404).end();
};

test("a windows-1252 page's queries are requested in windows-1252, as browsers request them", { timeout: 60_000 }, async () => {
  const fields = { name: 'Caf\u00e9 pages', politeness: { enabled: false, concurrency: 1, respectRobots: false }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-legacy-queries-', site, fields, async ({ dir, db, icd, crawlId, origin }) => {
    assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') }).run(), 'finished');
    const captured = (db.prepare('SELECT url, status FROM Capture WHERE crawlId = ? ORDER BY url').all(crawlId) as { url: string; status: number }[])
      .map((c) => `${c.status} ${c.url.slice(origin.length)}`);
    assert.deepEqual(captured, ['200 /', '200 /bg.png?q=caf%E9', '200 /caf%C3%A9?q=caf%E9', '200 /i.png?q=%E9', '200 /s.css']);
  });
});

// Found by a differential exploration: focused analysis reads anchor texts and paragraphs in its own
// pass over the page, which resolved a windows-1252 page's references again in UTF-8 when the page
// had a <base> (no resolutions are handed on then): the ?q=café link, queued as ?q=caf%E9, was not
// found there and was scored without its anchor text and paragraph.
test("focused analysis reads the anchor text of a windows-1252 page's query links after a <base>", { timeout: 60_000 }, async () => {
  const paragraph = (href: string) => `<p>Harbour tide tables for the coast: <a href="${href}">harbour tide tables</a></p>`;
  const page = latin1(`<!doctype html><head><base href="/tides/"></head><body>${paragraph('table?q=caf\xe9')}${paragraph('table-plain')}<p>Other news of the town.</p></body>`);
  const focusedSite: RequestListener = (req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=windows-1252' }).end(page);
    res.writeHead(404).end();
  };
  const fields = { name: 'Caf\u00e9 tides', scope: { maxDepth: 1 }, focus: { enabled: true, keywords: [{ term: 'harbour' }, { term: 'tide' }] }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-legacy-focus-', focusedSite, fields, async ({ dir, db, icd, crawlId, origin }) => {
    assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') }).run(), 'finished');
    const textScore = (path: string) => {
      const breakdown = db.prepare('SELECT breakdown FROM frontier_url WHERE crawl_id = ? AND url = ?').pluck().get(crawlId, `${origin}${path}`) as string;
      return (JSON.parse(breakdown) as { scores: { text: number } }).scores.text;
    };
    assert.ok(textScore('/tides/table-plain') > 0);
    assert.equal(textScore('/tides/table?q=caf%E9'), textScore('/tides/table-plain'), 'the same anchor text and paragraph, the same text score');
  });
});
