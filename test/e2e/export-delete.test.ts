/**
 * The exports page's Delete button. Before, an ended export stayed on the list, and its files on
 * disk, for ever. Now each done, failed or cancelled export has "Delete…" (a real button, reached
 * with Tab), which asks to confirm in the page: a group whose "Delete export N" button takes the
 * focus, Escape closing it with the focus back on Delete…; confirmed, the card leaves the list, the
 * page says so and the export's folder is gone. Real parts: the server (Next, worker), Chromium,
 * axe-core, and a finished crawl whose WARC files the crawl's own writer wrote into the server's data folder.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { startCockpit, type RunningCockpit, ADMIN_PASSWORD } from '../support/cockpit';
import { assertFocusComes, launchBrowser, signIn } from './helpers/browser';
import { axeViolations } from './helpers/axe';
import { crawlWarcDir, exportDir } from '../../worker/store/data-layout';
import { finishedLargeCrawl } from '../support/large-warcs';

let cockpit: RunningCockpit | undefined;
let browser: Browser | undefined;
after(async () => {
  await browser?.close();
  await cockpit?.stop();
});

test('someone who may export deletes an ended export from the exports page, by keyboard, after confirming', { timeout: 240_000 }, async () => {
  cockpit = await startCockpit();
  const crawlId = await finishedLargeCrawl(cockpit.dataDir, 'Harbour archive', 2, 1);
  const crawlFiles = readdirSync(crawlWarcDir(cockpit.dataDir, crawlId)).sort();

  browser = await launchBrowser();
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/exports?crawl=${crawlId}`);
  for (let i = 0; i < 2; i++) {
    await page.getByTestId('request-export').click();
    await page.locator('[data-testid="export"]').nth(i).waitFor();
  }
  await page.locator('[data-testid="export"][data-status="done"]').nth(1).waitFor({ timeout: 90_000 });
  const card = page.getByTestId('export').first();
  const exportId = Number(await card.getAttribute('data-export-id'));
  const other = Number(await page.getByTestId('export').nth(1).getAttribute('data-export-id'));
  assert.ok(existsSync(exportDir(cockpit.dataDir, exportId)), 'the export has its folder');

  // Reached from the keyboard: Tab from the card's heading lands on Delete… (a done export has no Cancel).
  const remove = card.getByRole('button', { name: `Delete export ${exportId}…` });
  await card.getByRole('heading').evaluate((h) => {
    h.setAttribute('tabindex', '-1');
    (h as HTMLElement).focus();
  });
  await page.keyboard.press('Tab');
  assert.equal(await remove.evaluate((b) => b === document.activeElement), true, 'Tab reaches the Delete button');

  // Enter asks first: the confirmation takes the focus; Escape closes it, the focus back on Delete….
  await page.keyboard.press('Enter');
  const group = card.getByRole('group', { name: `Confirm deleting export ${exportId}` });
  const confirm = group.getByRole('button', { name: `Delete export ${exportId}` });
  await confirm.waitFor();
  await assertFocusComes(page, () => document.activeElement?.textContent, `Delete export ${exportId}`, 'the confirming button has the focus');
  assert.deepEqual(await axeViolations(page), [], 'the page with the confirmation open passes axe');
  await page.keyboard.press('Escape');
  await group.waitFor({ state: 'detached' });
  await page.waitForFunction((name) => document.activeElement?.getAttribute('aria-label') === name, `Delete export ${exportId}…`);
  assert.ok(existsSync(exportDir(cockpit.dataDir, exportId)), 'nothing deleted without confirming');

  // Again, "Keep it" is next to the confirming button; Shift+Tab back and Enter deletes.
  await page.keyboard.press('Enter');
  await confirm.waitFor();
  await page.keyboard.press('Tab');
  assert.equal(await group.getByRole('button', { name: 'Keep it' }).evaluate((b) => b === document.activeElement), true);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Enter');

  await page.locator(`[data-testid="export"][data-export-id="${exportId}"]`).waitFor({ state: 'detached', timeout: 10_000 });
  assert.equal(await page.getByTestId('export-deleted').innerText(), `Export #${exportId} deleted, with its files.`);
  await assertFocusComes(page, () => document.activeElement?.id === 'exports-title' && document.activeElement.textContent, 'Exports of Harbour archive', 'the focus goes to the list');
  assert.ok(!existsSync(exportDir(cockpit.dataDir, exportId)), 'its folder is gone');
  assert.ok(existsSync(exportDir(cockpit.dataDir, other)), 'the other export keeps its files');
  assert.deepEqual(readdirSync(crawlWarcDir(cockpit.dataDir, crawlId)).sort(), crawlFiles, "the crawl's files stay");
  await page.reload();
  await page.locator(`[data-testid="export"][data-export-id="${other}"]`).waitFor();
  assert.equal(await page.locator(`[data-testid="export"][data-export-id="${exportId}"]`).count(), 0, 'gone after a reload too');
});

// Before, the new export joined the list only when the list was read again: a read that failed then
// (and its two retries) left the page with no export at all, and nothing read it again.
test('an export requested while the list cannot be read is listed at once, pending, and shows its end once the list reads again', { timeout: 120_000 }, async () => {
  cockpit ??= await startCockpit();
  browser ??= await launchBrowser();
  const crawlId = await finishedLargeCrawl(cockpit.dataDir, 'Harbour, list unreadable', 1, 1);
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  const listPath = `/api/crawls/${crawlId}/exports`;
  let failing = false;
  let refused = 0;
  await page.route(`**${listPath}`, (route) => {
    if (route.request().method() !== 'GET' || !failing) return route.continue();
    refused += 1;
    return route.fulfill({ status: 503, contentType: 'application/json', body: '{"error":"the database is busy"}' });
  });
  const firstRead = page.waitForResponse((r) => new URL(r.url()).pathname === listPath && r.request().method() === 'GET');
  await page.goto(`${cockpit.url}/exports?crawl=${crawlId}`);
  assert.equal((await firstRead).status(), 200, 'the list read once, empty');
  failing = true;

  await page.getByTestId('request-export').click();
  const card = page.getByTestId('export');
  await card.first().waitFor({ timeout: 10_000 });
  assert.match((await card.first().getAttribute('data-status')) ?? '', /^(pending|running)$/, 'listed at once, pending');
  // It goes on asking past the failed read and its two retries.
  for (const end = Date.now() + 30_000; refused < 5 && Date.now() < end; ) await new Promise((r) => setTimeout(r, 250));
  assert.ok(refused >= 5, `the list is read again after its reads fail (${refused} refused)`);

  failing = false;
  await page.locator('[data-testid="export"][data-status="done"]').waitFor({ timeout: 60_000 });
  assert.equal(await card.count(), 1);
});
