/**
 * The exports form offers the other crawls of the chosen crawl's ICD as labelled checkboxes, reached
 * and ticked from the keyboard (one that cannot be exported now is offered disabled, saying why:
 * export-crawls.test.ts checks the list says so). Ticked, the
 * export is one collection of both crawls: the request names them, its card says so, and its files
 * hold both crawls' WARC files; the crawl it took lists it as well, started from the other. Before,
 * an export could take one crawl only, and the crawl taken did not list the collection it was in. Real parts: the server
 * (Next, worker), Chromium, axe-core, and crawls whose WARC files the crawl's own writer wrote into
 * the server's data folder.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser } from 'playwright-core';
import { startCockpit, type RunningCockpit, ADMIN_PASSWORD } from '../support/cockpit';
import { launchBrowser, signIn } from './helpers/browser';
import { axeViolations } from './helpers/axe';
import { crawlWarcDir } from '../../worker/store/data-layout';
import { crawlWarcId } from '../../worker/warc';
import { openSqlite } from '../../worker/store/sqlite';
import { finishedLargeCrawl, writeLargeWarcs } from '../support/large-warcs';
import { insertCapturesOfIndex, insertLaterCrawl } from '../support/crawl-rows';
import { join } from 'node:path';

let cockpit: RunningCockpit | undefined;
let browser: Browser | undefined;
after(async () => {
  await browser?.close();
  await cockpit?.stop();
});

test('the export form takes another crawl of the ICD, by keyboard, into one collection', { timeout: 240_000 }, async () => {
  cockpit = await startCockpit();
  const first = await finishedLargeCrawl(cockpit.dataDir, 'Harbour yearly', 1, 1);
  const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
  let later: number;
  try {
    later = insertLaterCrawl(db, first);
    db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(later);
    await writeLargeWarcs(crawlWarcDir(cockpit.dataDir, later), crawlWarcId(later), 1, 1);
    // The captures the crawls' commits would have stored: the form counts them.
    for (const id of [first, later]) insertCapturesOfIndex(db, id, crawlWarcDir(cockpit.dataDir, id));
  } finally {
    db.close();
  }

  browser = await launchBrowser();
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/exports?crawl=${later}`);
  const group = page.getByRole('group', { name: 'With other crawls of this ICD' });
  await group.waitFor();
  const firstBox = group.getByRole('checkbox', { name: new RegExp(`#${first} \\(finished`) });
  await firstBox.waitFor();
  assert.equal(await group.getByRole('checkbox').count(), 1, 'the other crawl of the ICD, not the chosen one');
  assert.deepEqual(await axeViolations(page), [], 'the form with the other crawls passes axe');

  // From the keyboard: focus the box, Space ticks it.
  await firstBox.focus();
  await page.keyboard.press('Space');
  assert.equal(await firstBox.isChecked(), true);
  await page.getByTestId('other-crawls-preview').filter({ hasText: 'over 2 crawls' }).waitFor();
  const requestButton = page.getByTestId('request-export');
  assert.match((await requestButton.textContent()) ?? '', /of 2 crawls/);
  await requestButton.focus();
  await page.keyboard.press('Enter');
  const card = page.getByTestId('export').first();
  await card.waitFor();
  assert.match((await card.getByTestId('export-other-crawls-taken').textContent()) ?? '', new RegExp(`with crawl #${first}`));
  await page.locator('[data-testid="export"][data-status="done"]').first().waitFor({ timeout: 90_000 });
  const names = await card.getByTestId('export-file').evaluateAll((links) => links.map((a) => a.getAttribute('data-name')));
  for (const id of [first, later]) assert.ok(names.some((n) => n?.startsWith(`tidemark-${id}-`)), `crawl ${id}'s WARC file: ${names.join(', ')}`);
  assert.ok(names.includes('index.cdxj'), 'one index of both');

  // The crawl it took lists it too, saying which crawl it was started from.
  const exportId = await card.getAttribute('data-export-id');
  await page.goto(`${cockpit.url}/exports?crawl=${first}`);
  const listed = page.locator(`[data-testid="export"][data-export-id="${exportId}"]`);
  await listed.waitFor();
  assert.equal((await listed.getByTestId('export-started-from').textContent())?.trim(), `· started from crawl #${later}`);
});
