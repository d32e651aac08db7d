/**
 * The crawl page's "Feeds and recrawls" section, live: a crawl of a loopback site with a feed and
 * a one-minute recrawl interval (the shortest an ICD allows), opened as it starts; the feed's poll
 * and then the first recrawl round appear without a reload, then a failed round. The cockpit's
 * minute is shortened to MINUTE_MS (TIDEMARK_TEST_MINUTE_MS), in its worker and on the page alike:
 * rounds come seconds apart. (A crawl of many feeds, paged, is feeds-many.test.ts, on a shorter minute.)
 * Real parts: the cockpit (server, socket.io, worker, SQLite), Chromium, a loopback site.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { join } from 'node:path';
import { startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { openSqlite } from '../../worker/store/sqlite';

const REFUSAL = 'the archive store refuses the round (test trigger)';
/** The cockpit's minute: long enough to read round 1 and set the trigger before round 2 starts. */
const MINUTE_MS = 10_000;

let rig: BrowserRig;
let site: Server;
let origin = '';
let version = 0;

before(async () => {
  site = createServer((req, res) => {
    const path = req.url ?? '/';
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>${body}`);
    if (path === '/') return html('<a href="/tide-table">tide table</a>');
    // Changes at every request: the round finds it changed.
    if (path === '/tide-table') return html(`<p>high water, version ${++version}</p>`);
    if (path === '/feed.xml') {
      return void res.writeHead(200, { 'content-type': 'application/rss+xml' })
        .end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour news</title><item><title>Dredging</title><link>${origin}/news/dredging</link></item></channel></rss>`);
    }
    if (path === '/news/dredging') return html('<p>the channel is dredged</p>');
    res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  rig = await startBrowserRig({ TIDEMARK_TEST_MINUTE_MS: String(MINUTE_MS) });
});
after(async () => {
  await stopBrowserRig(rig ?? {});
  site?.closeAllConnections();
  site?.close();
});

async function signedInPage(): Promise<Page> {
  const context = await rig.browser.newContext();
  const [name, value] = rig.api.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: rig.cockpit.url }]);
  return context.newPage();
}

test('a crawl with a feed and a recrawl interval: the feed\'s last poll, then a round, then a failed round, appear live on its page', { timeout: 420_000 }, async () => {
  const { api, cockpit } = rig;
  const feed = `${origin}/feed.xml`;
  const icd = await api.json<{ id: number }>('POST', '/api/icds', {
    name: 'Harbour with a feed',
    seeds: [`${origin}/`],
    politeness: { minDelayMs: 0, maxDelayMs: 50, delayFactor: 0, respectRobots: false },
    aah: { enabled: false },
    coherence: { feeds: [feed], minFeedPollMinutes: 1, recrawlIntervalMinutes: 1 },
  });
  const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
  const page = await signedInPage();
  const opened = Date.now();
  await page.goto(`${cockpit.url}/crawls/${crawl.id}`);
  const section = page.getByRole('region', { name: 'Feeds and recrawls' });
  await section.waitFor();

  // The feed: polled as the crawl starts; its row shows the poll's time and the one article it found.
  const row = section.locator(`[data-testid="feed-row"][data-url="${feed}"]`);
  const lastPoll = row.getByTestId('feed-last-poll');
  await lastPoll.waitFor({ timeout: 30_000 });
  const polledAt = Date.parse((await lastPoll.getAttribute('datetime'))!);
  assert.ok(polledAt >= opened - 5_000 && polledAt <= Date.now(), `last poll at ${new Date(polledAt).toISOString()}`);
  assert.equal(await lastPoll.innerText(), new Date(polledAt).toLocaleString('en-US'), 'the time for people, in the browser\'s locale');
  assert.equal(await row.getAttribute('data-outcome'), 'ok');
  assert.equal(await row.getByTestId('feed-articles-new').innerText(), '1');
  assert.equal(await row.getByTestId('feed-problem').count(), 0);
  assert.equal(await row.locator('th[scope="row"]').innerText(), feed, 'the feed names its row');

  // The next round, once the initial crawl is over: one interval after it ended.
  const next = section.getByTestId('next-round');
  await section.locator('[data-testid="next-round"][data-state="scheduled"]').waitFor({ timeout: 60_000 });
  const dueAt = Date.parse((await next.locator('time').getAttribute('datetime'))!);
  assert.ok(dueAt > Date.now() && dueAt <= Date.now() + 61_000, `next round at ${new Date(dueAt).toISOString()}`);
  assert.equal(await section.getByTestId('no-rounds').count(), 1);

  // Round 1, a (cockpit's) minute later, without reloading the page.
  const round = section.locator('[data-testid="round-row"][data-round="1"]');
  await round.waitFor({ timeout: 150_000 });
  const cells = await round.locator('th, td').allInnerTexts();
  const heads = await section.getByTestId('round-table').locator('thead th').allInnerTexts();
  assert.deepEqual(heads, ['Round', 'Ended', 'Pages', 'Due', 'Fetched', 'Changed', 'Parents fetched', 'New links', 'Parent threshold', 'Failed before']);
  const value = (head: string) => cells[heads.indexOf(head)]!;
  assert.equal(value('Round'), '1');
  assert.equal(value('Pages'), '3', 'the home page, the tide table and the article');
  assert.equal(value('Fetched'), '3');
  assert.ok(Number(value('Changed')) >= 1, 'the tide table changed');
  assert.equal(value('Failed before'), '–', 'the round did not fail');
  assert.equal(await section.getByTestId('round-failure').count(), 0);
  assert.match(await round.locator('time').getAttribute('datetime') ?? '', /^\d{4}-\d\d-\d\dT/);
  assert.match(await section.getByTestId('last-round').innerText(), /^round 1, ended /);

  // The keyboard reaches the rounds' table (its scrolling box is a tab stop).
  const box = section.getByRole('region', { name: 'Recrawl rounds' });
  await box.focus();
  assert.equal(await box.evaluate((el) => el === document.activeElement && el.tabIndex === 0), true);

  // Round 2 fails: the cockpit's database refuses its result, as a full or broken store would. That
  // refuses the capture it is stored with, so the crawl pauses (the WARC file's unacknowledged
  // records are cut when it resumes). The failure box appears live, with the error, and says the
  // round runs again when the crawl does.
  const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
  try {
    db.exec(`CREATE TRIGGER refuse_round_result BEFORE INSERT ON engine_recrawl_result BEGIN SELECT RAISE(ABORT, '${REFUSAL}'); END`);
  } finally {
    db.close();
  }
  const failure = section.locator('[data-testid="round-failure"][data-round="2"]');
  await failure.waitFor({ timeout: 150_000 });
  assert.equal(await failure.getByTestId('round-failure-message').innerText(), REFUSAL);
  assert.match(await failure.innerText(), /^Round 2 failed at .+ while refetching http:\/\/127\.0\.0\.1:\d+\/\S*: /);
  assert.equal(await api.waitForCrawlStatus(crawl.id, ['paused'], 30_000), 'paused');
  const retry = failure.locator('[data-testid="round-retry"][data-state="not-running"]');
  await retry.waitFor({ timeout: 30_000 });
  assert.match(await retry.innerText(), /^It is not tried again while the crawl is not running: when it runs again, from .+\. The crawl log has one entry for failures in a row/);

  await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' });
  assert.equal(await api.waitForCrawlStatus(crawl.id, ['stopped'], 30_000), 'stopped');
  await section.locator('[data-testid="next-round"][data-state="not-running"]').waitFor();
  // A stopped crawl does not try the failed round again, and the box says so.
  await retry.waitFor();
});
