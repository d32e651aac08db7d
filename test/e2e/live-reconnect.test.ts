/**
 * The crawl page while its live connection is cut: an archivist watches a long crawl, the page's
 * socket drops (a network blip, a server restart), and meanwhile the crawl is paused from another
 * tab. When the socket is back the page says so without a reload: the badge, the controls, the
 * captures table without duplicate rows. Real parts: the cockpit (server, worker, SQLite),
 * Chromium, a loopback site crawled slowly enough to be running throughout; the cut is made in the
 * browser's WebSocket and polling requests.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { cuttableSockets } from './helpers/socket-cut';
import { withSite } from '../support/site-crawl';
import { endlessChainIcd, endlessChainSite } from '../support/endless-chain';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

test('a page whose socket was cut catches up when it is back: a pause made meanwhile in another tab shows without a reload', { timeout: 300_000 }, () => withSite(endlessChainSite, async (origin) => {
  const { api, cockpit } = rig;
  const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: (await api.json<{ id: number }>('POST', '/api/icds', endlessChainIcd(origin))).id });
  const context = await signedInContext(rig);
  const page = await context.newPage();

  const sockets = await cuttableSockets(page);

  await page.goto(`${cockpit.url}/crawls/${crawl.id}`);
  const liveState = page.getByTestId('live-state');
  await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();
  const header = page.locator('header');
  await header.locator('[data-testid="status"][data-status="running"]').waitFor();
  // A few captures arrive live before the cut.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="capture-row"]').length >= 3);

  await sockets.cut();
  await page.locator('[data-testid="live-state"][data-state="offline"]').waitFor();
  assert.match(await liveState.innerText(), /offline/);

  // Another tab pauses the crawl; its status events are sent while this page cannot hear them.
  await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'pause' });
  assert.equal(await api.waitForCrawlStatus(crawl.id, ['paused']), 'paused');
  // The page, cut off, still shows the crawl running.
  assert.equal(await header.getByTestId('status').getAttribute('data-status'), 'running');

  sockets.mend();
  await page.locator('[data-testid="live-state"][data-state="live"]').waitFor({ timeout: 30_000 });
  // Back: the badge and the controls say paused, with no reload.
  await header.locator('[data-testid="status"][data-status="paused"]').waitFor({ timeout: 10_000 });
  await header.getByRole('button', { name: 'Resume Endless chain' }).waitFor();
  // A screen reader is told, politely: the status is a live region.
  assert.equal(await header.getByRole('status').textContent(), 'Crawl status: paused');
  assert.equal(await header.getByRole('button', { name: 'Pause Endless chain' }).count(), 0);
  // The counters show what the crawl fetched, as stored when it paused.
  const stored = await api.json<{ stats: { fetched: number } }>('GET', `/api/crawls/${crawl.id}`);
  await page.waitForFunction((n) => document.querySelector('[data-testid="counter-fetched"]')?.textContent === String(n), stored.stats.fetched, { timeout: 10_000 });
  // The captures table holds each capture once.
  const urls = await page.getByTestId('capture-url').allInnerTexts();
  assert.equal(new Set(urls).size, urls.length, `duplicate rows: ${urls.join(' ')}`);

  // Cut again, and stopped from another tab: Resume, pressed here, is refused. The page says why,
  // and shows the crawl as it is, without its socket.
  await sockets.cut();
  await page.locator('[data-testid="live-state"][data-state="offline"]').waitFor();
  await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' });
  assert.equal(await api.waitForCrawlStatus(crawl.id, ['stopped']), 'stopped');
  await header.getByRole('button', { name: 'Resume Endless chain' }).click();
  await header.getByRole('alert').filter({ hasText: 'The crawl is stopped; it cannot be resumed any more' }).waitFor();
  await header.locator('[data-testid="status"][data-status="stopped"]').waitFor({ timeout: 10_000 });
  assert.equal(await header.getByRole('button', { name: /^(Resume|Pause|Stop) / }).count(), 0, 'no control of a stopped crawl');
  await context.close();
}));
