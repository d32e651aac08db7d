/**
 * The archivist's design path in Chromium, for what a person coming from Heritrix or Browsertrix
 * meets: the entity rows of the ICD form are told apart by their labels (the form has its own
 * "Name" field), and the knowledge-base editor refuses an XPath that would throw on every page
 * instead of calling the knowledge base valid.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD } from '../support/cockpit';
import { signIn, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

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
  await page.getByLabel('Aliases of entity 2 (comma-separated)', { exact: true }).fill('EC');
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
