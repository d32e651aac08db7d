/**
 * The crawl page when its session ends while it is open: signed out in another tab, or expired.
 * The page's socket was refused (or, connected, went on as if nothing had happened) and the page
 * said "offline (reconnecting)" for ever. It now goes to the login page, which brings the archivist
 * back to the crawl. Real parts: the cockpit (server, worker, SQLite), Chromium, a loopback site
 * crawled slowly, its crawl paused.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { signIn, startBrowserRig, stopBrowserRig, untilSeen, type BrowserRig } from './helpers/browser';
import { cuttableSockets } from './helpers/socket-cut';
import { withSite } from '../support/site-crawl';
import { endlessChainIcd, endlessChainSite } from '../support/endless-chain';
import { ADMIN_PASSWORD } from '../support/cockpit';
import { openSqlite } from '../../worker/store/sqlite';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/**
 * A crawl of the endless chain, paused: its page polls nothing (a running crawl's page reads its
 * crawl log every few seconds, and a 401 there sends the tab to the login page by another way), so
 * only its live connection can tell it that the session has ended.
 */
async function pausedCrawl(origin: string, name: string): Promise<number> {
  const icd = await rig.api.json<{ id: number }>('POST', '/api/icds', endlessChainIcd(origin, name));
  const { id } = await rig.api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
  await rig.api.waitForCrawlStatus(id, ['running']);
  await rig.api.json('POST', `/api/crawls/${id}/control`, { action: 'pause' });
  assert.equal(await rig.api.waitForCrawlStatus(id, ['paused']), 'paused');
  return id;
}

/** A tab signed in through the login form (a session of its own, not the API's), on the crawl's page, live. */
async function liveCrawlPage(crawlId: number): Promise<Page> {
  const context = await rig.browser.newContext();
  const page = await context.newPage();
  await signIn(page, rig.cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${rig.cockpit.url}/crawls/${crawlId}`);
  await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();
  return page;
}

/**
 * Waits (20 s at most) for the tab's address to be `url`. Where the tab ends up is what these tests
 * are about; waitForURL follows one navigation and fails when another aborts it (ci102, ci104:
 * net::ERR_ABORTED on the way back to the crawl after signing in; what started the second one is not known).
 */
async function arrivesAt(page: Page, url: string): Promise<void> {
  await untilSeen(page, () => page.url() === url, 20_000);
  assert.equal(page.url(), url);
}

/** The login page with the crawl's page as where to come back to; signing in there brings the tab back to it, live. */
async function signInAgainBack(page: Page, crawlId: number): Promise<void> {
  await arrivesAt(page, `${rig.cockpit.url}/login?next=${encodeURIComponent(`/crawls/${crawlId}`)}`);
  await page.getByLabel('User name').fill('admin');
  await page.getByLabel('Password').fill(ADMIN_PASSWORD);
  await page.getByLabel('Password').press('Enter');
  await arrivesAt(page, `${rig.cockpit.url}/crawls/${crawlId}`);
  await page.locator('[data-testid="live-state"][data-state="live"]').waitFor({ timeout: 20_000 });
}

test('signed out in another tab, the live page of a paused crawl goes to the login page, and back to the crawl after signing in', { timeout: 300_000 }, () => withSite(endlessChainSite, async (origin) => {
  const crawlId = await pausedCrawl(origin, 'Signed out elsewhere');
  const page = await liveCrawlPage(crawlId);
  const other = await page.context().newPage();
  await other.goto(`${rig.cockpit.url}/crawls`);
  await other.getByRole('button', { name: 'Sign out' }).click();
  await arrivesAt(other, `${rig.cockpit.url}/login`);
  await signInAgainBack(page, crawlId);
  await page.context().close();
}));

test('a session that expired while the socket was cut: the page does not stay "offline (reconnecting)", it goes to the login page', { timeout: 300_000 }, () => withSite(endlessChainSite, async (origin) => {
  const crawlId = await pausedCrawl(origin, 'Expired meanwhile');
  const page = await liveCrawlPage(crawlId);
  const sockets = await cuttableSockets(page);
  await page.reload();
  await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();
  await sockets.cut();
  await page.locator('[data-testid="live-state"][data-state="offline"]').waitFor();
  // The page's session (the newest: the API's is older) expires meanwhile.
  const db = openSqlite(join(rig.cockpit.dataDir, 'tidemark.db'));
  try {
    const expired = db.prepare("UPDATE Session SET expiresAt = '2000-01-01 00:00:00.000' WHERE rowid = (SELECT MAX(rowid) FROM Session)").run();
    assert.equal(expired.changes, 1);
  } finally {
    db.close();
  }
  sockets.mend();
  await signInAgainBack(page, crawlId);
  await page.context().close();
}));
