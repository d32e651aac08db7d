/**
 * A double-click starts one crawl and requests one export. Before, "Start" (crawl definitions),
 * "Start a crawl" (a definition's page), the crawls list's Start and "Request export" were
 * disabled only while their request was pending: enabled again once the server answered, while
 * the crawl's page was still loading (or the new export was being made), the second click of a
 * double-click 150–250 ms apart started a second crawl, or requested a second export. Each test
 * holds the page at that moment (the navigation's request, the export list's reads) and clicks
 * again there, so what it shows does not depend on how fast the machine is. Also: the exports page
 * says why an ended crawl that captured nothing cannot be exported. Real parts: the cockpit
 * (server, worker, SQLite), Chromium.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Locator, Page, Request, Route } from 'playwright-core';
import { signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { finishedLargeCrawl } from '../support/large-warcs';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/** An ICD whose one seed refuses connections: its crawls end at once, with nothing captured. */
async function deadSeedIcd(name: string): Promise<number> {
  const icd = await rig.api.json<{ id: number }>('POST', '/api/icds', { name, seeds: ['http://127.0.0.1:9/'], limits: { maxRetries: 0 }, politeness: { respectRobots: false } });
  return icd.id;
}

/**
 * Holds the requests of `page` that `matches` (not answered) until `release`; `reached` resolves
 * once one is held.
 */
async function holdRequests(page: Page, matches: (request: Request) => boolean) {
  const held: Route[] = [];
  let holding = true;
  let onHeld = () => {};
  const reached = new Promise<void>((resolve) => (onHeld = resolve));
  await page.route('**/*', (route) => {
    if (!holding || !matches(route.request())) return route.fallback();
    held.push(route);
    onHeld();
  });
  return {
    reached,
    release: async () => {
      holding = false;
      await Promise.all(held.splice(0).map((r) => r.continue()));
    },
  };
}

const pathOf = (request: Request) => new URL(request.url()).pathname;

/**
 * Clicks `button`, and once the server has answered and the crawl's page is being loaded (its
 * request held), clicks where it was again: the second click of a double-click. Returns how many
 * crawls the page asked for, and the crawl it went to.
 */
async function doubleClickStart(page: Page, button: Locator): Promise<{ posts: number; crawlId: number }> {
  let posts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && pathOf(r) === '/api/crawls') posts++;
  });
  // The router's request for the crawl's page (not a prefetch of a listed crawl's link).
  const navigation = await holdRequests(page, (r) => /^\/crawls\/\d+$/.test(pathOf(r)) && !Object.keys(r.headers()).some((h) => h.startsWith('next-router-') && h.includes('prefetch')));
  await button.scrollIntoViewIfNeeded();
  const box = (await button.boundingBox())!;
  const answered = page.waitForResponse((r) => r.request().method() === 'POST' && pathOf(r.request()) === '/api/crawls');
  await button.click();
  assert.equal((await answered).status(), 201);
  await navigation.reached;
  assert.equal(await button.isDisabled(), true, 'still disabled after the answer, while the crawl page loads');
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);
  await navigation.release();
  await page.waitForURL(/\/crawls\/\d+$/);
  await page.getByTestId('crawl-status').waitFor();
  return { posts, crawlId: Number(/\/crawls\/(\d+)$/.exec(page.url())![1]) };
}

/** The crawls of the ICD named `name`, once they have ended (a second one, asked for, has been stored by then). */
async function crawlsOf(name: string, crawlId: number): Promise<number> {
  await rig.api.waitForCrawlStatus(crawlId, ['finished', 'stopped', 'failed']);
  const list = await rig.api.json<{ items: { id: number; name: string }[] }>('GET', `/api/crawls?q=${encodeURIComponent(name)}`);
  return list.items.filter((c) => c.name === name).length;
}

