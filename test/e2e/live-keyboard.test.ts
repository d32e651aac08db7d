/**
 * The crawl page's live tables from the keyboard while a crawl runs fast: paging to the ends keeps
 * the focus in the pager, and a capture the keyboard is on (or whose record is open) does not slide
 * off the live first page under it. A capture whose body the connection cut off says so in its row,
 * live and when read again, as do one cut at the size cap and one cut off by the total timeout.
 * Real parts: the cockpit (server, worker, SQLite), Chromium, loopback sites: one of ever more pages
 * crawled with little delay, one whose page /p is cut off mid-body, one too large and too slow.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import type { Page } from 'playwright-core';
import { signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { withSite } from '../support/site-crawl';
import { cutBodySite } from '../support/cut-body-site';

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

const capturesTotal = (page: Page) => page.getByTestId('captures-table').getAttribute('data-total').then(Number);

/** Waits until the crawl has `more` captures more than `from`, as the stored crawl says. */
async function capturesBeyond(crawlId: number, from: number, more: number): Promise<void> {
  for (const end = Date.now() + 60_000; Date.now() < end; await new Promise((r) => setTimeout(r, 200))) {
    const { total } = await rig.api.json<{ total: number }>('GET', `/api/crawls/${crawlId}/captures?page=1&pageSize=1`);
    if (total >= from + more) return;
  }
  throw new Error(`fewer than ${from + more} captures after a minute`);
}

test('keyboard in the live captures table: the pager keeps the focus at its ends; a focused capture or an open record holds the first page still', { timeout: 300_000 }, () => withSite(site, async (origin) => {
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

  // A capture the keyboard is on, on the live first page, stays there while captures keep coming.
  // Its label is read once it has the focus: a capture arriving between reading the tenth row and
  // focusing it moves the rows down, and the focus lands on the row above the one read (CI saw it).
  await page.getByTestId('capture-url').nth(10).focus();
  const label = (await focused(page)).replace(/^BUTTON /, '');
  assert.match(label, /^Show the stored record of /);
  await capturesBeyond(crawl.id, await capturesTotal(page), 40);
  await page.waitForTimeout(1000);
  assert.equal(await focused(page), `BUTTON ${label}`);
  // The newer ones are announced below, and shown on request.
  const newer = page.getByTestId('newer-entries').first();
  await newer.waitFor();
  assert.match(await newer.innerText(), /\d+ newer captures?/);

  // Its record opened with Enter: the table holds still while it is open; Close gives the focus back.
  await page.keyboard.press('Enter');
  await page.getByTestId('capture-record').waitFor();
  await capturesBeyond(crawl.id, await capturesTotal(page), 40);
  await page.waitForTimeout(1000);
  await page.getByTestId('capture-record').getByRole('button', { name: 'Close' }).click();
  assert.equal(await focused(page), `BUTTON ${label}`);

  // Away from the table, the first page is live again: it grows with no key pressed.
  await page.locator('#capture-search').focus();
  await page.waitForFunction(() => !document.querySelector('[data-testid="newer-entries"]'), undefined, { timeout: 10_000 });
  const before = await capturesTotal(page);
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="captures-table"]')?.getAttribute('data-total')) > n + 10, before, { timeout: 30_000 });

  await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' });
  await api.waitForCrawlStatus(crawl.id, ['stopped']);
  await context.close();
}));

