import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import type { ApiClient } from '../support/api-client';
import { ADMIN_PASSWORD, type RunningCockpit } from '../support/cockpit';
import { signIn, startBrowserRig, stopBrowserRig, untilSeen } from './helpers/browser';

let cockpit: RunningCockpit;
let browser: Browser;
let api: ApiClient;
before(async () => ({ cockpit, browser, api } = await startBrowserRig()));
after(() => stopBrowserRig({ cockpit, browser }));

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

const createIcd = (name: string) => api.json<{ id: number }>('POST', '/api/icds', { name, seeds: ['http://127.0.0.1:9/'] });

/** Signs in again through the link of `notice`, in the new tab it opens (as admin unless told), and closes that tab. */
async function signInAgainInNewTab(context: BrowserContext, notice: Locator, username = 'admin', password = ADMIN_PASSWORD): Promise<void> {
  const [tab] = await Promise.all([context.waitForEvent('page'), notice.getByRole('link', { name: /Sign in/ }).click()]);
  await tab.getByLabel('User name').fill(username);
  await tab.getByLabel('Password').fill(password);
  await tab.getByLabel('Password').press('Enter');
  await tab.getByTestId('signed-in-again').waitFor();
  assert.match(tab.url(), /\/login\?again=1$/, 'the new tab stays on the login page');
  await tab.close();
}

/** Signed in as admin in a new context whose clock runs (and can be moved on to make the session check due), on the knowledge base with `comment` added, ready to save. */
async function editKnowledgeBase(comment: string) {
  const context = await browser.newContext();
  await context.clock.install();
  const page = await context.newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/knowledge-base`);
  const editor = page.getByTestId('kb-xml');
  await page.locator('[data-testid="kb-validation"][data-state="valid"]').waitFor();
  const xml = await editor.inputValue();
  await editor.fill(xml.replace('</knowledge-base>', `<!-- ${comment} --></knowledge-base>`));
  const edited = await editor.inputValue();
  assert.notEqual(edited, xml);
  await page.locator('[data-testid="save-kb"]:enabled').waitFor(); // checked by the server, ready to save
  return { context, page, editor, edited };
}

/** The stored XML of the cockpit's knowledge base. */
async function storedKbXml(): Promise<string> {
  const kbs = await api.json<{ name: string }[] | { items: { name: string }[] }>('GET', '/api/knowledge-bases');
  const kbName = (Array.isArray(kbs) ? kbs : kbs.items)[0]!.name;
  return (await api.json<{ xml: string }>('GET', `/api/knowledge-bases/${encodeURIComponent(kbName)}`)).xml;
}

/** Back to the tab, as the browser says it: the session is checked again if due. */
const comeBack = (page: Page) => page.evaluate(() => document.dispatchEvent(new Event('visibilitychange', { bubbles: true })));

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

test('Save after the session ended keeps the ICD form; signing in again in a new tab lets the same Save go through', async () => {
  const { id } = await createIcd('Session ends');
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/icds/${id}`);
  const maxPages = page.getByLabel('Max pages', { exact: true });
  await maxPages.fill('77');

  await context.clearCookies(); // the session is gone, as when it expires
  const refused = page.waitForResponse((r) => r.request().method() === 'PUT' && r.status() === 401);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await refused;
  await settle(page);
  assert.match(page.url(), new RegExp(`/icds/${id}$`), 'the page stays');
  assert.equal(await maxPages.inputValue(), '77');
  const notice = page.getByTestId('session-ended');
  assert.match(await notice.innerText(), /Your session has ended: sign in again/);

  await signInAgainInNewTab(context, notice);
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  assert.equal(await notice.count(), 0);
  const stored = await api.json<{ definition: { scope: { maxPages: number } } }>('GET', `/api/icds/${id}`);
  assert.equal(stored.definition.scope.maxPages, 77);
  await context.close();
});

