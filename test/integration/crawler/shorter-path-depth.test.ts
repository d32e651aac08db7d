/**
 * maxDepth is the shortest distance from a seed (as wget's --level is for a breadth-first crawl):
 * a page queued through a long path, then linked from a page nearer the seeds before it is
 * fetched, is fetched at the nearer depth, so its own links within the limit are followed. Real
 * parts: the engine, a migrated SQLite database, two loopback sites on addresses of their own
 * (the politeness registry is per IP), politeness on so a slow page holds the chain's host.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlTwoSitesToDepth3, html, rowBecomes, seedSiteLinkingNearer } from '../../support/frontier-row';

test('a page queued through a long path and then linked from a page nearer the seeds is fetched at the nearer depth, and its links within maxDepth are followed', { timeout: 60_000 }, async () => {
  let queuedDeepFirst = false;
  let nearDoneFirst = false;
  await crawlTwoSitesToDepth3({
    name: 'Shorter path',
    addresses: ['127.0.0.73', '127.0.0.74'],
    // The chain's host: / → /a → chain/b → chain/c (depth 3) → chain/deep (depth 4: past maxDepth 3).
    // chain/slow, found on chain/b before chain/c, holds the host (one request at a time) until the
    // page nearer the seeds is done, so chain/c is still queued when that page links to it.
    chainSite: (seed, db) => async (req, res) => {
      if (req.url === '/b') return html(res, '<title>B</title><a href="/slow">slow</a> <a href="/c">c</a>');
      if (req.url === '/slow') {
        nearDoneFirst = await rowBecomes(db, `${seed()}/near`, (r) => r.state === 2);
        return html(res, '<title>Slow</title>');
      }
      if (req.url === '/c') return html(res, '<title>C</title><a href="/deep">deep</a>');
      if (req.url === '/deep') return html(res, '<title>Deep</title>');
      res.writeHead(404).end();
    },
    // /near answers once the long path queued chain/c at depth 3: a nearer link then finds it queued deeper.
    seedSite: seedSiteLinkingNearer((r) => r.state === 0 && r.depth === 3, (ok) => (queuedDeepFirst = ok)),
    chainPaths: ['/b', '/c', '/deep', '/slow'],
    check: (c) => {
      assert.ok(queuedDeepFirst, 'the long path queued chain/c at depth 3 first');
      assert.ok(nearDoneFirst, 'the nearer page was done while chain/c still waited');
      const row = (url: string) => c.db.prepare('SELECT state, depth, via_url AS via, reason FROM frontier_url WHERE crawl_id = ? AND url = ?').get(c.crawlId, url);
      assert.deepEqual(row(`${c.chain}/c`), { state: 2, depth: 2, via: `${c.seed}/near`, reason: null }, 'fetched at its depth from the nearer page');
      assert.deepEqual(row(`${c.chain}/deep`), { state: 2, depth: 3, via: `${c.chain}/c`, reason: null }, 'its link, within maxDepth from there, followed');
    },
  });
});
