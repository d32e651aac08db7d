/**
 * An ICD or knowledge base changed elsewhere (here through the API, as a script or another tab
 * would) while it is open in the cockpit: the page's save is refused instead of overwriting that
 * change, what was typed stays, and both ways on work from the keyboard.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import type { ApiClient } from '../support/api-client';
import { ADMIN_PASSWORD, type RunningCockpit } from '../support/cockpit';
import { assertFocusComes, signIn, startBrowserRig, stopBrowserRig } from './helpers/browser';

let cockpit: RunningCockpit;
let browser: Browser;
let api: ApiClient;
before(async () => ({ cockpit, browser, api } = await startBrowserRig()));
after(() => stopBrowserRig({ cockpit, browser }));

type Definition = { name: string; seeds: string[]; description?: string; scope?: { maxPages?: number } };
const putAnswer = (page: Page, status: number) => page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === status);

/** Changes the stored document as a script would: a PUT without If-Match. */
async function changeElsewhere(path: string, change: (stored: Record<string, unknown>) => Record<string, unknown>): Promise<void> {
  const stored = await api.json<Record<string, unknown>>('GET', path);
  const res = await api.request('PUT', path, change(stored));
  assert.equal(res.status, 200, await res.text());
}

test('ICD saved through the API meanwhile: Save is refused and says so, the typed value stays; Overwrite with mine and Reload theirs both work from the keyboard', async () => {
  const { id } = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Open twice', seeds: ['http://127.0.0.1:9/'] });
  const path = `/api/icds/${id}`;
  const stored = async () => (await api.json<{ definition: Definition }>('GET', path)).definition;
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/icds/${id}`);
  const maxPages = page.getByLabel('Max pages', { exact: true });
  const description = page.getByLabel('Description', { exact: true });
  await maxPages.waitFor();
  const openedMaxPages = (await stored()).scope?.maxPages;
  assert.equal(await maxPages.inputValue(), String(openedMaxPages));

  await changeElsewhere(path, (s) => ({ ...(s.definition as Definition), description: 'Changed through the API' }));
  await maxPages.fill('77');
  const refused = putAnswer(page, 412);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await refused;
  const notice = page.getByTestId('edit-conflict');
  await notice.waitFor();
  assert.match(await notice.innerText(), /This crawl definition was saved elsewhere at .+, after this page opened it/);
  assert.match(await notice.innerText(), /your edits are still here, not saved/);
  assert.equal(await maxPages.inputValue(), '77', 'the typed value stays');
  assert.equal(await description.inputValue(), '', 'the form still shows what it was opened with');
  assert.deepEqual([(await stored()).description, (await stored()).scope?.maxPages], ['Changed through the API', openedMaxPages], 'nothing of the page was stored');
  assert.equal(await page.getByTestId('error').count(), 0, 'no second, generic error');

  // The notice has the focus: Tab reaches "Reload theirs", then "Overwrite with mine".
  await assertFocusComes(page, () => document.activeElement?.getAttribute('data-testid'), 'edit-conflict', 'the notice has the focus');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Reload theirs (your edits are discarded)');
  await page.keyboard.press('Tab');
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Overwrite with mine');
  const overwritten = putAnswer(page, 200);
  await page.keyboard.press('Enter');
  await overwritten;
  await notice.waitFor({ state: 'detached' });
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  assert.deepEqual([(await stored()).description, (await stored()).scope?.maxPages], ['', 77], 'the page’s version replaced theirs, knowingly');

  // Saved here: the next save builds on that version and goes through.
  await maxPages.fill('78');
  const next = putAnswer(page, 200);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await next;
  assert.equal((await stored()).scope?.maxPages, 78);

  // Changed elsewhere again: this time Reload theirs, from the keyboard; the page shows their version.
  await changeElsewhere(path, (s) => ({ ...(s.definition as Definition), description: 'Changed again', scope: { maxPages: 5 } }));
  await maxPages.fill('79');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await notice.waitFor();
  await assertFocusComes(page, () => document.activeElement?.getAttribute('data-testid'), 'edit-conflict', 'the notice has the focus again');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await notice.waitFor({ state: 'detached' });
  assert.equal(await description.inputValue(), 'Changed again');
  assert.equal(await maxPages.inputValue(), '5');
  assert.deepEqual([(await stored()).description, (await stored()).scope?.maxPages], ['Changed again', 5]);

  // Reloaded: a save from here builds on their version and goes through.
  await maxPages.fill('6');
  const saved = putAnswer(page, 200);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await saved;
  assert.deepEqual([(await stored()).description, (await stored()).scope?.maxPages], ['Changed again', 6]);
  await context.close();
});

test('knowledge base saved through the API meanwhile: Save is refused, the typed XML stays; Reload theirs shows theirs', async () => {
  const path = '/api/knowledge-bases/default';
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/knowledge-base`);
  const editor = page.getByTestId('kb-xml');
  await page.locator('[data-testid="kb-validation"][data-state="valid"]').waitFor();
  const opened = await editor.inputValue();

  await changeElsewhere(path, (s) => ({ xml: `${s.xml as string}\n<!-- theirs -->` }));
  await editor.fill(opened.replace('</knowledge-base>', '<!-- mine --></knowledge-base>'));
  const mine = await editor.inputValue();
  await page.locator('[data-testid="save-kb"]:enabled').waitFor();
  const refused = putAnswer(page, 412);
  await page.getByTestId('save-kb').click();
  await refused;
  const notice = page.getByTestId('edit-conflict');
  await notice.waitFor();
  assert.match(await notice.innerText(), /This knowledge base was saved elsewhere at/);
  assert.equal(await editor.inputValue(), mine, 'the typed XML stays');
  assert.match((await api.json<{ xml: string }>('GET', path)).xml, /<!-- theirs -->$/);

  await notice.getByRole('button', { name: 'Reload theirs (your edits are discarded)' }).press('Enter');
  await notice.waitFor({ state: 'detached' });
  assert.equal(await editor.inputValue(), `${opened}\n<!-- theirs -->`);
  await context.close();
});
