/**
 * The crawl page's live tables from the keyboard while a crawl runs fast: paging to the ends keeps
 * the focus in the pager. Real parts: the cockpit (server, worker, SQLite), Chromium, a
 * loopback site of ever more pages crawled with little delay.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import type { Page } from 'playwright-core';
import { signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { withSite } from '../support/site-crawl';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/** Each page links to five more: the crawl never runs out of pages. */
const site: RequestListener = (req, res) => {
  if (req.url === '/robots.txt') return void res.writeHead(404).end();
  const n = Number(/^\/p\/(\d+)$/.exec(new URL(req.url ?? '/', 'http://site').pathname)?.[1] ?? 0);
  const links = Array.from({ length: 5 }, (_, k) => n * 5 + 1 + k);
  res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${n}</title>${links.map((m) => `<a href="/p/${m}">${m}</a>`).join('')}`);
};

/** What has the focus: its tag and accessible label or text. */
const focused = (page: Page) => page.evaluate(() => {
  const a = document.activeElement;
  if (!a || a === document.body) return 'BODY';
  return `${a.tagName} ${a.getAttribute('aria-label') ?? a.textContent ?? ''}`.trim();
});

test('keyboard in the live captures table: the pager keeps the focus at its ends', { timeout: 300_000 }, () => withSite(site, async (origin) => {
  const { api, cockpit } = rig;
  const icd = await api.json<{ id: number }>('POST', '/api/icds', {
    name: 'Fast tree', seeds: [`${origin}/`], scope: { maxDepth: 1000 },
    politeness: { minDelayMs: 20, maxDelayMs: 30, delayFactor: 0, concurrency: 1, respectRobots: false }, aah: { enabled: false },
  });
  const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
  const context = await signedInContext(rig);
  const page = await context.newPage();
  await page.goto(`${cockpit.url}/crawls/${crawl.id}`);
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="captures-table"]')?.getAttribute('data-total')) > 60, undefined, { timeout: 60_000 });

  // Last, then First, by keyboard: the focus stays on the button pressed, not thrown to the page's top.
  const pager = page.getByRole('navigation', { name: 'Captures pages' });
  const pageNumber = pager.getByLabel('Captures pages: page number');
  await pager.getByRole('button', { name: 'Last' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (document.querySelector('[aria-label="Captures pages: page number"]') as HTMLInputElement).value !== '1');
  await page.waitForTimeout(300);
  assert.equal(await focused(page), 'BUTTON Last');
  // Pressed again where there is no further page: nothing moves.
  const last = await pageNumber.inputValue();
  await page.keyboard.press('Enter');
  await page.waitForTimeout(300);
  assert.equal(await pageNumber.inputValue(), last);
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  await page.keyboard.press('Shift+Tab');
  assert.equal(await focused(page), 'BUTTON First');
  await page.keyboard.press('Enter');
  await page.waitForFunction(() => (document.querySelector('[aria-label="Captures pages: page number"]') as HTMLInputElement).value === '1');
  await page.waitForTimeout(300);
  assert.equal(await focused(page), 'BUTTON First');

  await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' });
  await api.waitForCrawlStatus(crawl.id, ['stopped']);
  await context.close();
}));
