/**
 * A polite crawl's page whose host has nothing else queued (a seed's page) puts its links into the
 * frontier from the schedule stage, so the host's next URL is there when its delay is over rather
 * than after the page's records are compressed and committed in WARC order. A real crawl context on
 * a fresh database; the page's lease is a real one.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlContext } from '../../../worker/crawler/crawl-context';
import { scheduleStage } from '../../../worker/crawler/stages/schedule-stage';
import type { CrawlItem } from '../../../worker/crawler/stage';
import { SqliteFrontier } from '../../../worker/frontier';
import { withCrawl } from '../../support/site-crawl';

const SEED = 'http://example.org/';

async function withLeasedSeed(politeness: boolean, fn: (ctx: CrawlContext, item: CrawlItem) => Promise<void>): Promise<void> {
  const fields = { name: 'Links ahead', seeds: [SEED], politeness: { enabled: politeness, minDelayMs: 200, maxDelayMs: 200 }, scope: { include: [], exclude: ['/private/'] } };
  await withCrawl('tm-links-ahead-', fields, async ({ dir, db, icd, crawlId }) => {
    const frontier = new SqliteFrontier(db);
    const ctx = await CrawlContext.open({ crawlId, icd, db, frontier, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    try {
      const [lease] = frontier.nextMany(Date.now(), 1);
      assert.equal(lease?.url, SEED);
      const links = ['a', 'b', 'private/c'].map((p) => ({ url: `${SEED}${p}`, kind: 'navigation', anchorText: p, context: '', source: 'a@href' }));
      links.push({ url: 'http://other.example/', kind: 'navigation', anchorText: 'other', context: '', source: 'a@href' });
      await fn(ctx, { url: SEED, host: lease!.host, depth: 0, priority: 1, lease: lease!, links });
    } finally {
      await ctx.close();
      frontier.close();
    }
  });
}

const queuedUrls = (ctx: CrawlContext) =>
  // state 0: queued (worker/frontier/frontier-sql.ts)
  ctx.db.prepare("SELECT url FROM frontier_url WHERE crawl_id = ? AND state = 0 ORDER BY seq").pluck().all(ctx.crawlId) as string[];

test("a polite crawl's seed page, its host with nothing queued: its links are queued by the schedule stage, the refused ones left to the page", async () => {
  await withLeasedSeed(true, async (ctx, item) => {
    assert.equal(ctx.frontier.hostQueued(ctx.crawlId, item.host), 0);
    await scheduleStage.process(item, ctx);
    assert.deepEqual(queuedUrls(ctx), [`${SEED}a`, `${SEED}b`]);
    assert.equal(ctx.frontier.hostQueued(ctx.crawlId, item.host), 2);
    assert.deepEqual(item.plan!.candidates, [], 'nothing left for the page to queue again');
    assert.deepEqual(item.plan!.rejected.map((r) => r.url).sort(), [`${SEED}private/c`, 'http://other.example/']);
  });
});

test('a page whose host still has a URL queued, or of a crawl without politeness, leaves its links to its own commit', async () => {
  await withLeasedSeed(true, async (ctx, item) => {
    ctx.addLinks([{ url: `${SEED}waiting`, host: item.host, depth: 1, priority: 0.5, viaUrl: SEED, kind: 'navigation' }], { update: 'FIRST', provisional: false });
    assert.equal(ctx.frontier.hostQueued(ctx.crawlId, item.host), 1);
    await scheduleStage.process(item, ctx);
    assert.deepEqual(queuedUrls(ctx), [`${SEED}waiting`]);
    assert.deepEqual(item.plan!.candidates.map((c) => c.url), [`${SEED}a`, `${SEED}b`]);
  });
  await withLeasedSeed(false, async (ctx, item) => {
    await scheduleStage.process(item, ctx);
    assert.deepEqual(queuedUrls(ctx), []);
    assert.deepEqual(item.plan!.candidates.map((c) => c.url), [`${SEED}a`, `${SEED}b`]);
  });
});
