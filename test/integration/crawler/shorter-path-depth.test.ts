/**
 * maxDepth is the shortest distance from a seed (as wget's --level is for a breadth-first crawl):
 * a page queued through a long path, then linked from a page nearer the seeds before it is
 * fetched, is fetched at the nearer depth, so its own links within the limit are followed. Real
 * parts: the engine, a migrated SQLite database, two loopback sites on addresses of their own
 * (the politeness registry is per IP), politeness on so a slow page holds the chain's host.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { serveOn, withCrawl } from '../../support/site-crawl';
import { html, rowBecomes } from '../../support/frontier-row';

test('a page queued through a long path and then linked from a page nearer the seeds is fetched at the nearer depth, and its links within maxDepth are followed', { timeout: 60_000 }, async () => {
  let db: Database.Database | null = null;
  let queuedDeepFirst = false;
  let nearDoneFirst = false;
  // The chain's host: / → /a → chain/b → chain/c (depth 3) → chain/deep (depth 4: past maxDepth 3).
  // chain/slow, found on chain/b before chain/c, holds the host (one request at a time) until the
  // page nearer the seeds is done, so chain/c is still queued when that page links to it.
  let site = '';
  const chainSite: RequestListener = async (req, res) => {
    if (req.url === '/b') return html(res, '<title>B</title><a href="/slow">slow</a> <a href="/c">c</a>');
    if (req.url === '/slow') {
      nearDoneFirst = await rowBecomes(() => db, `${site}/near`, (r) => r.state === 2);
      return html(res, '<title>Slow</title>');
    }
    if (req.url === '/c') return html(res, '<title>C</title><a href="/deep">deep</a>');
    if (req.url === '/deep') return html(res, '<title>Deep</title>');
    res.writeHead(404).end();
  };
  const chain = await serveOn('127.0.0.73', chainSite);
  const seedSite: RequestListener = async (req, res) => {
    if (req.url === '/') return html(res, '<title>Home</title><a href="/a">a</a> <a href="/near">near</a>');
    if (req.url === '/a') return html(res, `<title>A</title><a href="${chain.origin}/b">b</a>`);
    if (req.url === '/near') {
      // Answered once the long path queued chain/c at depth 3: a nearer link then finds it queued deeper.
      queuedDeepFirst = await rowBecomes(() => db, `${chain.origin}/c`, (r) => r.state === 0 && r.depth === 3);
      return html(res, `<title>Near</title><a href="${chain.origin}/c">c</a>`);
    }
    res.writeHead(404).end();
  };
  const seed = await serveOn('127.0.0.74', seedSite).catch((err: unknown) => (chain.close(), Promise.reject(err)));
  site = seed.origin;
  try {
    const fields = {
      name: 'Shorter path',
      seeds: [`${seed.origin}/`],
      scope: { maxDepth: 3, allowedHosts: ['127.0.0.73'] },
      politeness: { enabled: true, respectRobots: false, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 },
    };
    await withCrawl('tm-shorter-path-', fields, async (c) => {
      db = c.db;
      const engine = new CrawlEngine({ crawlId: c.crawlId, icd: c.icd, db: c.db, warcDir: join(c.dir, 'warcs'), spoolDir: join(c.dir, 'spool') });
      assert.equal(await engine.run(), 'finished');
      assert.ok(queuedDeepFirst, 'the long path queued chain/c at depth 3 first');
      assert.ok(nearDoneFirst, 'the nearer page was done while chain/c still waited');
      const row = (url: string) => c.db.prepare('SELECT state, depth, via_url AS via, reason FROM frontier_url WHERE crawl_id = ? AND url = ?').get(c.crawlId, url);
      assert.deepEqual(row(`${chain.origin}/c`), { state: 2, depth: 2, via: `${seed.origin}/near`, reason: null }, 'fetched at its depth from the nearer page');
      assert.deepEqual(row(`${chain.origin}/deep`), { state: 2, depth: 3, via: `${chain.origin}/c`, reason: null }, 'its link, within maxDepth from there, followed');
      const pages = c.db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(c.crawlId) as string[];
      const want = [`${seed.origin}/`, `${seed.origin}/a`, `${seed.origin}/near`, ...['/b', '/c', '/deep', '/slow'].map((p) => chain.origin + p)].sort();
      assert.deepEqual(pages.sort(), want, 'each page once');
      const stats = engine.stats();
      assert.deepEqual([stats.excluded, stats.excludedByReason, stats.queued], [0, {}, 0], 'nothing excluded, nothing left');
    });
  } finally {
    seed.close();
    chain.close();
  }
});
