/**
 * The schedule stage plans a large sitemap's links in slices, with turns of the event loop between
 * them (every host's politeness timer waits while the crawl's thread is held); a page with few
 * links is planned at once, without a turn to wait for. A real crawl context on a fresh database;
 * then the CLI's crawl of such a sitemap, on loopback.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlContext } from '../../../worker/crawler/crawl-context';
import * as schedule from '../../../worker/crawler/stages/schedule-stage';
import { commitLinksAhead, LINKS_COMMITTED_AHEAD_ABOVE, LINKS_COMMITTED_AT_ONCE } from '../../../worker/crawler/stages/schedule-stage';
import type { CrawlItem } from '../../../worker/crawler/stage';
import { PIPELINE } from '../../../worker/pipeline';
import { SqliteFrontier } from '../../../worker/frontier';
import Database from 'better-sqlite3';
import { runCli } from '../../support/run-cli';
import { withCrawl, withSite } from '../../support/site-crawl';
import { withTempDir } from '../../support/temp-dir';

function sitemapItem(count: number): CrawlItem {
  const links = Array.from({ length: count }, (_, i) => ({ url: `http://example.org/p/${i % (count / 2)}.html`, kind: 'navigation', anchorText: '', context: '', source: 'sitemap@loc' }));
  return { url: 'http://example.org/sitemap.xml', host: 'example.org', depth: 0, priority: 1, lease: null, links };
}

/** Runs `fn` with the stage's crawl context: a crawl of example.org stored in a fresh database. */
async function withContext(fn: (ctx: CrawlContext) => Promise<void>): Promise<void> {
  await withCrawl('tm-schedule-slices-', { name: 'Slices', seeds: ['http://example.org/'] }, async ({ dir, db, icd, crawlId }) => {
    const frontier = new SqliteFrontier(db);
    const ctx = await CrawlContext.open({ crawlId, icd, db, frontier, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool') });
    try {
      await fn(ctx);
    } finally {
      await ctx.close();
      frontier.close();
    }
  });
}

test("a sitemap's 20,000 links are planned in slices: a timer armed before the planning runs before it ends", async () => {
  await withContext(async (ctx) => {
    const large = sitemapItem(20_000);
    let fired = false;
    setTimeout(() => (fired = true), 0);
    const result = await schedule.scheduleStage.process(large, ctx);
    assert.equal(fired, true, 'the timer ran while the links were planned');
    assert.equal(result.kind, 'proceed');
    // Each URL is listed twice, the second time many slices later: planned once, in order (most
    // of them queued already, the rest left for the page's commit).
    const queued = ctx.db.prepare('SELECT url FROM frontier_url WHERE crawl_id = ? ORDER BY seq').pluck().all(ctx.crawlId) as string[];
    const planned = [...queued.filter((u) => u.includes('/p/')), ...large.plan!.candidates.map((c) => c.url)];
    assert.deepEqual(planned, Array.from({ length: 10_000 }, (_, i) => `http://example.org/p/${i}.html`));
  });
});

test("a sitemap's 20,000 new URLs go into the frontier from the schedule stage, a group commit for each slice, before its page takes a place in WARC order", async () => {
  await withContext(async (ctx) => {
    const large = sitemapItem(40_000);
    // Timers run between two slices' commits: one per slice at least, where one commit of them all let few run.
    let ticks = 0;
    const ticking = setInterval(() => ticks++, 0);
    try {
      await schedule.scheduleStage.process(large, ctx);
    } finally {
      clearInterval(ticking);
    }
    assert.ok(ticks >= 20_000 / LINKS_COMMITTED_AT_ONCE - 1, `${ticks} timer turns while the URLs were planned and committed`);
    // What is left goes with the page's own commit; the rest is queued, in order.
    const planned = Array.from({ length: 20_000 }, (_, i) => `http://example.org/p/${i}.html`);
    assert.deepEqual(large.plan!.candidates.map((c) => c.url), planned.slice(-LINKS_COMMITTED_AT_ONCE));
    const queued = ctx.db.prepare('SELECT url FROM frontier_url WHERE crawl_id = ? ORDER BY seq').pluck().all(ctx.crawlId) as string[];
    assert.deepEqual(queued.filter((u) => u.includes('/p/')), planned.slice(0, -LINKS_COMMITTED_AT_ONCE));
    // Nothing is queued twice when the page's commit comes to it.
    await commitLinksAhead(large, ctx);
    assert.equal(large.plan!.candidates.length, LINKS_COMMITTED_AT_ONCE);
    // A page of fewer links keeps them all for its own commit.
    const small = sitemapItem(LINKS_COMMITTED_AHEAD_ABOVE);
    schedule.scheduleStage.process(small, ctx);
    const before = small.plan!.candidates.length;
    await commitLinksAhead(small, ctx);
    assert.equal(small.plan!.candidates.length, before);
  });
});

test('a page takes its place in WARC order (the warc stage) only once its links are planned (the schedule stage)', () => {
  // Every page written to the WARC files after it waits for its commit, holding a fetch slot: a
  // sitemap's planning and queueing of 20,000 URLs, after the warc stage, stopped the crawl's fetches for ~0.8 s.
  const names = PIPELINE.map((s) => s.name);
  assert.ok(names.indexOf('schedule') < names.indexOf('warc'), names.join(' → '));
});

test('a page of up to SLICED_PLANNING_ABOVE links is planned at once, without a turn to wait for', async () => {
  await withContext(async (ctx) => {
    const small = sitemapItem(schedule.SLICED_PLANNING_ABOVE);
    const planned = schedule.scheduleStage.process(small, ctx);
    assert.ok(!(planned instanceof Promise), 'no turn to wait for');
    assert.equal(small.plan!.candidates.length, schedule.SLICED_PLANNING_ABOVE / 2);
  });
});

test("the CLI's crawl of a sitemap of 6,000 lines queues each of its URLs in scope once, in document order", { timeout: 60_000 }, async () => {
  // 4,000 URLs of the site, each listed once more 2,000 lines later, and 1,000 of another host between.
  const lines = (origin: string) => Array.from({ length: 6000 }, (_, i) => (i % 6 === 5 ? `http://other.test/page-${i}` : `${origin}/page-${i % 4000}`));
  let origin = '';
  await withSite((req, res) => {
    if (req.url === '/sitemap.txt') res.writeHead(200, { 'content-type': 'text/plain' }).end(lines(origin).join('\n') + '\n');
    else res.writeHead(404, { 'content-type': 'text/html' }).end('<p>not here</p>');
  }, async (at) => {
    origin = at;
    await withTempDir('tm-schedule-slices-cli-', async (out) => {
      const run = await runCli(['crawl', '--seed', `${origin}/sitemap.txt`, '--out', out, '--no-politeness', '--max-pages', '1', '--json']).done;
      assert.equal(run.code, 0, run.stderr);
      const db = new Database(join(out, 'tidemark-state.db'), { readonly: true });
      try {
        const queued = db.prepare('SELECT url FROM frontier_url WHERE url LIKE ? ORDER BY seq').pluck().all(`${origin}/page-%`) as string[];
        const expected = [...new Set(lines(origin).filter((l) => l.startsWith(origin)))];
        assert.equal(queued.length, expected.length);
        assert.deepEqual(queued, expected);
      } finally {
        db.close();
      }
    });
  });
});
