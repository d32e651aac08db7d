/**
 * An ended session sends the tab to the login page once. Every read it refuses at about the same
 * time wanted to send the tab there, and each new navigation aborted the one under way (CI:
 * live-session-end's waitForURL failed with net::ERR_ABORTED). Real parts: the cockpit (server,
 * SQLite), Chromium, the session signed out through the API; the login page only answers late.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Request } from 'playwright-core';
import { signIn, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { ADMIN_PASSWORD } from '../support/cockpit';

/**
 * How long the login page takes to answer: as on a loaded CI machine, the reads refused after the
 * first all come back while its navigation is under way.
 */
const LOGIN_PAGE_DELAY_MS = 1_000;

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

test('reads refused together send the tab to the login page once, not once each (each would abort the navigation under way)', { timeout: 120_000 }, async () => {
  const context = await rig.browser.newContext();
  const page = await context.newPage();
  await signIn(page, rig.cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${rig.cockpit.url}/account`);
  await page.getByTestId('current-user').waitFor();

  // The tab's session ends (signed out elsewhere); the page has not noticed: it reads nothing now.
  const me = await context.request.get(`${rig.cockpit.url}/api/auth/me`);
  const { csrfToken } = (await me.json()) as { csrfToken: string };
  const signedOut = await context.request.post(`${rig.cockpit.url}/api/auth/logout`, { headers: { 'x-csrf-token': csrfToken } });
  assert.equal(signedOut.status(), 204);

  const toLogin: Request[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && new URL(request.url()).pathname === '/login') toLogin.push(request);
  });
  await page.route(/\/login\?next=/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, LOGIN_PAGE_DELAY_MS));
    await route.continue().catch(() => undefined); // a navigation aborted meanwhile (the old code) has nothing to continue
  });

  // The crawls list reads the crawls and the definitions as it opens: both are refused at once.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Crawls' }).click();
  await page.waitForURL(`${rig.cockpit.url}/login?next=${encodeURIComponent('/crawls')}`);
  await page.getByLabel('User name').waitFor();
  assert.deepEqual(toLogin.map((request) => request.url()), [`${rig.cockpit.url}/login?next=${encodeURIComponent('/crawls')}`]);
  await context.close();
});

test('signing out sends the tab to the login page once: the reads the ended session refuses meanwhile do not send it again', { timeout: 120_000 }, async () => {
  const context = await rig.browser.newContext();
  const page = await context.newPage();
  await signIn(page, rig.cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.getByTestId('current-user').waitFor();

  const toLogin: Request[] = [];
  page.on('request', (request) => {
    if (request.isNavigationRequest() && request.frame() === page.mainFrame() && new URL(request.url()).pathname === '/login') toLogin.push(request);
  });
  await page.route(/\/login(\?|$)/, async (route) => {
    await new Promise((resolve) => setTimeout(resolve, LOGIN_PAGE_DELAY_MS));
    await route.continue().catch(() => undefined);
  });

  // The crawls list is open, its reads active: signing out clears them, and they are read again, refused.
  await page.getByRole('button', { name: 'Sign out' }).click();
  await page.getByLabel('User name').waitFor();
  assert.equal(page.url(), `${rig.cockpit.url}/login`);
  assert.deepEqual(toLogin.map((request) => request.url()), [`${rig.cockpit.url}/login`]);
  await context.close();
});