test('someone else signing in in the new tab does not save the ICD form as them: the page says who is signed in and who opened it, keeps the edits, and saves once its user signs in again', async () => {
  await api.json('POST', '/api/users', { username: 'bea', password: 'archivist-password', role: 'archivist' });
  const { id } = await createIcd('Signed in as another');
  const storedMaxPages = async () => (await api.json<{ definition: { scope: { maxPages: number } } }>('GET', `/api/icds/${id}`)).definition.scope.maxPages;
  const before = await storedMaxPages();
  const context = await browser.newContext();
  await context.clock.install(); // time runs, and can be moved on to make the session check due
  const page = await context.newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/icds/${id}`);
  const maxPages = page.getByLabel('Max pages', { exact: true });
  await maxPages.fill('77');
  const puts: number[] = [];
  page.on('response', (r) => void (r.request().method() === 'PUT' && puts.push(r.status())));
  // The answers the test has seen, once it has seen `n` of them (and a second for any more to come).
  const putsOnceSeen = async (n: number) => {
    await untilSeen(page, () => puts.length >= n);
    await settle(page);
    return puts;
  };
  const save = page.getByRole('button', { name: 'Save', exact: true });

  await context.clearCookies();
  await save.click();
  const notice = page.getByTestId('session-ended');
  await notice.waitFor();

  // Bea signs in through the link; Save here is refused by the page itself, not sent as hers.
  await signInAgainInNewTab(context, notice, 'bea', 'archivist-password');
  await save.click();
  await page.getByTestId('session-ended').filter({ hasText: 'signed in as bea' }).waitFor();
  assert.match(await notice.innerText(), /You are now signed in as bea, not as admin who opened this page/);
  assert.match(await notice.innerText(), /sign in again as admin/i);
  assert.deepEqual(await putsOnceSeen(2), [401, 403], 'the refused token is not sent again with her session');
  assert.equal(await storedMaxPages(), before);
  assert.equal(await maxPages.inputValue(), '77');

  // Back to the tab later, when the session is checked again: the page stays admin's and says so.
  await page.clock.fastForward('02:00');
  await comeBack(page);
  const banner = page.getByTestId('session-ended-banner');
  await banner.waitFor();
  assert.match(await banner.innerText(), /You are now signed in as bea, not as admin who opened this page/);
  assert.match(await page.getByTestId('current-user').innerText(), /admin/);
  assert.equal(await maxPages.inputValue(), '77');
  await save.click();
  assert.deepEqual(await putsOnceSeen(3), [401, 403, 403]);
  assert.equal(await storedMaxPages(), before);

  // Admin signs in again: the same Save goes through, as admin, and the notices go.
  await signInAgainInNewTab(context, notice);
  await save.click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  assert.equal(await storedMaxPages(), 77);
  assert.equal(await notice.count(), 0);
  await banner.waitFor({ state: 'detached' });
  assert.match(await page.getByTestId('current-user').innerText(), /admin/);
  await context.close();
});

test('a session that ends over unsaved knowledge-base edits sends neither a background read nor the session check to the login page: the page stays and says to sign in again', async () => {
  const { context, page, editor, edited } = await editKnowledgeBase('edited');

  // The tester set to pick a captured page polls the crawl list (a read; since 702e094 only while its
  // crawl picker is shown). The session ends, and that read is refused.
  await page.getByRole('radio', { name: 'A page captured by a crawl' }).check();
  await page.getByLabel('Find a crawl').waitFor();
  await context.clearCookies();
  const refusedPoll = () => page.waitForResponse((r) => new URL(r.url()).pathname === '/api/crawls' && r.status() === 401);
  // The page's clock moved on by the poll's interval (3 s), rather than waited for.
  await Promise.all([refusedPoll(), page.clock.fastForward(3000)]);
  await settle(page);
  assert.match(page.url(), /\/knowledge-base$/);
  assert.equal(await editor.inputValue(), edited);

  // Back to the tab a while later, when the session is checked again: it says so.
  await page.clock.fastForward('02:00');
  await comeBack(page);
  const notice = page.getByTestId('session-ended-banner');
  await notice.waitFor();
  assert.match(await notice.innerText(), /Your session has ended: sign in again/);
  await settle(page);
  assert.match(page.url(), /\/knowledge-base$/);
  assert.equal(await editor.inputValue(), edited);

  // Signed in again in another tab, back here: the notice goes, and Save works.
  await signInAgainInNewTab(context, notice);
  await comeBack(page);
  await notice.waitFor({ state: 'detached' });
  await page.getByTestId('save-kb').click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  assert.ok((await storedKbXml()).includes('<!-- edited -->'));

  // Nothing unsaved any more: a refused read goes to the login page, as before.
  await context.clearCookies();
  await page.getByLabel('User name').waitFor();
  assert.match(page.url(), /\/login\?next=%2Fknowledge-base$/);
  await context.close();
});

test('someone else signed in when the knowledge-base page checks the session again: the page stays its user\'s over the edits and saves once that user signs in again', async () => {
  await api.json('POST', '/api/users', { username: 'cyd', password: 'archivist-password', role: 'archivist' });
  const { context, page, editor, edited } = await editKnowledgeBase("not cyd's");
  const before = await storedKbXml();
  const comeBackLater = async () => {
    await page.clock.fastForward('02:00');
    await comeBack(page);
  };

  // The session ends; back to the tab later, the page says so; Cyd signs in through its link.
  await context.clearCookies();
  await comeBackLater();
  const banner = page.getByTestId('session-ended-banner');
  await banner.filter({ hasText: 'Your session has ended' }).waitFor();
  await signInAgainInNewTab(context, banner, 'cyd', 'archivist-password');

  // Back here: the session check finds Cyd, and the page stays admin's, saying so.
  await comeBackLater();
  await banner.filter({ hasText: 'signed in as cyd' }).waitFor();
  assert.match(await banner.innerText(), /You are now signed in as cyd, not as admin who opened this page/);
  assert.match(await page.getByTestId('current-user').innerText(), /admin/);
  await page.getByTestId('save-kb').click();
  const refused = page.getByTestId('session-ended').filter({ hasText: 'signed in as cyd' });
  await refused.waitFor();
  await settle(page);
  assert.equal(await storedKbXml(), before);
  assert.equal(await editor.inputValue(), edited);

  // Admin signs in again, back here: the notice goes and Save stores the edits.
  await signInAgainInNewTab(context, refused);
  await comeBackLater();
  await banner.waitFor({ state: 'detached' });
  await page.getByTestId('save-kb').click();
  await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  assert.ok((await storedKbXml()).includes("<!-- not cyd's -->"));
  await context.close();
});

test('the start button saves unsaved topic terms with the form before the crawl starts; a save of either keeps the other', async () => {
  const { id } = await api.json<{ id: number }>('POST', '/api/icds', {
    name: 'Terms under review',
    seeds: ['http://127.0.0.1:9/'],
    focus: { enabled: true, keywords: [{ term: 'tide', weight: 1 }], topicTerms: { tide: 0.9, estuari: 0.5, bake: 0.2, flour: 0.1 } },
  });
  type Definition = { scope: { maxPages: number }; focus: { keywords: { term: string; weight: number }[]; topicTerms: Record<string, number> } };
  const stored = async () => (await api.json<{ definition: Definition }>('GET', `/api/icds/${id}`)).definition;
  const context = await browser.newContext();
  const page = await context.newPage();
  const dialogs = answerDialogs(page);
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/icds/${id}`);
  const shownTerms = () => page.getByTestId('topic-term').evaluateAll((els) => els.map((e) => e.getAttribute('data-term')));
  const maxPages = page.getByLabel('Max pages', { exact: true });
  const saveForm = () => Promise.all([page.waitForResponse((r) => r.request().method() === 'PUT' && r.ok()), page.getByRole('button', { name: 'Save', exact: true }).click()]);

  // Terms saved on their own, then the form: its base is the stored definition, so they stay.
  await page.getByRole('button', { name: 'Remove term flour', exact: true }).click();
  await page.getByTestId('save-terms').click();
  await page.getByRole('status').filter({ hasText: 'Topic terms saved.' }).waitFor();
  await maxPages.fill('77');
  await saveForm();
  assert.deepEqual(await stored().then((d) => [d.scope.maxPages, d.focus.topicTerms]), [77, { tide: 0.9, estuari: 0.5, bake: 0.2 }]);

  // A term removed and the form saved alone: the removal stays on the page, unsaved and guarded.
  // While that save is on its way (held here), neither the terms nor the start button can send a
  // save built on the definition from before it, which would undo it.
  await page.getByRole('button', { name: 'Remove term bake', exact: true }).click();
  await maxPages.fill('78');
  let release = () => {};
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(`${cockpit.url}/api/icds/${id}`, async (route) => {
    if (route.request().method() === 'PUT') await held;
    await route.continue();
  });
  const saving = saveForm();
  await page.locator('[data-testid="save-terms"]:disabled').waitFor({ timeout: 5000 });
  assert.equal(await page.getByTestId('start-crawl').isDisabled(), true);
  release();
  await saving;
  await page.unrouteAll();
  assert.deepEqual(await stored().then((d) => [d.scope.maxPages, d.focus.topicTerms]), [78, { tide: 0.9, estuari: 0.5, bake: 0.2 }]);
  assert.deepEqual(await shownTerms(), ['tide', 'estuari']);
  // Enabled again once the page has taken the save's answer, which may come after the test saw it.
  await page.locator('[data-testid="save-terms"]:enabled').waitFor({ timeout: 5000 });
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Exports' }).click();
  await settle(page);
  assert.deepEqual(dialogs.seen, ['confirm: This page has unsaved edits. Leave it and lose them?']);
  assert.match(page.url(), new RegExp(`/icds/${id}$`));

  // A term added and a keyword changed, neither saved: the start button saves both, then starts.
  await page.getByLabel('Term', { exact: true }).fill('Moonrises');
  await page.getByLabel('Term', { exact: true }).press('Enter');
  await page.getByTestId('added-terms').filter({ hasText: 'moonris' }).waitFor();
  await page.getByLabel('Keyword 1', { exact: true }).fill('tides');
  const label = await page.getByTestId('start-crawl').innerText();
  await page.getByTestId('start-crawl').click();
  await page.waitForURL(/\/crawls\/\d+$/);
  const expected = { keywords: [{ term: 'tides', weight: 1 }], topicTerms: { tide: 0.9, estuari: 0.5, moonris: 1 } };
  const saved = await stored();
  assert.deepEqual({ keywords: saved.focus.keywords, topicTerms: saved.focus.topicTerms }, expected);
  const crawlId = Number(/\/crawls\/(\d+)$/.exec(page.url())![1]);
  const crawl = await api.json<{ definition: Definition }>('GET', `/api/crawls/${crawlId}`);
  assert.deepEqual({ keywords: crawl.definition.focus.keywords, topicTerms: crawl.definition.focus.topicTerms }, expected, 'the crawl runs them');
  assert.equal(label, 'Save the definition and topic terms, then start a crawl');
  assert.equal(dialogs.seen.length, 1, 'nothing was left to ask about');
  await context.close();
});

