import assert from 'node:assert/strict';
import type { RequestListener, ServerResponse } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import { CrawlEngine } from '../../worker/crawler/crawl-engine';
import { serveOn, withCrawl } from './site-crawl';

/** Answers with an HTML page. */
export const html = (res: ServerResponse, body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(body);

/** Waits until the crawl's frontier row of `url` passes `ok`, at most 10 s; whether it did. */
export async function rowBecomes(db: () => Database.Database | null, url: string, ok: (row: { state: number; depth: number }) => boolean): Promise<boolean> {
  for (const end = Date.now() + 10_000; Date.now() < end; await sleep(20)) {
    const row = db()?.prepare('SELECT state, depth FROM frontier_url WHERE url = ?').get(url) as { state: number; depth: number } | undefined;
    if (row && ok(row)) return true;
  }
  return false;
}

/**
 * The seed site of crawlTwoSitesToDepth3: `/` links `/a` and `/near` (depth 1), `/a` links the
 * chain's `/b`; `/near` answers once the chain's `/c` row passes `ready` (a frontier state the test
 * waits for), then links to it, at depth 2. `waited` hears whether the row got there.
 */
export function seedSiteLinkingNearer(ready: (row: { state: number; depth: number }) => boolean, waited: (ok: boolean) => void) {
  return (chain: string, db: () => Database.Database | null): RequestListener => async (req, res) => {
    if (req.url === '/') return html(res, '<title>Home</title><a href="/a">a</a> <a href="/near">near</a>');
    if (req.url === '/a') return html(res, `<title>A</title><a href="${chain}/b">b</a>`);
    if (req.url === '/near') {
      waited(await rowBecomes(db, `${chain}/c`, ready));
      return html(res, `<title>Near</title><a href="${chain}/c">c</a>`);
    }
    res.writeHead(404).end();
  };
}

/** What a check of a two-site depth crawl gets: the crawl, and the two sites' origins. */
export interface DepthCrawl {
  db: Database.Database;
  crawlId: number;
  chain: string;
  seed: string;
}

/**
 * A crawl with maxDepth 3 of two loopback sites on addresses of their own (the politeness registry
 * is per IP), politeness on without delays: the seed site (`seedSite`, given the chain's origin)
 * links into the chain site (`chainSite`, given the seed's), whose host alone is in scope beside
 * the seed's. Runs the engine to its end, then `check`, then asserts each of `pages` (the seed's
 * `/`, `/a`, `/near`, and `chainPaths` on the chain) captured once, nothing excluded, nothing left.
 * The sites' handlers read the crawl's database through `db()` to wait for a frontier state.
 */
export async function crawlTwoSitesToDepth3(o: {
  name: string;
  addresses: [chain: string, seed: string];
  chainSite: (seedOrigin: () => string, db: () => Database.Database | null) => RequestListener;
  seedSite: (chainOrigin: string, db: () => Database.Database | null) => RequestListener;
  chainPaths: string[];
  check: (c: DepthCrawl) => void;
}): Promise<void> {
  let db: Database.Database | null = null;
  let seedOrigin = '';
  const chain = await serveOn(o.addresses[0], o.chainSite(() => seedOrigin, () => db));
  const seed = await serveOn(o.addresses[1], o.seedSite(chain.origin, () => db)).catch((err: unknown) => (chain.close(), Promise.reject(err)));
  seedOrigin = seed.origin;
  try {
    const fields = {
      name: o.name,
      seeds: [`${seed.origin}/`],
      scope: { maxDepth: 3, allowedHosts: [o.addresses[0]] },
      politeness: { enabled: true, respectRobots: false, minDelayMs: 0, maxDelayMs: 0, delayFactor: 0 },
    };
    await withCrawl('tm-depth-3-', fields, async (c) => {
      db = c.db;
      const engine = new CrawlEngine({ crawlId: c.crawlId, icd: c.icd, db: c.db, warcDir: join(c.dir, 'warcs'), spoolDir: join(c.dir, 'spool') });
      assert.equal(await engine.run(), 'finished');
      o.check({ db: c.db, crawlId: c.crawlId, chain: chain.origin, seed: seed.origin });
      const pages = c.db.prepare('SELECT url FROM Capture WHERE crawlId = ? ORDER BY url').pluck().all(c.crawlId) as string[];
      const want = [`${seed.origin}/`, `${seed.origin}/a`, `${seed.origin}/near`, ...o.chainPaths.map((p) => chain.origin + p)].sort();
      assert.deepEqual(pages.sort(), want, 'each page once');
      const stats = engine.stats();
      assert.deepEqual([stats.excluded, stats.excludedByReason, stats.queued], [0, {}, 0], 'nothing excluded, nothing left');
    });
  } finally {
    seed.close();
    chain.close();
  }
}
