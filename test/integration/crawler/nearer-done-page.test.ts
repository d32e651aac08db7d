/**
 * maxDepth is the shortest distance from a seed: a page already fetched at the limit through a long
 * path, whose links were refused as too deep, then linked from a page nearer the seeds, has those
 * links offered again from the nearer depth, so the pages within maxDepth by that way are crawled.
 * Real parts: the engine, a migrated SQLite database, two loopback sites on addresses of their own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { serveOn, withCrawl } from '../../support/site-crawl';
import { html, rowBecomes } from '../../support/frontier-row';

/**
 * Crawls the two sites; `whileFetched`: the nearer link is found while chain/p is being fetched
 * (its links not yet planned), else once it is done and chain/q refused.
 */
async function crawlWithNearerLink(whileFetched: boolean): Promise<void> {
  let db: Database.Database | null = null;
  let doneDeepFirst = false;
  let site = '';
  // The chain's host: / → /a → chain/b → chain/p (depth 3, the limit) → chain/q (depth 4: refused).
  const chainSite: RequestListener = async (req, res) => {
    if (req.url === '/b') return html(res, '<title>B</title><a href="/p">p</a>');
    if (req.url === '/p') {
      if (whileFetched) doneDeepFirst = await rowBecomes(() => db, `${site}/near`, (r) => r.state === 2);
      return html(res, '<title>P</title><a href="/q">q</a>');
    }
    if (req.url === '/q') return html(res, '<title>Q</title>');
    res.writeHead(404).end();
  };
  const chain = await serveOn('127.0.0.75', chainSite);
  const seedSite: RequestListener = async (req, res) => {
    if (req.url === '/') return html(res, '<title>Home</title><a href="/a">a</a> <a href="/near">near</a>');
    if (req.url === '/a') return html(res, `<title>A</title><a href="${chain.origin}/b">b</a>`);
    if (req.url === '/near') {
      // Answered once chain/p was fetched at depth 3 (or is being fetched) and chain/q refused: this link to it (depth 2) is a shorter way.
      if (whileFetched) await rowBecomes(() => db, `${chain.origin}/p`, (r) => r.state === 1 && r.depth === 3);
      else doneDeepFirst = (await rowBecomes(() => db, `${chain.origin}/q`, (r) => r.state === 4)) && (await rowBecomes(() => db, `${chain.origin}/p`, (r) => r.state === 2 && r.depth === 3));
      return html(res, `<title>Near</title><a href="${chain.origin}/p">p</a>`);
    }
    res.writeHead(404).end();
  };
  const seed = await serveOn('127.0.0.76', seedSite).catch((err: unknown) => (chain.close(), Promise.reject(err)));
  site = seed.origin;
  try {
    const fields = {
      name: 'Nearer done page',
      seeds: [`${seed.origin}/`],
      scope: { maxDepth: 3, allowedHosts: ['127.0.0.75'] },
      politeness: { enabled: true, respectRobots: false, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 },
    };
    await withCrawl('tm-nearer-done-', fields, async (c) => {
      db = c.db;
      const engine = new CrawlEngine({ crawlId: c.crawlId, icd: c.icd, db: c.db, warcDir: join(c.dir, 'warcs'), spoolDir: join(c.dir, 'spool') });
      assert.equal(await engine.run(), 'finished');
      assert.ok(doneDeepFirst, whileFetched ? 'the nearer page was done while chain/p was being fetched' : 'chain/p was fetched at depth 3 and chain/q refused before the nearer link');
      const row = (url: string) => c.db.prepare('SELECT state, depth, reason FROM frontier_url WHERE crawl_id = ? AND url = ?').get(c.crawlId, url);
      assert.deepEqual(row(`${chain.origin}/p`), { state: 2, depth: 2, reason: null }, 'reachable at depth 2 from the nearer page');
      assert.deepEqual(row(`${chain.origin}/q`), { state: 2, depth: 3, reason: null }, 'its link, within maxDepth from there, crawled');
      const pages = c.db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(c.crawlId) as string[];
      const want = [`${seed.origin}/`, `${seed.origin}/a`, `${seed.origin}/near`, ...['/b', '/p', '/q'].map((p) => chain.origin + p)].sort();
      assert.deepEqual(pages.sort(), want, 'each page once');
      const stats = engine.stats();
      assert.deepEqual([stats.excluded, stats.excludedByReason, stats.queued], [0, {}, 0], 'nothing excluded, nothing left');
    });
  } finally {
    seed.close();
    chain.close();
  }
}

test('a page fetched at maxDepth through a long path, then linked from a page nearer the seeds, has its links refused as too deep crawled', { timeout: 60_000 }, () =>
  crawlWithNearerLink(false));

test('a page being fetched at maxDepth when a page nearer the seeds links to it has its links refused as too deep crawled', { timeout: 60_000 }, () =>
  crawlWithNearerLink(true));