test('an ICD file loaded over a stored ICD puts its topic terms in the term review, and a save of the form keeps the terms saved since', async () => {
  const { id } = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Loaded over', seeds: ['http://127.0.0.1:9/'], focus: { topicTerms: { tide: 0.9, bake: 0.2 } } });
  type Definition = { description: string; focus: { topicTerms: Record<string, number> } };
  const stored = async () => (await api.json<{ definition: Definition }>('GET', `/api/icds/${id}`)).definition;
  const context = await browser.newContext();
  const page = await context.newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/icds/${id}`);
  await page.getByTestId('topic-term').first().waitFor();
  const file = { name: 'Loaded over', description: 'From a file', seeds: ['http://127.0.0.1:9/'], focus: { topicTerms: { tide: 0.5, moonris: 1, estuari: 0.3 } } };
  await page.locator('#icd-file').setInputFiles({ name: 'over.icd.json', mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(file)) });
  const status = page.getByRole('status').filter({ hasText: 'Loaded from over.icd.json' });
  await status.waitFor();
  // The review shows the terms the file brings, not the stored ones.
  const shownTerms = () => page.getByTestId('topic-term').evaluateAll((els) => els.map((e) => e.getAttribute('data-term')));
  assert.deepEqual(await shownTerms(), ['moonris', 'tide', 'estuari']);

  // One removed and the terms saved, then the form: the form does not put the file's terms back.
  await page.getByRole('button', { name: 'Remove term estuari', exact: true }).click();
  await page.getByTestId('save-terms').click();
  await page.getByRole('status').filter({ hasText: 'Topic terms saved.' }).waitFor();
  await Promise.all([page.waitForResponse((r) => r.request().method() === 'PUT' && r.ok()), page.getByRole('button', { name: 'Save', exact: true }).click()]);
  const saved = await stored();
  assert.deepEqual([saved.description, saved.focus.topicTerms], ['From a file', { moonris: 1, tide: 0.5 }]);
  assert.deepEqual(await shownTerms(), ['moonris', 'tide']);
  assert.match(await status.innerText(), /Its topic terms are in the term review below, not saved yet\.$/);
  await context.close();
});
