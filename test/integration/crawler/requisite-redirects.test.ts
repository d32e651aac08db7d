/**
 * A page requisite on another host that answers a redirect (a CDN image to its storage host) is
 * captured through the redirect, as Heritrix and Browsertrix do, so the page replays whole; a
 * navigation link redirecting out of the scope is still refused. Real parts: the engine, a
 * migrated SQLite database, loopback sites on distinct addresses (distinct hosts).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { inspectUrl } from '../../../worker/frontier/url-inspection';
import { inspectionVerdict } from '../../../worker/frontier/url-outcome';
import { serveOn, withCrawl } from '../../support/site-crawl';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

test('a requisite on another host redirecting to a third is captured there; a navigation link redirecting out of scope is not', { timeout: 60_000 }, async () => {
  const hosts: Record<string, string> = {};
  const page = (res: import('node:http').ServerResponse, body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);
  const seedSite = await serveOn('127.0.0.41', (req, res) => {
    const { cdn, store } = hosts as { cdn: string; store: string };
    if (req.url === '/') return page(res, `<title>Home</title><img src="${cdn}/a.png"><img src="${cdn}/chain.png"><img src="${cdn}/p.png"><img src="${cdn}/r.png"><a href="${cdn}/both.png"><img src="${cdn}/both.png"></a><a href="/inner">inner</a> <a href="/out">out</a> <a href="${cdn}/go">go</a>`);
    // At the depth limit (maxDepth 1): its requisite sits one hop past it, the redirect one further.
    if (req.url === '/inner') return page(res, `<title>Inner</title><img src="${cdn}/edge.png">`);
    if (req.url === '/out') return void res.writeHead(302, { location: `${store}/page` }).end();
    res.writeHead(404).end();
  });
  const cdnSite = await serveOn('127.0.0.42', (req, res) => {
    const { store } = hosts as { store: string };
    if (req.url === '/a.png') return void res.writeHead(302, { location: `${store}/a.png` }).end();
    if (req.url === '/chain.png') return void res.writeHead(301, { location: '/chain2.png' }).end();
    if (req.url === '/chain2.png') return void res.writeHead(302, { location: `${store}/chain.png` }).end();
    if (req.url === '/edge.png') return void res.writeHead(302, { location: `${store}/edge.png` }).end();
    if (req.url === '/p.png') return void res.writeHead(302, { location: `${store}/private/p.png` }).end();
    if (req.url === '/both.png') return void res.writeHead(302, { location: `${store}/both.png` }).end();
    if (req.url === '/r.png') return void res.writeHead(302, { location: `${store}/blocked/r.png` }).end();
    if (req.url === '/go') return void res.writeHead(302, { location: `${store}/page` }).end();
    res.writeHead(404).end();
  });
  const storeSite = await serveOn('127.0.0.43', (req, res) => {
    if (req.url === '/robots.txt') return void res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: *\nDisallow: /blocked/\n');
    if (req.url === '/page') return page(res, '<title>Elsewhere</title>');
    res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
  });
  Object.assign(hosts, { cdn: cdnSite.origin, store: storeSite.origin });
  const seed = seedSite.origin;
  const { cdn, store } = hosts as { cdn: string; store: string };
  try {
    await withCrawl('tm-requisite-redirects-', { name: 'Requisite redirects', seeds: [`${seed}/`], scope: { maxDepth: 1, exclude: ['/private/'] } }, async ({ dir, db, icd, crawlId }) => {
      assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') }).run(), 'finished');
      const captured = (db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(crawlId) as string[]).filter((u) => !u.endsWith('/robots.txt'));
      const excluded = Object.fromEntries(db.prepare('SELECT url, reason FROM frontier_url WHERE crawl_id = ? AND state = 4').raw().all(crawlId) as [string, string][]);
      for (const url of [`${cdn}/a.png`, `${store}/a.png`]) assert.ok(captured.includes(url), `${url} captured: the requisite and its redirect target`);
      for (const url of [`${cdn}/chain.png`, `${cdn}/chain2.png`, `${store}/chain.png`]) assert.ok(captured.includes(url), `${url} captured: a chain of two redirects`);
      for (const url of [`${seed}/inner`, `${cdn}/edge.png`, `${store}/edge.png`]) assert.ok(captured.includes(url), `${url} captured: a requisite of a page at the depth limit, through its redirect`);
      for (const url of [`${cdn}/both.png`, `${store}/both.png`]) assert.ok(captured.includes(url), `${url} captured: an image the page also links to is a requisite`);
      assert.equal(excluded[`${store}/private/p.png`], 'exclude-match', 'exclude patterns still win over a requisite\'s redirect');
      const reason = db.prepare('SELECT reason FROM frontier_url WHERE crawl_id = ? AND url = ?').pluck();
      assert.equal(reason.get(crawlId, `${store}/blocked/r.png`), 'robots-disallowed', 'and robots.txt');
      assert.ok(!captured.includes(`${store}/blocked/r.png`));
      assert.ok(captured.includes(`${seed}/out`));
      assert.equal(excluded[`${store}/page`], 'out-of-scope-host', 'an in-scope page redirecting out of scope is still refused');
      assert.equal(excluded[`${cdn}/go`], 'out-of-scope-host', 'a navigation link out of scope is refused');
      const store3 = db.prepare('SELECT kind, depth, scope_hops FROM frontier_url WHERE crawl_id = ? AND url = ?');
      assert.deepEqual(store3.get(crawlId, `${store}/a.png`), { kind: 'redirect', depth: 2, scope_hops: 1 });
      assert.deepEqual(store3.get(crawlId, `${store}/edge.png`), { kind: 'redirect', depth: 3, scope_hops: 1 });
      const looked = inspectUrl(db, crawlId, icd, `${store}/a.png`);
      assert.deepEqual([looked.entry?.kind, looked.entry?.scopeHops, looked.takenAs], ['redirect', 1, 'requisite'], 'the URL inspector says a requisite took it');
      assert.match(inspectionVerdict(looked), /outside the scope, 1 link from it: taken as a page requisite/);
    });
  } finally {
    for (const s of [seedSite, cdnSite, storeSite]) s.close();
  }
});
