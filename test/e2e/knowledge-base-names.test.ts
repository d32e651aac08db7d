/**
 * Creating, renaming and deleting knowledge bases on the Knowledge base page, by keyboard, in
 * Chromium against the real server: a taken name is refused at the field, a rename carries the
 * crawl definition naming the knowledge base along, a delete is refused while a definition names
 * it (in a plain sentence) and then goes through, and `default` offers neither. The delete's
 * confirmation gives the focus back to Delete… when it closes (Escape, Cancel, a refusal: it was
 * left on the body), and a rename to a taken name is refused at the name field.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD } from '../support/cockpit';
import { assertFocusComes, signIn, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

let rig: Partial<BrowserRig> = {};
after(() => stopBrowserRig(rig));

test('create (empty or a copy), rename and delete a knowledge base by keyboard; refusals say why', async () => {
  rig = await startBrowserRig();
  const { cockpit, browser, api } = rig as BrowserRig;
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/knowledge-base`);
  const heading = page.locator('#kb-editor-title');
  await heading.filter({ hasText: /^default$/ }).waitFor();
  assert.match(await page.getByTestId('kb-create').innerText(), /a copy of “default”/);
  assert.equal(await page.getByTestId('kb-manage').count(), 0, 'default is neither renamed nor deleted');
  await page.getByText('it can be edited, not renamed or deleted').waitFor();

  // Create a copy of default: type the name, choose the copy, press Enter.
  const createName = page.getByLabel('New knowledge base');
  await createName.fill('tides');
  await page.getByLabel('a copy of “default”').check();
  await createName.press('Enter');
  await page.waitForURL(/\/knowledge-base\?name=tides$/);
  await heading.filter({ hasText: /^tides$/ }).waitFor();
  const copied = await api.json<{ xml: string }>('GET', '/api/knowledge-bases/tides');
  assert.equal(copied.xml, (await api.json<{ xml: string }>('GET', '/api/knowledge-bases/default')).xml);

  // The same name again: refused, with the reason, and nothing changes.
  await createName.fill('tides');
  await createName.press('Enter');
  await page.getByRole('alert').filter({ hasText: 'A knowledge base named “tides” already exists' }).waitFor();
  // A name the API refuses never leaves the browser: the field says what a name may hold.
  await createName.fill('no spaces');
  await createName.press('Enter');
  assert.equal(await createName.evaluate((el: HTMLInputElement) => el.validity.patternMismatch), true);

  // A crawl definition names it; a rename carries the definition along.
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Tide gauges', seeds: ['http://127.0.0.1:9/'], aah: { enabled: true, knowledgeBase: 'tides' } });
  const renameTo = page.getByLabel('Rename “tides” to');
  await renameTo.fill('gauges');
  await renameTo.press('Enter');
  await page.waitForURL(/\/knowledge-base\?name=gauges$/);
  await heading.filter({ hasText: /^gauges$/ }).waitFor();
  const renamed = await api.json<{ definition: { aah: { knowledgeBase: string } } }>('GET', `/api/icds/${icd.id}`);
  assert.equal(renamed.definition.aah.knowledgeBase, 'gauges');
  assert.deepEqual(await page.locator('#kb-name option').allInnerTexts(), ['default', 'gauges']);

  // Deleting it while the definition names it: refused, naming the definition in a plain sentence,
  // and the focus back on Delete… (it was left on the page's body).
  const focusedText = () => document.activeElement?.textContent ?? null;
  await page.getByRole('button', { name: 'Delete…' }).click();
  await page.keyboard.press('Enter'); // the confirmation button has the focus
  const refusal = page.getByRole('alert').filter({ hasText: 'is in use' });
  await refusal.waitFor();
  assert.match(await refusal.innerText(), /^Knowledge base “gauges” is in use, so it was not deleted: the crawl definition “Tide gauges” \(#\d+\) names it\. To delete it, first choose another knowledge base in that crawl definition$/);
  await assertFocusComes(page, focusedText, 'Delete…', 'a refused delete gives the focus back to Delete…');
  assert.equal((await api.json<{ name: string }[]>('GET', '/api/knowledge-bases')).length, 2);

  // Escape takes the confirmation back, and so does Cancel: the focus goes back to Delete… each time.
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Delete “gauges”' }).waitFor();
  await refusal.waitFor({ state: 'detached' }); // asking again clears the last refusal
  await page.keyboard.press('Escape');
  assert.equal(await page.getByRole('button', { name: 'Delete “gauges”' }).count(), 0);
  await assertFocusComes(page, focusedText, 'Delete…', 'Escape gives the focus back to Delete…');
  await page.keyboard.press('Enter');
  await page.getByRole('button', { name: 'Cancel' }).click();
  await assertFocusComes(page, focusedText, 'Delete…', 'Cancel gives the focus back to Delete…');

  // A rename to a taken name is refused at the name field; it clears an old refusal to delete.
  await page.keyboard.press('Enter');
  await page.keyboard.press('Enter');
  await refusal.waitFor();
  const renameGauges = page.getByLabel('Rename “gauges” to');
  await renameGauges.fill('default');
  await renameGauges.press('Enter');
  const taken = page.getByTestId('kb-rename-name-issue');
  await taken.waitFor();
  assert.equal(await taken.innerText(), 'A knowledge base named “default” already exists: choose another name');
  assert.equal(await renameGauges.getAttribute('aria-invalid'), 'true');
  assert.equal(await refusal.count(), 0, 'the refusal to delete is gone once a rename starts');
  assert.equal(await page.getByRole('alert').filter({ hasText: '“default” already exists' }).count(), 1, 'said once, at the field');

  // Once the definition names another, the delete goes through and the page shows what is left.
  await api.json('PUT', `/api/icds/${icd.id}`, { name: 'Tide gauges', seeds: ['http://127.0.0.1:9/'], aah: { enabled: true, knowledgeBase: 'default' } });
  await page.getByRole('button', { name: 'Delete…' }).click();
  await page.getByRole('button', { name: 'Delete “gauges”' }).press('Enter');
  await page.waitForURL(/\/knowledge-base$/);
  await heading.filter({ hasText: /^default$/ }).waitFor();
  assert.deepEqual((await api.json<{ name: string }[]>('GET', '/api/knowledge-bases')).map((k) => k.name), ['default']);
});
