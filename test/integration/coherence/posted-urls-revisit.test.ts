/**
 * URLs posted to a visit–revisit capture (POST /api/crawls/:id/urls) once its revisit pass has
 * begun: the crawl visits no more URLs then, and before, such a URL was answered 202 and then
 * either left in frontier_intake or queued in a crawl that finished without visiting it. Now the
 * API refuses it (409), and a URL posted before the pass begins is visited, or recorded as
 * excluded when the page budget is spent: none is lost without a word. Real parts: the route
 * handler over a migrated SQLite database, the engine on its own connection to it (as the worker
 * process has), a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { closeVisitSet } from '../../../worker/crawler/close-visit-set';
import { CoherenceStore } from '../../../worker/crawler/coherence-store';
import { SqliteFrontier } from '../../../worker/frontier';
import { S } from '../../../worker/frontier/frontier-sql';
import { icdSchema } from '../../../worker/icd/schema';
import { startHoldingSite } from '../../support/holding-site';
import { engineFor, postingParts, postUrls, runningCrawl as runningCrawlIn, waitingUrls } from '../../support/posted-urls';

const p = postingParts('tm-posted-revisit-');

const post = (crawlId: number, body: unknown) => postUrls(p.admin, crawlId, body);
const runningCrawl = (fields: Record<string, unknown>) => runningCrawlIn(p.s.db, fields);
const waiting = (crawlId: number) => waitingUrls(p.s.db, crawlId);

test('a URL posted once the revisit pass has begun is refused with 409 and the reason; one posted before is visited', { timeout: 60_000 }, async () => {
  // `/` links to /a and /b; /early and /late are linked from nowhere. The first revisit waits for the test.
  const site = await startHoldingSite((path, before) => before.includes(path) && path !== '/robots.txt');
  const { origin, requested, release } = site;
  const { icd, crawlId } = runningCrawl({ seeds: [`${origin}/`], coherence: { mode: 'visit-revisit' } });
  try {
    const early = await post(crawlId, [{ url: `${origin}/early`, score: 0.9 }]);
    assert.equal(early.status, 202);
    const run = engineFor(p, crawlId, icd).run();
    await Promise.race([site.held, run.then((o) => assert.fail(`the crawl ended (${o}) before any revisit`))]);

    // The old code answered 202 here: the URL then waited in frontier_intake, or was queued, in a crawl about to finish.
    const late = await post(crawlId, [{ url: `${origin}/late`, score: 1 }]);
    assert.equal(late.status, 409);
    assert.deepEqual(await late.json(), {
      error: "The crawl's revisit pass has begun: a visit–revisit capture visits no more URLs once its reference time is fixed, so it takes no more (start a new crawl for them)",
    });
    assert.equal(waiting(crawlId), 0, 'nothing of the refused post was stored');

    release();
    assert.equal(await run, 'finished');
    assert.ok(!requested.includes('/late'), `the refused URL was never requested: ${requested.join(' ')}`);
    assert.deepEqual(requested.filter((path) => path === '/early'), ['/early', '/early'], `the URL posted before was visited and revisited: ${requested.join(' ')}`);
    const inFrontier = (where: string, ...args: unknown[]) => p.s.db.prepare(`SELECT COUNT(*) FROM frontier_url WHERE crawl_id = ? AND ${where}`).pluck().get(crawlId, ...args);
    assert.equal(inFrontier('url = ?', `${origin}/late`), 0, 'the refused URL is not in the frontier either');
    assert.equal(inFrontier('state = ?', S.queued), 0, 'the finished crawl left nothing queued');
    assert.equal(waiting(crawlId), 0);
  } finally {
    site.close();
  }
});

test('the visit set closes only when no posted URL waits, or, with the page budget spent, records the waiting ones as excluded', async () => {
  // No site: closeVisitSet writes only the database. The posts go through the route, the closing through the worker's connection.
  const { crawlId } = runningCrawl({ seeds: ['http://quay.test/'], coherence: { mode: 'visit-revisit' } });
  const frontier = new SqliteFrontier(p.worker);
  const parts = { db: p.worker, frontier, crawlId, coherence: new CoherenceStore(p.worker, crawlId) };
  try {
    frontier.openCrawl(crawlId, { maxPages: 100, maxPagesPerHost: 100, maxDepth: 5, politeness: icdSchema.parse({ name: 'x', seeds: ['http://quay.test/'] }).politeness, rescoring: false });
    // Posted after the engine's last intake, before it closes the visit set: the closing waits for it to be visited.
    assert.equal((await post(crawlId, [{ url: 'http://quay.test/notice-1', score: 0.5 }])).status, 202);
    assert.equal(closeVisitSet(parts, { mayVisit: true, updateFunction: 'FIRST', now: Date.now() }), false);
    assert.equal(parts.coherence.revisitsBegun(), false, 'no reference time yet');
    assert.equal(waiting(crawlId), 1, 'the URL waits for the engine to apply it');
    assert.equal((await post(crawlId, [{ url: 'http://quay.test/notice-2', score: 0.5 }])).status, 202, 'the crawl still takes URLs');

    // The page budget is spent: what waits cannot be visited, and is recorded rather than left.
    const closedAt = Date.now();
    assert.equal(closeVisitSet(parts, { mayVisit: false, updateFunction: 'FIRST', now: closedAt }), true);
    assert.equal(parts.coherence.startRun(0), closedAt, 'the reference time is the closing time');
    assert.equal(waiting(crawlId), 0);
    for (const n of [1, 2]) {
      const url = `http://quay.test/notice-${n}`;
      assert.deepEqual([frontier.lookup(crawlId, url)?.state, frontier.lookup(crawlId, url)?.reason], ['excluded', 'max-pages'], url);
    }
    assert.equal(frontier.counters(crawlId).excludedByReason['max-pages'], 2, "the crawl's excluded counts show them");

    const refused = await post(crawlId, [{ url: 'http://quay.test/notice-3', score: 0.5 }]);
    assert.equal(refused.status, 409);
    assert.match(((await refused.json()) as { error: string }).error, /^The crawl's revisit pass has begun/);
    assert.equal(waiting(crawlId), 0);
    assert.equal(closeVisitSet(parts, { mayVisit: true, updateFunction: 'FIRST', now: Date.now() }), true, 'closed once, closed for good');
  } finally {
    frontier.close();
  }
});

test('an incremental visit–revisit crawl goes on visiting after its revisit pass: it still takes URLs', async () => {
  const { crawlId } = runningCrawl({ seeds: ['http://quay.test/'], coherence: { mode: 'visit-revisit', recrawlIntervalMinutes: 60 } });
  new CoherenceStore(p.worker, crawlId).startRun(Date.now());
  assert.equal((await post(crawlId, [{ url: 'http://quay.test/notice-4', score: 0.5 }])).status, 202);
  assert.equal(waiting(crawlId), 1);
});
