/**
 * The exports page's Cancel button. Before, an export once requested could only be watched to its
 * end. Now each pending or running export has a Cancel button (a real button: reached with Tab,
 * named "Cancel export N"); a click stops it, the card says cancelled, by whom and when, and
 * offers nothing to download. Real parts: the server (Next, worker), Chromium, and a finished crawl
 * of three WARC files of 60 MB written by the crawl's own writer into the server's data folder.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Browser } from 'playwright-core';
import { startCockpit, type RunningCockpit, ADMIN_PASSWORD } from '../support/cockpit';
import { launchBrowser, signIn } from './helpers/browser';
import { exportDir } from '../../worker/store/data-layout';
import { finishedLargeCrawl } from '../support/large-warcs';

let cockpit: RunningCockpit | undefined;
let browser: Browser | undefined;
after(async () => {
  await browser?.close();
  await cockpit?.stop();
});

test('someone who may export cancels a running WACZ export from the exports page: it stops, says who cancelled it, offers nothing', { timeout: 240_000 }, async () => {
  cockpit = await startCockpit();
  const crawlId = await finishedLargeCrawl(cockpit.dataDir, 'Heavy harbour', 3, 60);
  browser = await launchBrowser();
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/exports?crawl=${crawlId}`);
  await page.getByLabel('one WACZ package (opens in ReplayWeb.page)').check();
  await page.getByTestId('request-export').click();

  const card = page.getByTestId('export').first();
  const cancel = card.getByRole('button', { name: /^Cancel export \d+$/ });
  await cancel.waitFor({ timeout: 60_000 });
  const exportId = Number(await card.getAttribute('data-export-id'));
  // Reached from the keyboard: Tab from the element before it lands on it.
  await card.getByRole('heading').evaluate((h) => {
    h.setAttribute('tabindex', '-1');
    (h as HTMLElement).focus();
  });
  await page.keyboard.press('Tab');
  assert.equal(await cancel.evaluate((b) => b === document.activeElement), true, 'Tab reaches the Cancel button');
  // Under way when cancelled: the worker has its folder.
  while (!existsSync(exportDir(cockpit.dataDir, exportId))) await sleep(20);
  await cancel.click();

  await page.locator(`[data-testid="export"][data-export-id="${exportId}"][data-status="cancelled"]`).waitFor({ timeout: 10_000 });
  assert.match(await card.getByTestId('export-cancelled').innerText(), /^Cancelled by admin at .+: what it had written was removed\.$/);
  assert.equal(await card.getByRole('button', { name: /^Cancel export/ }).count(), 0, 'no Cancel button once cancelled');
  assert.equal(await card.getByTestId('export-file').count(), 0, 'nothing to download');
  const asked = Date.now();
  while (existsSync(exportDir(cockpit.dataDir, exportId)) && Date.now() - asked < 10_000) await sleep(20);
  // How soon is the integration test's to say (the progress at which the worker stopped), not a clock's.
  assert.ok(!existsSync(exportDir(cockpit.dataDir, exportId)), 'its partial files removed');
  // Still cancelled a moment later: the worker did not write over it.
  await sleep(1000);
  await page.reload();
  await page.locator(`[data-testid="export"][data-export-id="${exportId}"][data-status="cancelled"]`).waitFor();
});
