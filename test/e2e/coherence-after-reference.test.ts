/**
 * The coherence view of a run over no page, and of pages visited after the run's reference time.
 * A run whose pass had no page to revisit has no coherence and no blur (the API says null, with the
 * reason in `unmeasured`): the view showed "—" and never the reason. Pages visited after the
 * reference time (URLs posted, or found by a sitemap or feed, during the pass of a crawl with
 * recrawls) showed as "not revisited yet", their detail "Revisit · not made yet", though that run
 * never revisits them. Real parts: the server, its database, Chromium.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { summarise } from '../../worker/coherence';
import { openSqlite, sqlDate } from '../../worker/store/sqlite';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/** The text of the element that describes `locator`'s element (aria-describedby), '' when none does. */
async function descriptionOf(page: Page, selector: string): Promise<string> {
  return page.evaluate((s) => {
    const ids = document.querySelector(s)?.getAttribute('aria-describedby') ?? '';
    return ids.split(/\s+/).map((id) => document.getElementById(id)?.textContent ?? '').join(' ').trim();
  }, selector);
}

test('a run over no page shows why it has no coherence; a page visited after the reference time shows as outside the certificate', async () => {
  const { cockpit, api } = rig;
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Posted during the pass', seeds: ['http://quay.example/'], coherence: { mode: 'visit-revisit', recrawlIntervalMinutes: 10_000 } });
  const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
  // Stopped after its pass: the seed gave no page to revisit; a URL posted during the pass was visited after it.
  const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status) SELECT id, definition, name, 'stopped' FROM Icd WHERE id = ?").run(icd.id).lastInsertRowid);
  const reference = new Date(Date.now() - 60_000);
  const late = 'http://quay.example/posted';
  db.prepare('INSERT INTO CoherenceRun (crawlId, referenceTime, startedAt, finishedAt, summary) VALUES (?, ?, ?, ?, ?)')
    .run(crawlId, sqlDate(reference), sqlDate(reference), sqlDate(new Date(reference.getTime() + 1_000)), JSON.stringify(summarise([], reference.getTime())));
  db.prepare("INSERT INTO CoherencePage (crawlId, url, parentUrl, depth, mime, visitedAt, visit, visitText) VALUES (?, ?, NULL, 0, 'text/html', ?, '{}', 'notice of the quay')")
    .run(crawlId, late, sqlDate(new Date(reference.getTime() + 5_000)));
  db.close();

  const page = await (await signedInContext(rig)).newPage();
  await page.goto(`${cockpit.url}/crawls/${crawlId}/coherence`);
  const summary = page.getByTestId('coherence-summary');
  await summary.waitFor();
  // The reason beside each figure, and as the figure's description for a screen reader.
  const coherence = page.getByTestId('coherence-figure');
  assert.match(await coherence.innerText(), /^coherence\s+—[\s\S]*Not measured: no page was visited and revisited\.$/);
  assert.match(await page.getByTestId('blur-figure').innerText(), /Not measured: no page was visited and revisited\./);
  assert.equal(await descriptionOf(page, '[data-testid="coherence-figure"]'), 'Not measured: no page was visited and revisited.');
  assert.equal(await page.getByRole('group', { name: 'coherence', exact: true }).count(), 1, 'the figure is a group named by its label');
  assert.doesNotMatch(await summary.innerText(), /100\.0 %/);
  // Not among the pages the pass revisits: 0 of 0, and one visited after the reference time.
  assert.match(await summary.innerText(), /pages revisited\s+0 \/ 0/);
  assert.match(await page.getByTestId('after-reference-figure').innerText(), /visited after the reference time \(outside the certificate\)\s+1/);

  // The page has its own status and colour in the tree and in the legend.
  const node = page.locator(`[data-testid="tree-node"][data-url="${late}"]`);
  await node.waitFor();
  assert.equal(await node.getAttribute('data-status'), 'after-reference');
  assert.equal(await node.locator('path').getAttribute('fill'), '#7c3aed');
  assert.match((await node.getAttribute('aria-label'))!, /: visited after the reference time$/);
  assert.match(await page.getByRole('list', { name: 'Legend' }).innerText(), /visited after the reference time/);

  // Its detail says why it has no revisit, not that the revisit is still to come.
  await node.click();
  const status = page.getByTestId('page-status');
  await status.waitFor();
  assert.match(await status.innerText(), /^Status: visited after the reference time — outside this capture's certificate/);
  const heading = await page.getByTestId('revisit-text').locator('h3').innerText();
  assert.match(heading, /^Revisit · none: visited after the reference time — outside this capture's certificate/);
  assert.doesNotMatch(heading, /not made yet/);
  assert.equal(await page.getByRole('region', { name: /^Revisit · none/ }).count(), 1, 'the revisit region is named by that heading');
});
