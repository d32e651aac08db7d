/**
 * The ICD form's choice of knowledge base, driven by keyboard in Chromium: the select lists the
 * knowledge bases stored in the cockpit, is disabled while the AAH is off, and a definition naming
 * one that is not stored cannot be started (the server's 400 is shown at the select). The crawl's
 * page says which knowledge base it runs with.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { ADMIN_PASSWORD } from '../support/cockpit';
import { signIn, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

let rig: Partial<BrowserRig> = {};
after(() => stopBrowserRig(rig));

test('the AAH section: a labelled select of the stored knowledge bases, off with the AAH; a missing one refuses the start at the select', async () => {
  rig = await startBrowserRig();
  const { cockpit, browser, api } = rig as BrowserRig;
  await api.json('PUT', '/api/knowledge-bases/forums', { xml: readFileSync('knowledge-base/default.xml', 'utf8') });
  // Nothing listens on port 9: the crawl fails its fetches, and its page still shows the knowledge base.
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Boards', seeds: ['http://127.0.0.1:9/'], scope: { maxPages: 1 } });

  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/icds/${icd.id}`);
  const select = page.getByLabel('Knowledge base', { exact: true });
  const aah = page.getByLabel('Recognise web applications with the knowledge base');
  assert.equal(await select.inputValue(), 'default', 'an ICD without the field runs with "default"');
  await page.locator('#aahKnowledgeBase option[value="forums"]').waitFor({ state: 'attached' });
  assert.deepEqual(await select.locator('option').allInnerTexts(), ['default', 'forums']);

  // By keyboard: off with the AAH, on again, then the next knowledge base chosen with an arrow key.
  await aah.focus();
  await page.keyboard.press('Space');
  assert.equal(await select.isDisabled(), true);
  await page.keyboard.press('Space');
  assert.equal(await select.isDisabled(), false);
  await page.keyboard.press('Tab');
  assert.equal(await select.evaluate((el) => el === document.activeElement), true, 'the select follows the checkbox in tab order');
  await page.keyboard.press('ArrowDown');
  assert.equal(await select.inputValue(), 'forums');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  const saved = await api.json<{ definition: { aah: { enabled: boolean; knowledgeBase: string } } }>('GET', `/api/icds/${icd.id}`);
  assert.deepEqual(saved.definition.aah, { enabled: true, knowledgeBase: 'forums' });

  await page.getByTestId('start-crawl').click();
  await page.waitForURL(/\/crawls\/\d+$/);
  assert.equal(await page.getByTestId('crawl-knowledge-base').innerText(), 'forums (as saved when the crawl was created)');

  // A definition naming a knowledge base that is not stored (an ICD file from another cockpit, say).
  const elsewhere = await api.json<{ id: number }>('POST', '/api/icds', { name: 'From elsewhere', seeds: ['http://127.0.0.1:9/'], aah: { knowledgeBase: 'gone' } });
  const crawls = (await api.json<{ total: number }>('GET', '/api/crawls')).total;
  await page.goto(`${cockpit.url}/icds/${elsewhere.id}`);
  await page.locator('#aahKnowledgeBase option[value="forums"]').waitFor({ state: 'attached' });
  assert.equal(await select.inputValue(), 'gone');
  assert.equal(await select.locator('option:checked').innerText(), 'gone (not stored: a crawl of it is refused)');
  await page.getByTestId('start-crawl').click();
  const error = page.getByTestId('error-aahKnowledgeBase');
  await error.waitFor();
  assert.match(await error.innerText(), /^No knowledge base “gone” is stored, and the crawl definition's aah\.knowledgeBase names it/);
  assert.equal(await select.getAttribute('aria-invalid'), 'true');
  await page.waitForFunction(() => document.activeElement?.id === 'aahKnowledgeBase');
  assert.equal((await api.json<{ total: number }>('GET', '/api/crawls')).total, crawls, 'no crawl was created');
  assert.match(page.url(), new RegExp(`/icds/${elsewhere.id}$`));
});
