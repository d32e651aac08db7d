/**
 * maxDepth is the shortest distance from a seed: a page already fetched at the limit through a long
 * path, whose links were refused as too deep, then linked from a page nearer the seeds, has those
 * links offered again from the nearer depth, so the pages within maxDepth by that way are crawled.
 * Real parts: the engine, a migrated SQLite database, two loopback sites on addresses of their own.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlTwoSitesToDepth3, html, rowBecomes } from '../../support/frontier-row';

/**
 * Crawls the two sites; `whileFetched`: the nearer link is found while chain/p is being fetched
 * (its links not yet planned), else once it is done and chain/q refused.
 */
async function crawlWithNearerLink(whileFetched: boolean): Promise<void> {
  let doneDeepFirst = false;
  await crawlTwoSitesToDepth3({
    name: 'Nearer done page',
    addresses: ['127.0.0.75', '127.0.0.76'],
    // The chain's host: / → /a → chain/b → chain/p (depth 3, the limit) → chain/q (depth 4: refused).
    chainSite: (seed, db) => async (req, res) => {
      if (req.url === '/b') return html(res, '<title>B</title><a href="/p">p</a>');
      if (req.url === '/p') {
        if (whileFetched) doneDeepFirst = await rowBecomes(db, `${seed()}/near`, (r) => r.state === 2);
        return html(res, '<title>P</title><a href="/q">q</a>');
      }
      if (req.url === '/q') return html(res, '<title>Q</title>');
      res.writeHead(404).end();
    },
    seedSite: (chain, db) => async (req, res) => {
      if (req.url === '/') return html(res, '<title>Home</title><a href="/a">a</a> <a href="/near">near</a>');
      if (req.url === '/a') return html(res, `<title>A</title><a href="${chain}/b">b</a>`);
      if (req.url === '/near') {
        // Answered once chain/p was fetched at depth 3 (or is being fetched) and chain/q refused: this link to it (depth 2) is a shorter way.
        if (whileFetched) await rowBecomes(db, `${chain}/p`, (r) => r.state === 1 && r.depth === 3);
        else doneDeepFirst = (await rowBecomes(db, `${chain}/q`, (r) => r.state === 4)) && (await rowBecomes(db, `${chain}/p`, (r) => r.state === 2 && r.depth === 3));
        return html(res, `<title>Near</title><a href="${chain}/p">p</a>`);
      }
      res.writeHead(404).end();
    },
    chainPaths: ['/b', '/p', '/q'],
    check: (c) => {
      assert.ok(doneDeepFirst, whileFetched ? 'the nearer page was done while chain/p was being fetched' : 'chain/p was fetched at depth 3 and chain/q refused before the nearer link');
      const row = (url: string) => c.db.prepare('SELECT state, depth, reason FROM frontier_url WHERE crawl_id = ? AND url = ?').get(c.crawlId, url);
      assert.deepEqual(row(`${c.chain}/p`), { state: 2, depth: 2, reason: null }, 'reachable at depth 2 from the nearer page');
      assert.deepEqual(row(`${c.chain}/q`), { state: 2, depth: 3, reason: null }, 'its link, within maxDepth from there, crawled');
    },
  });
}

test('a page fetched at maxDepth through a long path, then linked from a page nearer the seeds, has its links refused as too deep crawled', { timeout: 60_000 }, () =>
  crawlWithNearerLink(false));

test('a page being fetched at maxDepth when a page nearer the seeds links to it has its links refused as too deep crawled', { timeout: 60_000 }, () =>
  crawlWithNearerLink(true));
