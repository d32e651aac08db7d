/**
 * A crawl deleted from its own page. Before, the page passed no onDeleted: the tab that deleted it
 * went on showing it "finished · live", with its counters, and so did another tab open on it, whose
 * Delete then answered "Not found.". Now the deleting tab goes to the crawls list, which says the
 * crawl was deleted, and the other tab says so as soon as the server's `crawl:<id>:deleted` event
 * reaches it. Also: that ended crawl's empty charts no longer say they fill in while it runs.
 * And a crawl deleted with a file that cannot be removed (chattr +i): the crawls list says which
 * crawl, which file and why, and when the server tries again, where only the server's log said it;
 * "Try again now" removes it once it can be. Real parts: the cockpit (server, socket.io, worker,
 * SQLite), Chromium, and finished crawls whose WARC files the crawl's own writer wrote into the
 * server's data folder.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { assertFocusComes, signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { axeViolations } from './helpers/axe';
import { assertCanMakeImmutable, makeImmutable, makeRemovable } from '../support/immutable-file';
import { finishedLargeCrawl } from '../support/large-warcs';
import { crawlWarcDir } from '../../worker/store/data-layout';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/** A page on crawl `crawlId`, its live events subscribed to. */
async function openLive(crawlId: number): Promise<Page> {
  const page = await (await signedInContext(rig)).newPage();
  await page.goto(`${rig.cockpit.url}/crawls/${crawlId}`);
  await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();
  return page;
}

test('a crawl deleted from its page: that tab goes to the crawls list, which says so; another tab open on it says it was deleted', { timeout: 120_000 }, async () => {
  const crawlId = await finishedLargeCrawl(rig.cockpit.dataDir, 'Harbour, deleted', 1, 1);
  const other = await openLive(crawlId);
  const page = await openLive(crawlId);
  // Before it goes: an ended crawl with too little to chart does not say its charts fill in while it runs.
  const charts = page.getByTestId('throughput');
  await charts.getByText('The crawl ended with too few captures to draw its throughput.').waitFor();
  assert.doesNotMatch(await charts.innerText(), /fill in while the crawl runs/);

  page.once('dialog', (d) => void d.accept());
  await page.getByRole('button', { name: 'Delete Harbour, deleted' }).click();
  await page.waitForURL(/\/crawls\?deleted=\d+$/);
  assert.equal(await page.getByTestId('crawl-deleted-notice').innerText(), `Crawl #${crawlId} was deleted, with its captures and WARC files.`);
  assert.equal((await rig.api.request('GET', `/api/crawls/${crawlId}`)).status, 404);
  assert.ok(!existsSync(crawlWarcDir(rig.cockpit.dataDir, crawlId)), 'its files are gone');

  // The other tab: no counters, no status, no Delete; it says what happened.
  const notice = other.getByTestId('crawl-deleted');
  await notice.waitFor({ timeout: 15_000 });
  assert.equal(await notice.getByRole('heading').innerText(), `Harbour, deleted #${crawlId}`);
  assert.equal(await notice.getByRole('alert').innerText(), 'This crawl has been deleted (in another tab, or by someone else), with its captures and WARC files.');
  assert.equal(await notice.getByRole('link', { name: 'The crawls' }).getAttribute('href'), '/crawls');
  assert.equal(await other.getByTestId('crawl-status').count(), 0);
  assert.equal(await other.getByTestId('counter-fetched').count(), 0);
  assert.equal(await other.getByRole('button', { name: /^Delete / }).count(), 0);
});

test('a crawl deleted with a file that cannot be removed: the crawls list says which file, why and when it is tried again; "Try again now" removes it once it can be', { timeout: 120_000 }, async () => {
  assertCanMakeImmutable(rig.cockpit.dataDir);
  const crawlId = await finishedLargeCrawl(rig.cockpit.dataDir, 'Harbour, stuck', 1, 1);
  const folder = crawlWarcDir(rig.cockpit.dataDir, crawlId);
  const stuckName = readdirSync(folder).find((name) => name.endsWith('.warc.gz'))!;
  const stuckFile = join(folder, stuckName);
  makeImmutable(stuckFile);
  try {
    const page = await (await signedInContext(rig)).newPage();
    await page.goto(`${rig.cockpit.url}/crawls/${crawlId}`);
    page.once('dialog', (d) => void d.accept());
    await page.getByRole('button', { name: 'Delete Harbour, stuck' }).click();
    await page.waitForURL(/\/crawls\?deleted=\d+$/);

    const notice = page.getByTestId('stuck-deletions');
    await notice.waitFor();
    await page.getByTestId('crawl-deleted-notice').getByText(`Crawl #${crawlId} was deleted, with its captures; not all its files could be removed (below).`).waitFor();
    assert.equal(await notice.getByRole('heading').innerText(), 'Files of deleted crawls not removed');
    assert.equal(await notice.getByRole('alert').innerText(), `The files of deleted crawl Harbour, stuck #${crawlId} could not all be removed from the data folder: the disk space they take is not freed.`);
    const item = notice.getByTestId('stuck-deletion');
    assert.equal(await item.getByTestId('stuck-deletion-reasons').innerText(), `warcs/${crawlId}/${stuckName} could not be removed: operation not permitted (EPERM)`);
    // The DELETE's own try, or the background pass's after it (a minute later, in the browser's time).
    assert.match(await item.getByTestId('stuck-deletion-tries').innerText(), /^(Tried when the crawl was deleted; the server tries again once its captures and other records are deleted\.|Failed again once since the crawl was deleted; the server tries again on its own at \d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.)$/);
    assert.deepEqual(await axeViolations(page), []);
    assert.ok(existsSync(stuckFile));

    makeRemovable(stuckFile);
    // By keyboard.
    await item.getByRole('button', { name: `Try again now to remove the files of Harbour, stuck #${crawlId}` }).focus();
    await page.keyboard.press('Enter');
    await notice.waitFor({ state: 'detached' });
    assert.equal(await page.getByRole('status').filter({ hasText: 'are removed' }).innerText(), `The files of Harbour, stuck #${crawlId} are removed.`);
    await assertFocusComes(page, () => document.activeElement?.getAttribute('data-testid'), 'stuck-deletions-retried', 'the focus the removed button had goes to the outcome');
    assert.equal(existsSync(folder), false, 'its folder is removed');
  } finally {
    if (existsSync(stuckFile)) makeRemovable(stuckFile);
  }
});
