/**
 * URLs posted to a crawl (POST /api/crawls/:id/urls) as it ends. Before, the route answered 202 and
 * the URL could stay in frontier_intake of a crawl that would never run again: posted between the
 * engine's last intake and the crawl being marked finished, or posted once the page budget was
 * spent (or be queued then, for no visit). Now each is visited, refused with 409, or recorded as
 * excluded with a reason the crawl's counters show. Real parts: the route handler over a migrated
 * SQLite database, the engine on its own connection to it (as the worker process has), a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { finishIntake } from '../../../worker/crawler/close-intake';
import { crawlFrontierConfig } from '../../../worker/crawler/frontier-config';
import { SqliteFrontier } from '../../../worker/frontier';
import { S } from '../../../worker/frontier/frontier-sql';
import { reopenIntake } from '../../../worker/frontier/scored-intake';
import { startHoldingSite } from '../../support/holding-site';
import { engineFor, postingParts, postUrls, runningCrawl, waitingUrls } from '../../support/posted-urls';

const p = postingParts('tm-posted-end-');

const post = (crawlId: number, url: string) => postUrls(p.admin, crawlId, [{ url, score: 0.5 }]);
const waiting = (crawlId: number) => waitingUrls(p.s.db, crawlId);
const urlRow = (crawlId: number, url: string) =>
  p.s.db.prepare('SELECT state, reason FROM frontier_url WHERE crawl_id = ? AND url = ?').get(crawlId, url) as { state: number; reason: string | null } | undefined;

test('a URL posted once the page budget is spent is recorded as excluded (max-pages) when the crawl ends, and one posted after is refused', { timeout: 60_000 }, async () => {
  // A budget of two pages: `/`, then /a, held; /b waits in the queue.
  const site = await startHoldingSite((path) => path === '/a');
  const { icd, crawlId } = runningCrawl(p.s.db, { seeds: [`${site.origin}/`], scope: { maxPages: 2 } });
  try {
    const run = engineFor(p, crawlId, icd).run();
    await Promise.race([site.held, run.then((o) => assert.fail(`the crawl ended (${o}) before /a was requested`))]);

    // The budget is spent (/a in flight): the crawl still runs and takes the URL.
    const late = `${site.origin}/late`;
    assert.equal((await post(crawlId, late)).status, 202);
    // Longer than the engine's 500 ms intake: the old engine queued the URL then, in a crawl that would not visit it.
    await sleep(800);
    assert.equal(urlRow(crawlId, late), undefined, 'not queued for no visit');
    assert.equal(waiting(crawlId), 1, 'it waits for the crawl to end');

    site.release();
    assert.equal(await run, 'finished');
    assert.deepEqual(urlRow(crawlId, late), { state: S.excluded, reason: 'max-pages' }, 'recorded as excluded: the budget was spent');
    assert.equal(waiting(crawlId), 0, 'nothing left in frontier_intake');
    assert.ok(!site.requested.includes('/late'), site.requested.join(' '));

    // The engine has ended its visits; the manager marks the crawl finished after closing its files.
    // Meanwhile (its status still 'running') a post is refused as for the finished crawl it is.
    const after = await post(crawlId, `${site.origin}/after`);
    assert.equal(after.status, 409);
    assert.deepEqual(await after.json(), { error: 'The crawl is finished: it takes no more URLs' });
    assert.equal(waiting(crawlId), 0);
  } finally {
    site.close();
  }
});

test('the crawl ends its visits only when no posted URL waits that its budget may visit; with the budget spent what waits is recorded, and a post after is refused', async () => {
  // No site: finishIntake writes only the database. The posts go through the route, the closing through the worker's connection.
  const { icd, crawlId } = runningCrawl(p.s.db, { seeds: ['http://quay.test/'] });
  const frontier = new SqliteFrontier(p.worker);
  const parts = { db: p.worker, frontier, crawlId };
  try {
    frontier.openCrawl(crawlId, crawlFrontierConfig(icd));
    // Posted after the engine's last intake, before it ends its visits: the crawl goes on to visit it.
    assert.equal((await post(crawlId, 'http://quay.test/notice-1')).status, 202);
    assert.equal(finishIntake(parts, { mayVisit: true, updateFunction: 'FIRST', now: Date.now() }), false);
    assert.equal(waiting(crawlId), 1, 'the URL waits for the engine to apply it');
    assert.equal((await post(crawlId, 'http://quay.test/notice-2')).status, 202, 'the crawl still takes URLs');

    // The page budget is spent: what waits cannot be visited, and is recorded rather than left.
    assert.equal(finishIntake(parts, { mayVisit: false, updateFunction: 'FIRST', now: Date.now() }), true);
    assert.equal(waiting(crawlId), 0);
    for (const n of [1, 2]) assert.deepEqual(urlRow(crawlId, `http://quay.test/notice-${n}`), { state: S.excluded, reason: 'max-pages' });
    assert.equal(frontier.counters(crawlId).excludedByReason['max-pages'], 2, "the crawl's excluded counts show them");

    const refused = await post(crawlId, 'http://quay.test/notice-3');
    assert.equal(refused.status, 409);
    assert.deepEqual(await refused.json(), { error: 'The crawl is finished: it takes no more URLs' });
    assert.equal(waiting(crawlId), 0, 'nothing of the refused post was stored');
    assert.equal(finishIntake(parts, { mayVisit: true, updateFunction: 'FIRST', now: Date.now() }), true, 'ended once, ended for good');

    // A run of the crawl after one that ended its visits (the worker died before marking it finished) takes URLs again.
    reopenIntake(p.worker, crawlId);
    assert.equal((await post(crawlId, 'http://quay.test/notice-4')).status, 202);
  } finally {
    frontier.close();
  }
});

test('with nothing waiting the crawl ends its visits at once, and a post after is refused though the crawl is not marked finished yet', async () => {
  const { icd, crawlId } = runningCrawl(p.s.db, { seeds: ['http://quay.test/'] });
  const frontier = new SqliteFrontier(p.worker);
  try {
    frontier.openCrawl(crawlId, crawlFrontierConfig(icd));
    assert.equal(finishIntake({ db: p.worker, frontier, crawlId }, { mayVisit: true, updateFunction: 'FIRST', now: Date.now() }), true);
    assert.equal(p.s.db.prepare('SELECT status FROM Crawl WHERE id = ?').pluck().get(crawlId), 'running');
    // The old route stored it: 202 for a URL the crawl, about to be marked finished, would never see.
    assert.equal((await post(crawlId, 'http://quay.test/notice-5')).status, 409);
    assert.equal(waiting(crawlId), 0);
  } finally {
    frontier.close();
  }
});
