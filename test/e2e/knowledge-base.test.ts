import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { ADMIN_PASSWORD, startCockpit, type RunningCockpit } from '../support/cockpit';
import { launchBrowser, signIn } from './helpers/browser';

let cockpit: RunningCockpit | undefined;
let browser: Browser | undefined;
after(async () => {
  await browser?.close();
  await cockpit?.stop();
});

const PHPBB_DETECT = "//body[@id='phpbb']";

test('the knowledge-base editor names the line of an invalid XPath as you type, and its tester finds the posts of a phpBB page', async () => {
  cockpit = await startCockpit();
  browser = await launchBrowser();
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.getByRole('link', { name: 'Knowledge base' }).click();

  const editor = page.getByTestId('kb-xml');
  await page.locator('[data-testid="kb-validation"][data-state="valid"]').waitFor();
  const xml = await editor.inputValue();
  const line = xml.split('\n').findIndex((l) => l.includes(PHPBB_DETECT)) + 1;
  assert.ok(line > 0, 'the shipped knowledge base detects phpBB by its body id');

  // Break one XPath (an unclosed predicate): the error names its line, and Save is refused.
  await editor.fill(xml.replace(PHPBB_DETECT, "//body[@id='phpbb'"));
  const error = page.locator('[data-testid="kb-error"]').first();
  await error.waitFor();
  assert.equal(await error.getAttribute('data-line'), String(line));
  assert.match(await error.innerText(), new RegExp(`^Line ${line}\\b[\\s\\S]*xpath`, 'i'));
  assert.equal(await page.getByTestId('save-kb').isDisabled(), true);

  // Clicking the message selects the offending line in the editor.
  await error.click();
  const selected = await editor.evaluate((el: HTMLTextAreaElement) => el.value.slice(el.selectionStart, el.selectionEnd));
  assert.ok(selected.includes("//body[@id='phpbb'"), selected);

  // Fixed again: valid, and the tester runs the knowledge base being edited on pasted phpBB HTML.
  await editor.fill(xml);
  await page.locator('[data-testid="kb-validation"][data-state="valid"]').waitFor();
  const html = readFileSync('test/fixtures/aah/phpbb/viewtopic.html', 'utf8');
  await page.getByLabel('Page URL').fill('http://forum.example.org/viewtopic.php?t=1');
  await page.getByLabel('HTML', { exact: true }).fill(html);
  await page.getByTestId('run-tester').click();
  await page.getByTestId('tester-result').waitFor();
  assert.equal(await page.getByTestId('tester-application').innerText(), 'phpBB');
  assert.equal(await page.getByTestId('tester-level').innerText(), 'terminal');

  const posts = page.locator('[data-testid="tester-extraction"][data-rule="phpbb/terminal/post"] [data-testid="tester-object"]');
  assert.equal(await posts.count(), 2);
  assert.match(await posts.first().innerText(), /Caulking a clinker hull[\s\S]*shipwright[\s\S]*Which cotton do you use/);
  const login = page.locator('[data-testid="tester-navigation"][data-rule="phpbb/*/login"]');
  assert.equal(await login.getAttribute('data-follow'), 'false');

  // The preview outlines what the actions selected (the two posts among them).
  const preview = page.frameLocator('[data-testid="tester-preview"]');
  await preview.locator('#p11').waitFor();
  await page.waitForFunction(() => {
    const doc = (document.querySelector('[data-testid="tester-preview"]') as HTMLIFrameElement | null)?.contentDocument;
    return !!doc && (doc.getElementById('p11') as HTMLElement | null)?.style.outlineStyle === 'solid';
  });
  assert.equal(await preview.locator('#p12').evaluate((el: HTMLElement) => el.title), 'phpbb/terminal/post (object)');

  // An unsaved edit of the XML: closing the tab asks first.
  await editor.press('End');
  await editor.pressSequentially(' ');
  const asked = new Promise<string>((resolve) => page.once('dialog', (d) => { resolve(d.type()); void d.accept(); }));
  await page.close({ runBeforeUnload: true });
  assert.equal(await Promise.race([asked, new Promise<string>((r) => setTimeout(() => r('no dialog'), 2000))]), 'beforeunload');
});
