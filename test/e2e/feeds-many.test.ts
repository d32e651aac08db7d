/**
 * The crawl page's "Feeds and recrawls" section with more feeds than one page holds: a crawl of 55
 * feeds, 54 of them answering 404: every feed counted, paged 50 at a time and filtered, from the
 * keyboard. The crawl polls a quarter of its feeds a period of its minimum interval (one minute),
 * so every feed within four: the cockpit's minute is shortened to MINUTE_MS
 * (TIDEMARK_TEST_MINUTE_MS), which feeds-recrawls.test.ts cannot do (it reads a round between two).
 * Real parts: the cockpit (server, socket.io, worker, SQLite), Chromium, a loopback site.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { serveLoopback } from '../support/loopback-site';
import { signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

/** The cockpit's minute: the four periods that poll every feed take four of them. */
const MINUTE_MS = 1_000;

// A home page and one feed of one article; anything else (the 54 other feeds) is not there.
const origin: string = await serveLoopback((req, res) => {
  const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${req.url}</title>${body}`);
  if (req.url === '/') return html('<p>harbour news</p>');
  if (req.url === '/news/dredging') return html('<p>the channel is dredged</p>');
  if (req.url === '/feed.xml') {
    return void res.writeHead(200, { 'content-type': 'application/rss+xml' })
      .end(`<?xml version="1.0"?><rss version="2.0"><channel><title>Harbour news</title><item><title>Dredging</title><link>${origin}/news/dredging</link></item></channel></rss>`);
  }
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
});
let rig: BrowserRig;

before(async () => {
  rig = await startBrowserRig({ TIDEMARK_TEST_MINUTE_MS: String(MINUTE_MS) });
});
after(() => stopBrowserRig(rig ?? {}));

test('a crawl of 55 feeds: every feed counted, two pages of them, Next and Previous from the keyboard, the failing ones alone', { timeout: 180_000 }, async () => {
  const { api, cockpit } = rig;
  const feed = `${origin}/feed.xml`;
  const gone = Array.from({ length: 54 }, (_, i) => `${origin}/gone/feed-${i}.xml`);
  const icd = await api.json<{ id: number }>('POST', '/api/icds', {
    name: 'Harbour with many feeds',
    seeds: [`${origin}/`],
    politeness: { minDelayMs: 0, maxDelayMs: 50, delayFactor: 0, respectRobots: false },
    aah: { enabled: false },
    coherence: { feeds: [feed, ...gone], minFeedPollMinutes: 1 },
  });
  const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
  const page = await (await signedInContext(rig)).newPage();
  try {
    await page.goto(`${cockpit.url}/crawls/${crawl.id}`);
    const section = page.getByRole('region', { name: 'Feeds and recrawls' });
    const urls = () => section.getByTestId('feed-row').evaluateAll((els) => els.map((el) => el.getAttribute('data-url')));

    // A quarter of the feeds is polled a (cockpit's) minute: every one within four, each counted once.
    const summary = section.getByTestId('feed-summary');
    // A pattern, not the text ' 0 not polled yet': Playwright trims a text to look for, and '50 not polled yet' holds '0 not polled yet'.
    await summary.filter({ hasText: /, 0 not polled yet;/ }).waitFor({ timeout: 90_000 });
    assert.match(await summary.innerText(), /^55 feeds: 1 polled ok, 54 failing, 0 refused by robots\.txt, 0 excluded, 0 not polled yet; 1 new article in all\./);
    assert.deepEqual(await urls(), [feed, ...gone.slice(0, 49)], 'the first page: 50 feeds in the ICD\'s order');

    // Next, from the keyboard: the other 5; the button keeps the focus on the last page.
    const pager = section.getByRole('navigation', { name: 'Feed pages' });
    await pager.getByRole('button', { name: 'Next' }).focus();
    await page.keyboard.press('Enter');
    await section.locator('[data-testid="feed-table"][data-page="2"]').waitFor();
    assert.deepEqual(await urls(), gone.slice(49));
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Next');
    // The page polled while the crawl runs is the one shown.
    await page.waitForRequest((r) => r.url().includes(`/api/crawls/${crawl.id}/incremental?page=2&filter=all`), { timeout: 30_000 });
    await pager.getByRole('button', { name: 'Previous' }).focus();
    await page.keyboard.press('Enter');
    await section.locator('[data-testid="feed-table"][data-page="1"]').waitFor();
    assert.deepEqual((await urls()).slice(0, 2), [feed, gone[0]]);

    // The failing feeds alone: 54 on two pages, each with its 404; another filter starts at page 1.
    const filter = section.getByLabel('Show', { exact: true });
    assert.deepEqual(await filter.locator('option').allInnerTexts(), [
      'all feeds (55)', 'problems: failing, refused or excluded (54)', 'failing (54)', 'refused by robots.txt (0)', 'excluded (0)', 'not polled yet (0)', 'polled ok (1)',
    ]);
    await filter.selectOption('failing');
    await section.locator('[data-testid="feed-table"][data-total="54"][data-page="1"]').waitFor();
    assert.deepEqual(await urls(), gone.slice(0, 50));
    assert.deepEqual(new Set(await section.getByTestId('feed-row').evaluateAll((els) => els.map((el) => el.getAttribute('data-outcome')))), new Set(['http-error']));
    await pager.getByRole('button', { name: 'Last' }).click();
    await section.locator('[data-testid="feed-table"][data-total="54"][data-page="2"]').waitFor();
    assert.deepEqual(await urls(), gone.slice(50));
  } finally {
    await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' });
    await page.context().close();
  }
});
