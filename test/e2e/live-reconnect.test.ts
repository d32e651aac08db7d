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
import type { RequestListener } from 'node:http';
import type { WebSocketRoute } from 'playwright-core';
import { signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { withSite } from '../support/site-crawl';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/** A chain of pages, each linking to the next: the crawl goes on for as long as the test needs. */
const site: RequestListener = (req, res) => {
  const n = Number(/^\/page\/(\d+)$/.exec(new URL(req.url ?? '/', 'http://site').pathname)?.[1] ?? 0);
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>Page ${n}</title><a href="/page/${n + 1}">next</a>`);
};

/** One page every 150 ms or so, for up to 1,000 pages: running throughout the test. */
const chainIcd = (origin: string) => ({
  name: 'Endless chain',
  seeds: [`${origin}/`],
  scope: { maxDepth: 1000 },
  politeness: { minDelayMs: 150, maxDelayMs: 200, delayFactor: 0, concurrency: 1, respectRobots: false },
  aah: { enabled: false },
});

test('a page whose socket was cut catches up when it is back: a pause made meanwhile in another tab shows without a reload', { timeout: 300_000 }, () => withSite(site, async (origin) => {
  const { api, cockpit } = rig;
  const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: (await api.json<{ id: number }>('POST', '/api/icds', chainIcd(origin))).id });
  const context = await signedInContext(rig);
  const page = await context.newPage();

  // The cut: while `cut` holds, every socket is closed at once and every polling request fails.
  let cut = false;
  const open: WebSocketRoute[] = [];
  await page.routeWebSocket(/\/socket\.io\//, (ws) => {
    if (cut) return void ws.close();
    ws.connectToServer();
    open.push(ws);
  });
  await page.route(/\/socket\.io\//, (route) => (cut ? route.abort() : route.continue()));

  await page.goto(`${cockpit.url}/crawls/${crawl.id}`);
  const liveState = page.getByTestId('live-state');
  await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();
  const header = page.locator('header');
  await header.locator('[data-testid="status"][data-status="running"]').waitFor();
  // A few captures arrive live before the cut.
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="capture-row"]').length >= 3);

  cut = true;
  for (const ws of open.splice(0)) await ws.close();
  await page.locator('[data-testid="live-state"][data-state="offline"]').waitFor();
  assert.match(await liveState.innerText(), /offline/);

  // Another tab pauses the crawl; its status events are sent while this page cannot hear them.
  await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'pause' });
  assert.equal(await api.waitForCrawlStatus(crawl.id, ['paused']), 'paused');
  // The page, cut off, still shows the crawl running.
  assert.equal(await header.getByTestId('status').getAttribute('data-status'), 'running');

  cut = false;
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
  cut = true;
  for (const ws of open.splice(0)) await ws.close();
  await page.locator('[data-testid="live-state"][data-state="offline"]').waitFor();
  await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' });
  assert.equal(await api.waitForCrawlStatus(crawl.id, ['stopped']), 'stopped');
  await header.getByRole('button', { name: 'Resume Endless chain' }).click();
  await header.getByRole('alert').filter({ hasText: 'The crawl is stopped; it cannot be resumed any more' }).waitFor();
  await header.locator('[data-testid="status"][data-status="stopped"]').waitFor({ timeout: 10_000 });
  assert.equal(await header.getByRole('button', { name: /^(Resume|Pause|Stop) / }).count(), 0, 'no control of a stopped crawl');
  await context.close();
}));
