/**
 * What the crawl page does with what users and crawled pages wrote, and with many seeds. Real
 * parts: the cockpit (server, worker, SQLite), Chromium, a loopback site whose page title starts
 * with a right-to-left override.
 * - A right-to-left override (U+202E) in an ICD's name or a page's title stays inside it. Before,
 *   it reversed the rest of its line: the crawl's heading showed "#12" as "21#", so did the crawls
 *   list, and the pickers' options reversed the id.
 * - A crawl of 5,000 seeds names the first 5 in its header and "and 4,995 more", which opens the
 *   seeds report, which pages through all of them, 200 at a time. Before, its header listed every
 *   seed: a paragraph 20,000 px tall; the crawl's answer, read again on each status change, held
 *   them all (143 KB), and the report listed the first 200 only.
 * - The crawl log and the captures show the date with the time (before: the time alone).
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import type { Locator } from 'playwright-core';
import { signedInContext, startBrowserRig, stopBrowserRig, assertFocusComes, type BrowserRig } from './helpers/browser';
import { withSite } from '../support/site-crawl';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

const RLO = '\u202E';
const NAME = `Tides ${RLO}of the bay`;
const TITLE = `${RLO}Tide table`;

/** The home page (its title an override) links to two more; every other seed is a 404. */
const site: RequestListener = (req, res) => {
  if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>${TITLE}</title><p>High water.</p><a href="/a">a</a> <a href="/b">b</a>`);
  if (req.url === '/a' || req.url === '/b') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${req.url}</title><p>Low water.</p>`);
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
};

/** Whether the first character of `span`'s text is drawn left of its second ("#12" reads "#12", not "21#"). */
function readsLeftToRight(span: Locator): Promise<boolean> {
  return span.evaluate((el) => {
    // No named function in here: the compiled test would name it with a helper the page lacks.
    // React writes "#{id}" as two text nodes: each character's box, across them.
    const lefts: number[] = [];
    for (const node of Array.from(el.childNodes).filter((n) => n.nodeType === Node.TEXT_NODE)) {
      for (let i = 0; i < (node.textContent ?? '').length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        lefts.push(range.getBoundingClientRect().left);
      }
    }
    return lefts.length >= 2 && lefts[0]! < lefts[1]!;
  });
}

test('a crawl of 5,000 seeds whose name and page title hold a right-to-left override: its page, the crawls list and the pickers', { timeout: 180_000 }, () => withSite(site, async (origin) => {
  const seeds = [`${origin}/`, ...Array.from({ length: 4_999 }, (_, i) => `${origin}/s${i}`)];
  const icd = await rig.api.json<{ id: number }>('POST', '/api/icds', {
    name: NAME, seeds, scope: { maxPages: 3 },
    politeness: { minDelayMs: 0, maxDelayMs: 20, delayFactor: 0, respectRobots: false }, aah: { enabled: false },
  });
  const crawl = await rig.api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
  assert.equal(await rig.api.waitForCrawlStatus(crawl.id, ['finished', 'stopped', 'failed'], 120_000), 'finished');

  const page = await (await signedInContext(rig)).newPage();
  await page.goto(`${rig.cockpit.url}/crawls/${crawl.id}`);
  await page.getByTestId('crawl-log').waitFor();

  // The heading: the name isolated, the id after it read as written.
  const heading = page.getByRole('heading', { level: 1 });
  assert.equal(await readsLeftToRight(heading.locator('span')), true, 'the heading shows the id as #N');
  assert.equal(await heading.locator('bdi').innerText(), NAME);

  // The header names 5 seeds, then how many more, which opens the seeds report.
  const shown = page.getByTestId('crawl-seeds');
  assert.deepEqual(await shown.locator('bdi').allInnerTexts(), seeds.slice(0, 5));
  assert.match(await shown.innerText(), / and 4,995 more$/);
  await page.getByTestId('more-seeds').click();
  await page.getByTestId('report-seeds').waitFor();
  assert.match(await page.getByTestId('report-seeds').locator('caption').innerText(), /^Seeds \(the first 200 of 5000\)$/);
  await assertFocusComes(page, () => document.activeElement?.parentElement?.id ?? null, 'crawl-reports', "the focus on the reports' summary");
  // Every seed is within reach: the report's pages, the last one too.
  const seedCells = page.getByTestId('report-seeds').locator('tbody tr td:first-child');
  await page.getByTestId('next-seeds').click();
  await page.getByTestId('report-seeds').locator('caption').filter({ hasText: /^Seeds \(201–400 of 5,000\)$/ }).waitFor();
  assert.equal(await seedCells.first().innerText(), seeds[200]);
  for (let n = 3; n <= 25; n++) await page.getByTestId('next-seeds').click();
  await page.getByTestId('report-seeds').locator('caption').filter({ hasText: /^Seeds \(4,801–5,000 of 5,000\)$/ }).waitFor();
  assert.deepEqual(await seedCells.allInnerTexts(), seeds.slice(4_800));
  assert.equal(await page.getByTestId('next-seeds').isDisabled(), true, 'no page after the last');

  // The captured page's title is isolated; the log and the captures give the date with the time.
  const title = page.getByTestId('capture-title').filter({ hasText: 'Tide table' });
  assert.equal(await title.locator('bdi').innerText(), TITLE);
  const timestamp = /^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/;
  assert.match(await page.getByTestId('log-row').first().locator('td').first().innerText(), timestamp);
  assert.match(await page.getByTestId('capture-row').first().locator('td').first().innerText(), timestamp);

  // The crawls list: the row's id reads as written.
  await page.goto(`${rig.cockpit.url}/crawls`);
  const row = page.locator(`[data-testid="crawl-row"][data-crawl-id="${crawl.id}"]`);
  await row.waitFor();
  assert.equal(await readsLeftToRight(row.locator('td').first().locator('span.text-xs')), true, 'the list shows the id as #N');

  // Options hold no element: the name is between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE.
  assert.ok((await page.locator('#start-icd option').allTextContents()).includes(`\u2068${NAME}\u2069`));
  await page.goto(`${rig.cockpit.url}/exports?crawl=${crawl.id}`);
  const option = page.locator(`#export-crawl option[value="${crawl.id}"]`);
  await option.waitFor({ state: 'attached' });
  assert.equal(await option.textContent(), `\u2068${NAME}\u2069 #${crawl.id} (finished, 3 pages)`);
}));
