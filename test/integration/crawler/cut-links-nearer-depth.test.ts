/**
 * A page fetched at maxDepth, whose links the depth limit refused, and linked afterwards from a page
 * nearer the seeds: its refused links are within the limit from there, so they are followed, once,
 * and nothing past the limit is. Real parts: the engine, a migrated SQLite database, two loopback
 * sites on addresses of their own (the politeness registry is per IP), politeness on so the slow
 * nearer page holds the seed's host while the chain is fetched.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { crawlTwoSitesToDepth3, html, seedSiteLinkingNearer } from '../../support/frontier-row';

test('links a page fetched at maxDepth refused as too deep are followed once a page nearer the seeds links to it', { timeout: 60_000 }, async () => {
  let fetchedDeepFirst = false;
  await crawlTwoSitesToDepth3({
    name: 'Cut links found nearer',
    addresses: ['127.0.0.75', '127.0.0.76'],
    // The chain's host: chain/b (depth 2) → chain/c (depth 3, maxDepth) → chain/deep (depth 4: refused).
    chainSite: () => (req, res) => {
      if (req.url === '/b') return html(res, '<title>B</title><a href="/c">c</a>');
      if (req.url === '/c') return html(res, '<title>C</title><a href="/deep">deep</a>');
      if (req.url === '/deep') return html(res, '<title>Deep</title>');
      res.writeHead(404).end();
    },
    // / → /a → chain/b, and / → /near (depth 1), slow: it answers once chain/c was fetched at depth 3,
    // then links to it at depth 2.
    seedSite: seedSiteLinkingNearer((r) => r.state === 2 && r.depth === 3, (ok) => (fetchedDeepFirst = ok)),
    chainPaths: ['/b', '/c', '/deep'],
    check: (c) => {
      assert.ok(fetchedDeepFirst, 'chain/c was fetched at depth 3 before the nearer page linked to it');
      const row = (url: string) => c.db.prepare('SELECT state, depth, via_url AS via, reason FROM frontier_url WHERE crawl_id = ? AND url = ?').get(c.crawlId, url);
      assert.deepEqual(row(`${c.chain}/deep`), { state: 2, depth: 3, via: `${c.chain}/c`, reason: null }, 'its refused link, within maxDepth from there, fetched');
      assert.deepEqual(row(`${c.chain}/c`), { state: 2, depth: 2, via: `${c.seed}/near`, reason: null }, 'its row records the nearer way');
      const captured = (url: string) => c.db.prepare('SELECT depth FROM Capture WHERE crawlId = ? AND url = ?').pluck().all(c.crawlId, url);
      assert.deepEqual(captured(`${c.chain}/deep`), [3], 'captured once, at depth 3');
      assert.deepEqual(captured(`${c.chain}/c`), [3], 'captured once, at the depth it was fetched at');
      const past = c.db.prepare('SELECT COUNT(*) FROM Capture WHERE crawlId = ? AND depth > 3').pluck().get(c.crawlId);
      assert.equal(past, 0, 'nothing past maxDepth fetched');
    },
  });
});
