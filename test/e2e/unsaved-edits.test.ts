import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_PASSWORD, startCockpit, type RunningCockpit } from '../support/cockpit';
import { launchBrowser, signIn } from './helpers/browser';

let cockpit: RunningCockpit;
let browser: Browser;
before(async () => {
  cockpit = await startCockpit();
  browser = await launchBrowser();
});
after(async () => {
  await browser?.close();
  await cockpit?.stop();
});

/** Answers every dialog of `page` with `answer.accept` and records `type: message`. */
function answerDialogs(page: Page) {
  const seen: string[] = [];
  const answer = { accept: false };
  page.on('dialog', (d) => {
    seen.push(`${d.type()}: ${d.message()}`);
    void (answer.accept ? d.accept() : d.dismiss());
  });
  return { seen, answer };
}

/** Time for a navigation that should not happen to show itself. */
const settle = (page: Page) => page.waitForTimeout(1000);

test('an in-app link or Back from an edited ICD or knowledge base asks first, and declining keeps the edits', async () => {
  const context = await browser.newContext();
  const page = await context.newPage();
  const dialogs = answerDialogs(page);
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Crawl definitions' }).click();
  await page.waitForURL(/\/icds$/);
  await page.getByRole('link', { name: 'New crawl definition' }).first().click();
  await page.waitForURL(/\/icds\/new$/);
  const name = page.getByLabel('Name', { exact: true });
  await name.fill('Half-written');

  // The nav bar: declined, the editor stays with what was typed.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exports' }).click();
  await settle(page);
  assert.deepEqual(dialogs.seen, ['confirm: This page has unsaved edits. Leave it and lose them?']);
  assert.match(page.url(), /\/icds\/new$/);
  assert.equal(await name.inputValue(), 'Half-written');

  // Back: declined, the address and the page stay.
  await page.evaluate(() => history.back());
  await settle(page);
  assert.equal(dialogs.seen.length, 2);
  assert.match(page.url(), /\/icds\/new$/);
  assert.equal(await name.inputValue(), 'Half-written');

  // The editor's own link back to the list, accepted this time: the page goes.
  dialogs.answer.accept = true;
  await page.getByRole('link', { name: 'Back to the definitions' }).click();
  await page.waitForURL(/\/icds$/);
  assert.equal(dialogs.seen.length, 3);

  // Nothing edited: no question.
  await page.getByRole('link', { name: 'New crawl definition' }).first().click();
  await page.waitForURL(/\/icds\/new$/);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge base' }).click();
  await page.waitForURL(/\/knowledge-base/);
  assert.equal(dialogs.seen.length, 3);

  // The knowledge-base editor, from the keyboard: Enter on a nav link asks too.
  dialogs.answer.accept = false;
  const editor = page.getByTestId('kb-xml');
  await page.locator('[data-testid="kb-validation"][data-state="valid"]').waitFor();
  await editor.press('End');
  await editor.pressSequentially(' ');
  const edited = await editor.inputValue();
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Crawls' }).press('Enter');
  await settle(page);
  assert.equal(dialogs.seen.length, 4);
  assert.match(page.url(), /\/knowledge-base/);
  assert.equal(await editor.inputValue(), edited);
  await context.close();
});
