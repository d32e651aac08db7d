/**
 * URLs posted to a crawl that is then stopped, or fails (POST /api/crawls/:id/urls). Before, they
 * stayed in frontier_intake of a crawl that would never run again, unseen, and a crawl being
 * stopped still took URLs (202). Now a stopping crawl refuses them (409), and the URLs waiting when
 * the crawl ends are recorded as excluded `crawl-ended`, in the transaction that gives it its final
 * status, so its counters show them. A paused crawl keeps them: it will resume. Real parts: the
 * route handlers over a migrated SQLite database, the worker's CrawlManager on its own connection
 * to it (as the worker process has), a loopback site.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { crawlFrontierConfig } from '../../../worker/crawler/frontier-config';
import type { CrawlStats } from '../../../worker/events/messages';
import { SqliteFrontier } from '../../../worker/frontier';
import { S } from '../../../worker/frontier/frontier-sql';
import { MAX_SCORED_URLS, queueScoredUrls } from '../../../worker/frontier/scored-intake';
import { icdSchema } from '../../../worker/icd/schema';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { endCrawl } from '../../../worker/process/crawl-end';
import { insertCrawl } from '../../support/crawl-rows';
import { startHoldingSite } from '../../support/holding-site';
import { controlAs, crawlStatusBecomes, postingParts, postUrls, runningCrawl, waitingUrls } from '../../support/posted-urls';
import { countsOf, knownUrlsInEveryState, rows, settledRows, waitingPosts } from '../../support/waiting-intake';

const p = postingParts('tm-posted-stop-');

const post = (crawlId: number, urls: string[]) => postUrls(p.admin, crawlId, urls.map((url) => ({ url, score: 0.5 })));
const waiting = (crawlId: number) => waitingUrls(p.s.db, crawlId);
const urlRow = (crawlId: number, url: string) =>
  p.s.db.prepare('SELECT state, reason FROM frontier_url WHERE crawl_id = ? AND url = ?').get(crawlId, url) as { state: number; reason: string | null } | undefined;
const storedStats = (crawlId: number) => JSON.parse(p.s.db.prepare('SELECT stats FROM Crawl WHERE id = ?').pluck().get(crawlId) as string) as Partial<CrawlStats>;
const refusal = async (res: Response) => ({ status: res.status, body: (await res.json()) as unknown });

/** A crawl of the site the worker starts (created, wanting to run), its CrawlManager on the worker's connection. */
async function crawlOfHoldingSite(held: string) {
  const site = await startHoldingSite((path) => path === held);
  const icd = icdSchema.parse({ name: 'Quay notices', seeds: [`${site.origin}/`], politeness: { enabled: false }, aah: { enabled: false } });
  const crawlId = insertCrawl(p.s.db, icd);
  const manager = new CrawlManager({ db: p.worker, dataDir: p.s.env.dataDir, send: () => undefined });
  manager.start();
  await Promise.race([site.held, sleep(30_000, undefined, { ref: false }).then(() => assert.fail(`${held} was never requested`))]);
  return {
    site, crawlId,
    close: async () => {
      site.close();
      await manager.shutdown();
    },
  };
}

test('URLs posted to a paused crawl wait for it; once it is stopped they are recorded as excluded (crawl-ended) and a post gets 409', { timeout: 60_000 }, async () => {
  const { site, crawlId, close } = await crawlOfHoldingSite('/a');
  try {
    assert.equal((await controlAs(p.admin, crawlId, 'pause')).status, 200);
    // The worker takes the pause at its next tick: released before that, the held page was the
    // crawl's last, and the crawl finished instead (ci163, a loaded machine).
    assert.equal(await crawlStatusBecomes(p.s.db, crawlId, 'pausing'), 'pausing');
    site.release();
    assert.equal(await crawlStatusBecomes(p.s.db, crawlId, 'paused'), 'paused');
    const posted = [`${site.origin}/notice-1`, `${site.origin}/notice-2`];
    assert.equal((await post(crawlId, posted)).status, 202);
    await sleep(600);
    assert.equal(waiting(crawlId), 2, 'a paused crawl keeps them: it will resume');

    assert.equal((await controlAs(p.admin, crawlId, 'stop')).status, 200);
    assert.equal(await crawlStatusBecomes(p.s.db, crawlId, 'stopped'), 'stopped');
    // The old worker left both in frontier_intake of the stopped crawl.
    assert.equal(waiting(crawlId), 0, 'nothing left in frontier_intake');
    for (const url of posted) assert.deepEqual(urlRow(crawlId, url), { state: S.excluded, reason: 'crawl-ended' }, url);
    assert.equal(storedStats(crawlId).excludedByReason?.['crawl-ended'], 2, "the crawl's counters show them");
    assert.ok(!site.requested.some((path) => path.startsWith('/notice')), site.requested.join(' '));

    assert.deepEqual(await refusal(await post(crawlId, [`${site.origin}/notice-3`])), { status: 409, body: { error: 'The crawl is stopped: it takes no more URLs' } });
    assert.equal(waiting(crawlId), 0);
  } finally {
    await close();
  }
});