/** A promise and the function that settles it: a held answer of the site, sent when the test says. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open = () => {};
  const opened = new Promise<void>((r) => { open = r; });
  return { opened, open };
}

test('a capture whose body the connection cut off is marked so in its row of the captures table, live and when read; a whole one is not', { timeout: 120_000 }, async () => {
  const { api, cockpit } = rig;
  // `/` waits until the page listens live, so its captures come by socket events; `/hold` (linked
  // from `/`, fetched beside /p: politeness off) keeps the crawl running until the rows are read.
  const seedGate = gate();
  const holdGate = gate();
  const cut = cutBodySite();
  const site: RequestListener = (req, res) => {
    if (req.url === '/') return void seedGate.opened.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/p">p</a> <a href="/hold">hold</a>'));
    if (req.url === '/hold') return void holdGate.opened.then(() => res.writeHead(200, { 'content-type': 'text/html' }).end('<p>held</p>'));
    cut.listener(req, res);
  };
  try {
    await withSite(site, async (origin) => {
      const icd = await api.json<{ id: number }>('POST', '/api/icds', {
        name: 'Cut quay', seeds: [`${origin}/`],
        politeness: { enabled: false, respectRobots: false }, aah: { enabled: false },
        // No retry: the cut answer is the capture kept (a retry would fetch /p whole). /hold's
        // answer may wait longer than the rows are waited for: the crawl runs while they are.
        limits: { maxRetries: 0, headersTimeoutMs: 90_000 },
      });
      const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
      const page = await (await signedInContext(rig)).newPage();
      await page.goto(`${cockpit.url}/crawls/${crawl.id}`);
      await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();
      await page.getByText('No capture yet.').waitFor();
      seedGate.open();

      const row = (path: string) => page.getByTestId('capture-row').filter({ has: page.getByRole('button', { name: `Show the stored record of ${origin}${path}`, exact: true }) });
      const expectMarks = async (when: string) => {
        await row('/').waitFor({ timeout: 30_000 });
        await row('/p').waitFor({ timeout: 30_000 });
        // The size cell says how /p was cut, as text a screen reader reads with the cell.
        assert.equal(await row('/p').getByTestId('capture-cut').innerText(), 'cut off: the connection closed', when);
        assert.equal(await row('/p').getByRole('cell', { name: /cut off: the connection closed/ }).count(), 1, when);
        assert.equal(await row('/').getByTestId('capture-cut').count(), 0, when);
        assert.doesNotMatch(await row('/').innerText(), /\bcut\b/, when);
      };
      await expectMarks('live, while the crawl runs');
      assert.equal((await api.json<{ status: string }>('GET', `/api/crawls/${crawl.id}`)).status, 'running', 'the rows came live, not from a read at the end');
      // The marker is plain text, not a control: nothing of it for the keyboard to reach.
      holdGate.open();
      assert.equal(await api.waitForCrawlStatus(crawl.id, ['finished']), 'finished');
      await page.reload();
      await expectMarks('read again after the crawl');
      await page.context().close();
    });
  } finally {
    seedGate.open();
    holdGate.open();
  }
});

test('a capture cut at the size cap, and one cut off by the total timeout, say so in their rows', { timeout: 120_000 }, async () => {
  const { api, cockpit } = rig;
  // /big sends 8 KB where the crawl keeps 2 KB; /slow sends its head and a first line, then
  // nothing until the connection closes, past the crawl's total timeout.
  const slowAnswers: { end: () => void }[] = [];
  const site: RequestListener = (req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/big">big</a> <a href="/slow">slow</a>');
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${'the tide is high '.repeat(480)}</p>`);
    if (req.url === '/slow') {
      res.writeHead(200, { 'content-type': 'text/html' }).write('<p>the tide is turning');
      slowAnswers.push(res);
      return;
    }
    res.writeHead(404).end();
  };
  try {
    await withSite(site, async (origin) => {
      const icd = await api.json<{ id: number }>('POST', '/api/icds', {
        name: 'Capped quay', seeds: [`${origin}/`],
        politeness: { enabled: false, respectRobots: false }, aah: { enabled: false },
        limits: { maxRetries: 0, maxBodyBytes: 2048, totalTimeoutMs: 1500 },
      });
      const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
      assert.equal(await api.waitForCrawlStatus(crawl.id, ['finished']), 'finished');
      const page = await (await signedInContext(rig)).newPage();
      await page.goto(`${cockpit.url}/crawls/${crawl.id}`);
      const row = (path: string) => page.getByTestId('capture-row').filter({ has: page.getByRole('button', { name: `Show the stored record of ${origin}${path}`, exact: true }) });
      await row('/big').waitFor({ timeout: 30_000 });
      assert.equal(await row('/big').getByTestId('capture-cut').innerText(), 'cut at the size cap');
      assert.equal(await row('/slow').getByTestId('capture-cut').innerText(), 'cut off by a timeout');
      assert.equal(await row('/').getByTestId('capture-cut').count(), 0);
      await page.context().close();
    });
  } finally {
    for (const res of slowAnswers) res.end();
  }
});
