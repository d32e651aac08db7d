import assert from 'node:assert/strict';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import type { ApiClient } from '../../support/api-client';
import { signedInAdmin, startCockpit, type RunningCockpit } from '../../support/cockpit';

/** Debian's Chromium, headless, with nothing that would reach the network on its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/**
 * Asserts that what `describe` (run in the page) says of the focus comes to be `expected` within
 * `timeoutMs`. Focus that a React effect moves lands a render after the DOM a test waits for, so a
 * single look right after that DOM appears can come too early on a loaded machine.
 */
export async function assertFocusComes(page: Page, describe: () => string | boolean | null | undefined, expected: string | boolean, message: string, timeoutMs = 5_000): Promise<void> {
  await page.waitForFunction(`(${describe.toString()})() === ${JSON.stringify(expected)}`, undefined, { timeout: timeoutMs }).catch(() => undefined);
  assert.equal(await page.evaluate(describe), expected, message);
}

/**
 * Waits up to `timeoutMs` for `condition` on the test's own state (what it collected from the
 * page's events: responses, dialogs), which the page's DOM can show before the test has it.
 */
export async function untilSeen(page: Page, condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !condition() && Date.now() < deadline;) await page.waitForTimeout(50);
}

/** Signs in through the login form, as a person would: type, press Enter. */
export async function signIn(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/crawls`);
  await page.waitForURL(/\/login\?next=/);
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await page.waitForURL(/\/crawls$/);
  await page.getByTestId('current-user').waitFor();
}

/** What a browser test file drives: the real server, a browser, and the API signed in as admin (to set things up). */
export interface BrowserRig {
  cockpit: RunningCockpit;
  browser: Browser;
  api: ApiClient;
}

/** Starts a cockpit (`env`: added to its environment) and a browser, and signs the API in as admin. */
export async function startBrowserRig(env: Record<string, string> = {}): Promise<BrowserRig> {
  const cockpit = await startCockpit(env);
  return { cockpit, browser: await launchBrowser(), api: await signedInAdmin(cockpit) };
}

/** Closes what startBrowserRig started (as far as it got). */
export async function stopBrowserRig(rig: Partial<BrowserRig>): Promise<void> {
  await rig.browser?.close();
  await rig.cockpit?.stop();
}

/**
 * Saves `icd` through the API and starts a crawl of it from the definitions' list, as an archivist
 * does, in a signed-in page; returns that page, on the crawl's own page, and the crawl's id.
 */
export async function startCrawlFromList(rig: BrowserRig, icd: { name: string } & Record<string, unknown>): Promise<{ page: Page; crawlId: number }> {
  await rig.api.json('POST', '/api/icds', icd);
  const page = await (await signedInContext(rig)).newPage();
  await page.goto(`${rig.cockpit.url}/icds`);
  await page.getByRole('button', { name: `Start a crawl of ${icd.name}` }).click();
  await page.waitForURL(/\/crawls\/\d+$/);
  return { page, crawlId: Number(/\/crawls\/(\d+)$/.exec(page.url())![1]) };
}

/** A browser context signed in with the rig's admin session (its cookie, no login form). */
export async function signedInContext(rig: BrowserRig): Promise<BrowserContext> {
  const context = await rig.browser.newContext();
  const [name, value] = rig.api.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: rig.cockpit.url }]);
  return context;
}