test("a double-click on a crawl definition's Start, in the list of definitions, starts one crawl", { timeout: 120_000 }, async () => {
  const name = 'Twice-clicked from the list';
  await deadSeedIcd(name);
  const page = await (await signedInContext(rig)).newPage();
  await page.goto(`${rig.cockpit.url}/icds`);
  const { posts, crawlId } = await doubleClickStart(page, page.getByRole('button', { name: `Start a crawl of ${name}` }));
  assert.equal(posts, 1, 'one crawl asked for');
  assert.equal(await crawlsOf(name, crawlId), 1);

  // That crawl ended without capturing anything: the exports page says so rather than offering an export that would fail.
  await page.goto(`${rig.cockpit.url}/exports?crawl=${crawlId}`);
  await page.getByTestId('export-refusal').waitFor();
  assert.equal(await page.getByTestId('export-refusal').innerText(), 'The crawl finished without capturing anything: it has no captures to export.');
  assert.equal(await page.getByTestId('request-export').isDisabled(), true);
});

test("a double-click on a definition's own Start a crawl starts one crawl", { timeout: 120_000 }, async () => {
  const name = 'Twice-clicked from its page';
  const icdId = await deadSeedIcd(name);
  const page = await (await signedInContext(rig)).newPage();
  await page.goto(`${rig.cockpit.url}/icds/${icdId}`);
  const { posts, crawlId } = await doubleClickStart(page, page.getByTestId('start-crawl'));
  assert.equal(posts, 1, 'one crawl asked for');
  assert.equal(await crawlsOf(name, crawlId), 1);
});

test("a double-click on the crawls list's Start starts one crawl", { timeout: 120_000 }, async () => {
  const name = 'Twice-clicked from the crawls';
  const icdId = await deadSeedIcd(name);
  const page = await (await signedInContext(rig)).newPage();
  await page.goto(`${rig.cockpit.url}/crawls`);
  await page.getByLabel('Start a crawl of').selectOption(String(icdId));
  const { posts, crawlId } = await doubleClickStart(page, page.getByRole('form', { name: 'Start a crawl' }).getByRole('button'));
  assert.equal(posts, 1, 'one crawl asked for');
  assert.equal(await crawlsOf(name, crawlId), 1);
});

test('a double-click on Request export requests one export; the same one can be requested again once it has ended', { timeout: 120_000 }, async () => {
  const crawlId = await finishedLargeCrawl(rig.cockpit.dataDir, 'Harbour, exported once', 1, 1);
  const page = await (await signedInContext(rig)).newPage();
  let posts = 0;
  page.on('request', (r) => {
    if (r.method() === 'POST' && pathOf(r) === `/api/crawls/${crawlId}/exports`) posts++;
  });
  const listPath = `/api/crawls/${crawlId}/exports`;
  const firstRead = page.waitForResponse((r) => pathOf(r.request()) === listPath && r.request().method() === 'GET');
  await page.goto(`${rig.cockpit.url}/exports?crawl=${crawlId}`);
  await firstRead;
  // From now on the list is not read: the new export shows as the page listed it, pending.
  const reads = await holdRequests(page, (r) => r.method() === 'GET' && pathOf(r) === listPath);

  // The picker has read the crawl (the list's heading names it): the form is laid out, the button where it stays.
  await page.getByRole('heading', { name: 'Exports of Harbour, exported once' }).waitFor();
  const button = page.getByTestId('request-export');
  const box = (await button.boundingBox())!;
  await button.click();
  await page.getByTestId('export').waitFor();
  await reads.reached;
  assert.equal(await button.isDisabled(), true, 'disabled while the export just requested is being made');
  assert.match(await page.getByTestId('export-under-way').innerText(), /^Export #\d+ is being prepared \(below\)/);
  await page.mouse.click(box.x + box.width / 2, box.y + box.height / 2);

  await reads.release();
  await page.locator('[data-testid="export"][data-status="done"]').waitFor({ timeout: 60_000 });
  await page.waitForFunction(() => !(document.querySelector('[data-testid="request-export"]') as HTMLButtonElement).disabled);
  assert.equal(posts, 1, 'one export asked for');
  assert.equal((await rig.api.json<unknown[]>('GET', listPath)).length, 1);
});
