/**
 * The crawl page's "Exclusions" section: an archivist watching a crawl fall into an endless
 * calendar tests a pattern, sees the error of a broken one at the field, excludes the trap with the
 * keyboard, sees the worker apply it, and removes it again. Real parts: the cockpit (server, worker, SQLite), Chromium,
 * a loopback site crawled politely enough to be running throughout.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { RequestListener } from 'node:http';
import { assertFocusComes, signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { withSite } from '../support/site-crawl';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/** Every day of the calendar links to the next three: the queue of days only grows. */
const site: RequestListener = (req, res) => {
  const url = new URL(req.url ?? '/', 'http://site');
  const html = (links: string[]) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${url.pathname}</title>${links.map((l) => `<a href="${l}">${l}</a>`).join('')}`);
  if (url.pathname === '/') return html(['/calendar?day=1', '/page/1']);
  if (url.pathname === '/calendar') {
    const day = Number(url.searchParams.get('day'));
    return html([1, 2, 3].map((k) => `/calendar?day=${day + k}`));
  }
  const n = /^\/page\/(\d+)$/.exec(url.pathname);
  if (n) return html([`/page/${Number(n[1]) + 1}`]);
  res.writeHead(404, { 'content-type': 'text/plain' }).end('not here');
};

test('the archivist tests a pattern, excludes the trap with Enter, sees it applied while the crawl runs, and removes it with the keyboard', { timeout: 300_000 }, () => withSite(site, async (origin) => {
  const { api, cockpit } = rig;
  const icd = await api.json<{ id: number }>('POST', '/api/icds', {
    name: 'Calendar trap', seeds: [`${origin}/`],
    scope: { maxDepth: 1000 },
    politeness: { minDelayMs: 200, maxDelayMs: 300, delayFactor: 0, concurrency: 1, respectRobots: false },
    aah: { enabled: false },
  });
  const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
  const context = await signedInContext(rig);
  const page = await context.newPage();
  await page.goto(`${cockpit.url}/crawls/${crawl.id}`);
  const section = page.getByRole('region', { name: 'Exclusions' });
  await section.waitFor();
  await section.getByText('The crawl excludes no pattern.').waitFor();

  const field = section.getByLabel('Exclude URLs matching (regular expression)');
  // A broken pattern: the error at the field, described by it.
  await field.fill('(');
  await section.getByRole('button', { name: 'Test' }).click();
  const error = section.locator('#exclusion-pattern-error');
  await error.waitFor();
  assert.equal(await error.innerText(), 'Not a valid regular expression: unterminated group');
  assert.equal(await field.getAttribute('aria-invalid'), 'true');
  assert.equal(await field.getAttribute('aria-describedby'), 'exclusion-pattern-error');

  // Once days are queued, the test counts them and lists some.
  const pattern = '/calendar\\?day=';
  await field.fill(pattern);
  assert.equal(await error.count(), 0, 'editing clears the error');
  const result = section.getByTestId('exclusion-test');
  for (let tries = 0; ; tries++) {
    await section.getByRole('button', { name: 'Test' }).click();
    await result.waitFor();
    if (!(await result.innerText()).startsWith('No waiting URL')) break;
    assert.ok(tries < 40, 'days were queued');
    await page.waitForTimeout(500);
  }
  assert.match(await result.innerText(), /^\d+ waiting URLs? match/);
  const examples = await result.locator('li').allInnerTexts();
  assert.ok(examples.length > 0);
  for (const url of examples) assert.match(url, /\/calendar\?day=\d+$/);

  // Enter excludes it; the list shows it, and then that the worker applied it.
  await field.press('Enter');
  await section.getByTestId('exclusion-added').waitFor();
  assert.equal(await field.inputValue(), '');
  const item = section.getByTestId('exclusion').filter({ hasText: pattern });
  await item.filter({ hasText: /applied: \d+ waiting URLs? excluded/ }).waitFor({ timeout: 15_000 });

  // The same again: refused, at the field.
  await field.fill(pattern);
  await field.press('Enter');
  await error.waitFor();
  assert.equal(await error.innerText(), 'The crawl excludes this pattern already');

  // Removed with the keyboard: gone from the list, the note says the URLs it excluded stay so, and
  // the focus goes to the pattern field rather than to the top of the page.
  await field.fill('');
  const remove = item.getByRole('button', { name: `Remove the exclusion ${pattern}` });
  assert.equal(await remove.innerText(), 'Remove');
  assert.match(await section.locator('#exclusion-remove-help').innerText(), /URLs it has excluded already stay excluded/);
  await remove.focus();
  await page.keyboard.press('Enter');
  const removed = section.getByTestId('exclusion-removed');
  await removed.waitFor();
  assert.match(await removed.innerText(), /^Removed \/calendar\\\?day=: links found from now on that match it are crawled again .*the URLs it excluded stay excluded\.$/);
  await section.getByText('The crawl excludes no pattern.').waitFor();
  await assertFocusComes(page, () => document.activeElement?.id, 'exclusion-pattern', 'the focus goes back to the pattern field');
  const definition = await api.json<{ definition: { scope: { exclude: string[] } } }>('GET', `/api/crawls/${crawl.id}`);
  assert.deepEqual(definition.definition.scope.exclude, [], "out of the crawl's ICD copy");

  // Excluded again (it may be), the crawl stopped: the list stays, the form and the Remove buttons go.
  await field.fill(pattern);
  await field.press('Enter');
  await item.waitFor();
  await api.json('POST', `/api/crawls/${crawl.id}/control`, { action: 'stop' });
  await section.getByRole('form', { name: 'Exclude URLs from the crawl' }).waitFor({ state: 'detached', timeout: 30_000 });
  assert.equal(await section.getByTestId('exclusion').count(), 1);
  assert.equal(await section.getByRole('button', { name: /^Remove/ }).count(), 0);
  await context.close();
}));
