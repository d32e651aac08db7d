/**
 * Scheduled recrawl rounds and live exclusions: a page captured before an exclude pattern was added
 * (addLiveExclusion, what POST /api/crawls/:id/exclusions stores) is not refetched by the rounds
 * after the engine applied it, and is logged once as `exclude-match`; once the pattern is removed
 * (removeLiveExclusion, DELETE), the rounds take it up again. Real parts: a migrated SQLite database,
 * the engine on shortened minutes, a loopback site whose pages change at every request.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { addLiveExclusion, removeLiveExclusion } from '../../../worker/process/crawl-requests';
import { withSiteCrawl } from '../../support/site-crawl';
import { until } from '../../support/engine-run';

const MINUTE_MS = 250;

const requested: string[] = [];
let visitor = 0;
/** `/` links to /a and /b; every page changes at every request, so each is due in every round. */
const site: RequestListener = (req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  requested.push(path);
  if (path === '/robots.txt') return void res.writeHead(404).end();
  const links = path === '/' ? '<a href="/a">a</a> <a href="/b">b</a>' : '';
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title><p>Visitor ${++visitor}</p>${links}`);
};

test('recrawl rounds skip a page an exclusion added live matches, log it once, and take it up again once the pattern is removed', { timeout: 90_000 }, async () => {
  const fields = { name: 'Recrawls and live exclusions', coherence: { recrawlIntervalMinutes: 1 }, politeness: { enabled: false, respectRobots: false } };
  await withSiteCrawl('tm-recrawl-exclusions-', site, fields, async ({ origin, dir, db, icd, crawlId }) => {
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs'), spoolDir: join(dir, 'spool'), minuteMs: MINUTE_MS });
    const outcome = engine.run();
    const rounds = () => engine.incremental?.rounds.length ?? 0;
    const hits = (path: string) => requested.filter((p) => p === path).length;
    try {
      await until('a first recrawl round', () => rounds() >= 1, 30_000);
      assert.ok(hits('/a') >= 2, 'the round refetched /a');

      const pattern = '/a$';
      assert.ok('done' in (addLiveExclusion(db, crawlId, pattern, null) as object));
      await until('the engine applied the exclusion', () => db.prepare('SELECT appliedAt FROM CrawlExclusion WHERE crawlId = ?').pluck().get(crawlId) !== null, 5_000);
      const atApply = { a: hits('/a'), b: hits('/b'), rounds: rounds() };
      // Two whole rounds begun after it was applied.
      await until('two more rounds', () => rounds() >= atApply.rounds + 3, 30_000);
      assert.ok(hits('/a') <= atApply.a + 1, `/a not refetched by the rounds after the exclusion (${hits('/a')} requests, ${atApply.a} then; one may have been under way)`);
      assert.ok(hits('/b') >= atApply.b + 2, 'the other pages still are');
      const entries = db.prepare("SELECT url, status, message FROM CrawlLogEntry WHERE crawlId = ? AND outcome = 'exclude-match'").all(crawlId) as { url: string; status: number | null; message: string }[];
      assert.deepEqual(entries.map((e) => [e.url, e.status]), [[`${origin}/a`, null]], 'logged once, not at every round');
      assert.match(entries[0]!.message, /^recrawl round \d+: not refetched/);
      assert.equal(db.prepare('SELECT COUNT(*) FROM engine_recrawl_page WHERE crawl_id = ? AND url = ?').pluck().get(crawlId, `${origin}/a`), 0);
      assert.equal(engine.stats().excludedByReason['exclude-match'], 1);

      // Removed: the rounds after take it up again, as a page new to them.
      assert.ok('done' in (removeLiveExclusion(db, crawlId, pattern) as object));
      const atRemoval = { a: hits('/a'), rounds: rounds() };
      await until('/a refetched again', () => hits('/a') > atRemoval.a, 30_000);
      assert.ok(rounds() >= atRemoval.rounds, 'by a round');
    } finally {
      await engine.stop();
      await outcome;
    }
  });
});
