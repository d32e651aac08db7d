/**
 * The archivist's design path in Chromium, for what a person coming from Heritrix or Browsertrix
 * meets: the entity rows of the ICD form are told apart by their labels (the form has its own
 * "Name" field), and the knowledge-base editor refuses an XPath that would throw on every page
 * instead of calling the knowledge base valid.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD } from '../support/cockpit';
import { signIn, startBrowserRig, stopBrowserRig, untilSeen, type BrowserRig } from './helpers/browser';

let rig: Partial<BrowserRig> = {};
after(() => stopBrowserRig(rig));

test('entity rows added by keyboard have labels naming their entity, and "Name" is the crawl\'s name alone', async () => {
  rig = await startBrowserRig();
  const { cockpit, browser } = rig as BrowserRig;
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/icds/new`);
  const addEntity = page.getByRole('button', { name: 'Add entity' });
  await addEntity.focus();
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await page.getByLabel('Name of entity 2', { exact: true }).fill('Electoral Commission');
  await page.getByLabel('Name of entity 1', { exact: true }).fill('Parliament');
  await page.getByLabel('Aliases of entity 2 (one per line)', { exact: true }).fill('EC');
  assert.equal(await page.getByLabel('Type of entity 2', { exact: true }).inputValue(), 'organisation');
  assert.equal(await page.getByLabel('Name', { exact: true }).count(), 1, 'one field is called "Name": the crawl definition\'s');
  await page.getByLabel('Name', { exact: true }).fill('Elections');
  assert.equal(await page.locator('#name').inputValue(), 'Elections');
});

test('the knowledge-base editor refuses, at its line, an XPath with a namespace prefix it would have called valid', async () => {
  const { cockpit, browser } = rig as BrowserRig;
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/knowledge-base`);
  const area = page.getByTestId('kb-xml');
  await page.getByTestId('kb-validation').filter({ hasText: 'Valid knowledge base.' }).waitFor();
  const xml = await area.inputValue();
  const at = xml.indexOf('<xpath');
  const line = xml.slice(0, at).split('\n').length;
  await area.fill(xml.slice(0, at) + xml.slice(at).replace(/<xpath([^>]*)>[^<]*<\/xpath>/, '<xpath$1>//svg:path</xpath>'));
  const error = page.getByTestId('kb-error');
  await error.waitFor();
  assert.equal(await error.getAttribute('data-line'), String(line));
  assert.match(await error.innerText(), /namespace prefix "svg:"/);
  assert.equal(await page.getByTestId('save-kb').isDisabled(), true, 'it cannot be saved');
});

test('loading an ICD file over unsaved edits of the form asks first; declining keeps the edits, accepting loads the file', async () => {
  const { cockpit, browser } = rig as BrowserRig;
  const context = await browser.newContext();
  const asked: string[] = [];
  let accept = false;
  context.on('dialog', (d) => {
    asked.push(d.message());
    void (accept ? d.accept() : d.dismiss());
  });
  const fresh = await context.newPage();
  await signIn(fresh, cockpit.url, 'admin', ADMIN_PASSWORD);
  const file = { name: 'ice.icd.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify({ name: 'From the file', seeds: ['https://example.org/'] })) };
  // Nothing typed yet: the file loads without a question.
  await fresh.goto(`${cockpit.url}/icds/new`);
  await fresh.locator('#icd-file').setInputFiles(file);
  await fresh.getByRole('status').filter({ hasText: 'Loaded from ice.icd.json' }).waitFor();
  assert.deepEqual(asked, []);

  // Typed edits (in another tab of the same session, the first holding its loaded file).
  const page = await context.newPage();
  await page.goto(`${cockpit.url}/icds/new`);
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('Half an hour of typing');
  await page.getByLabel('Seed URLs').fill('https://typed.example.org/');
  await page.locator('#icd-file').setInputFiles(file);
  // The question comes once the page has read the file; then half a second for anything more.
  await untilSeen(page, () => asked.length > 0);
  await page.waitForTimeout(500);
  assert.deepEqual(asked, ['Loading ice.icd.json replaces the unsaved edits of this page. Load it and lose them?']);
  assert.equal(await name.inputValue(), 'Half an hour of typing');
  assert.equal(await page.getByLabel('Seed URLs').inputValue(), 'https://typed.example.org/');

  accept = true;
  await page.locator('#icd-file').setInputFiles(file);
  await page.getByRole('status').filter({ hasText: 'Loaded from ice.icd.json' }).waitFor();
  assert.equal(asked.length, 2);
  assert.equal(await name.inputValue(), 'From the file');
});