test('a crawl being stopped refuses posted URLs; what was posted while it ran is not left waiting', { timeout: 60_000 }, async () => {
  const { site, crawlId, close } = await crawlOfHoldingSite('/a');
  try {
    const early = `${site.origin}/early`;
    assert.equal((await post(crawlId, [early])).status, 202, 'the crawl runs');
    assert.equal((await controlAs(p.admin, crawlId, 'stop')).status, 200);
    // Its engine waits for /a, held, before it stops.
    assert.equal(await crawlStatusBecomes(p.s.db, crawlId, 'stopping'), 'stopping');
    // The old route stored it (202): it stayed in frontier_intake of the stopped crawl.
    assert.deepEqual(await refusal(await post(crawlId, [`${site.origin}/late`])), { status: 409, body: { error: 'The crawl is stopping: it takes no more URLs' } });

    site.release();
    assert.equal(await crawlStatusBecomes(p.s.db, crawlId, 'stopped'), 'stopped');
    assert.deepEqual(await refusal(await post(crawlId, [`${site.origin}/later`])), { status: 409, body: { error: 'The crawl is stopped: it takes no more URLs' } });
    assert.equal(waiting(crawlId), 0, 'nothing left in frontier_intake');
    assert.ok(urlRow(crawlId, early), 'the URL posted while the crawl ran is in its frontier (queued, visited, or excluded crawl-ended)');
    assert.equal(urlRow(crawlId, `${site.origin}/late`), undefined);
  } finally {
    await close();
  }
});

test('the crawl is ended in one transaction with the URLs waiting: a post before is recorded, one after refused', async () => {
  // No site, no engine: endCrawl writes only the database. The posts go through the route, the end through the worker's connection.
  const { crawlId } = runningCrawl(p.s.db, { seeds: ['http://quay.test/'] });
  const posted = ['http://quay.test/notice-1', 'http://quay.test/notice-2'];
  assert.equal((await post(crawlId, posted)).status, 202);
  endCrawl(p.worker, crawlId, { status: 'failed', error: 'the engine failed' });

  const row = p.s.db.prepare('SELECT status, error, finishedAt FROM Crawl WHERE id = ?').get(crawlId) as { status: string; error: string; finishedAt: string | null };
  assert.deepEqual([row.status, row.error], ['failed', 'the engine failed']);
  assert.ok(row.finishedAt);
  assert.equal(waiting(crawlId), 0);
  for (const url of posted) assert.deepEqual(urlRow(crawlId, url), { state: S.excluded, reason: 'crawl-ended' }, url);
  assert.deepEqual(storedStats(crawlId), { queued: 0, excluded: 2, excludedByReason: { 'crawl-ended': 2 } }, 'a crawl that never ran: its counters are these');

  assert.deepEqual(await refusal(await post(crawlId, ['http://quay.test/notice-3'])), { status: 409, body: { error: 'The crawl is failed: it takes no more URLs' } });
  assert.equal(waiting(crawlId), 0);
});

test('5,000 URLs waiting when a crawl is stopped: each is recorded once, known ones change only while queued, and the stored counters are the rows\'', async () => {
  const { icd, crawlId } = runningCrawl(p.s.db, { seeds: ['http://h0.settle.test/'] });
  // The crawl's last run: URLs in every state, its frontier closed (its leases queued again), its counters stored.
  const f = new SqliteFrontier(p.worker);
  f.openCrawl(crawlId, crawlFrontierConfig(icd));
  knownUrlsInEveryState(f, crawlId, Date.now());
  f.close();
  const before = rows(p.s.db, crawlId);
  const counted = countsOf(before);
  const queued = (states: Record<string, number>) => (states.queued ?? 0) + (states.retrying ?? 0);
  p.worker.prepare('UPDATE Crawl SET stats = ? WHERE id = ?').run(JSON.stringify({ queued: queued(counted.states), excluded: counted.states.excluded, excludedByReason: counted.excludedByReason }), crawlId);
  // Stored as the route stores them; a route's request would count a URL given twice once.
  const posts = waitingPosts([...before.keys()]);
  for (let k = 0; k < posts.length; k += MAX_SCORED_URLS) queueScoredUrls(p.worker, crawlId, posts.slice(k, k + MAX_SCORED_URLS));

  endCrawl(p.worker, crawlId, { status: 'stopped' });
  const expected = settledRows(before, posts, 'crawl-ended');
  const after = rows(p.s.db, crawlId);
  assert.equal(after.size, expected.size, 'one row per URL: none twice, none lost');
  for (const [url, row] of expected) assert.deepEqual(after.get(url), row, url);
  assert.equal(waiting(crawlId), 0);
  const { states, excludedByReason } = countsOf(after);
  assert.deepEqual(storedStats(crawlId), { queued: queued(states), excluded: states.excluded, excludedByReason });
});
