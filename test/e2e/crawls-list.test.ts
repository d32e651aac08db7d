/**
 * The crawls list with many crawls, paged on the server: 50 a page with a pager, filtered by status
 * and by name or id, from the keyboard; the browser never receives more than the page it shows.
 * Real parts: the cockpit (server, worker, SQLite) with 260 crawls stored in its database as the
 * cockpit stores them, Chromium.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { openSqlite } from '../../worker/store/sqlite';
import { signedInContext, untilSeen, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/** Ended or paused: statuses the worker leaves alone. */
const STATUSES = ['finished', 'paused', 'stopped', 'failed', 'finished'];

type ListPage = { items: { id: number; name: string; status: string }[]; total: number; page: number; pageSize: number };

/** Every crawl, newest first, read page by page as any API caller would. */
async function allCrawls(): Promise<ListPage['items']> {
  const all: ListPage['items'] = [];
  for (let page = 1; ; page++) {
    const body = await rig.api.json<ListPage>('GET', `/api/crawls?page=${page}&pageSize=500`);
    all.push(...body.items);
    if (all.length >= body.total || body.items.length === 0) return all;
  }
}

/**
 * The oldest crawl, once the database holds over 500 (finished crawls of an ICD named `icdName`
 * are added, enough whether or not the tests above ran): older than the newest 500. Renamed
 * `rename` when given.
 */
function oldestOfMany(icdName: string, rename?: string): { id: number; name: string } {
  const db = openSqlite(join(rig.cockpit.dataDir, 'tidemark.db'));
  try {
    const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES (?, '{}', datetime('now'), datetime('now'))").run(icdName).lastInsertRowid;
    const insert = db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', ?, 'finished', 'run', datetime('now'))");
    const more = Math.max(0, 551 - (db.prepare('SELECT COUNT(*) FROM Crawl').pluck().get() as number));
    db.transaction(() => {
      for (let k = 0; k < more; k++) insert.run(icdId, `Later ${k}`);
    })();
    const oldest = db.prepare('SELECT id, name FROM Crawl ORDER BY id LIMIT 1').get() as { id: number; name: string };
    if (rename !== undefined) db.prepare('UPDATE Crawl SET name = ? WHERE id = ?').run((oldest.name = rename), oldest.id);
    assert.ok((db.prepare('SELECT COUNT(*) FROM Crawl WHERE id > ?').pluck().get(oldest.id) as number) >= 500, 'older than the newest 500');
    return oldest;
  } finally {
    db.close();
  }
}

/** Waits until the list shows `n` rows and is not reading a page. */
async function shows(page: Page, n: number): Promise<void> {
  await page.waitForFunction((count) => document.querySelectorAll('[data-testid="crawl-row"]').length === count && !document.querySelector('[data-testid="crawls-table"][aria-busy="true"]'), n);
}

test('260 crawls: a page of 50 read from the server, the pager, a status filter and a name filter, all from the keyboard; loading, errors and live changes', { timeout: 300_000 }, async () => {
  const dbPath = join(rig.cockpit.dataDir, 'tidemark.db');
  const db = openSqlite(dbPath);
  let icdId: number | bigint;
  try {
    icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Many', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
    const insert = db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', ?, ?, ?, datetime('now'))");
    db.transaction(() => {
      for (let k = 0; k < 260; k++) insert.run(icdId, k % 25 === 0 ? `Harbour survey ${k}` : `Quay ${k}`, STATUSES[k % STATUSES.length], STATUSES[k % STATUSES.length] === 'paused' ? 'pause' : 'run');
    })();
  } finally {
    db.close();
  }
  const all = await allCrawls();
  assert.ok(all.length >= 260);
  const context = await signedInContext(rig);
  const page = await context.newPage();
  // What the list reads: pages, never every crawl.
  const answers: ListPage[] = [];
  page.on('response', (res) => {
    if (new URL(res.url()).pathname === '/api/crawls' && res.request().method() === 'GET' && res.ok()) void res.json().then((b: ListPage) => answers.push(b), () => undefined);
  });
  await page.goto(`${rig.cockpit.url}/crawls`);
  const rows = page.getByTestId('crawl-row');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 50);
  // The test reads the answers' bodies on its own, after the page has drawn them.
  await untilSeen(page, () => answers.length > 0);
  assert.ok(answers.length > 0);
  assert.ok(answers.every((a) => a.items.length <= 50 && a.total === all.length), 'a page at a time, with the total');
  const pager = page.getByRole('navigation', { name: 'Crawls pages' });
  const pages = Math.ceil(all.length / 50);
  assert.match(await pager.innerText(), new RegExp(`of ${pages} · ${all.length} in all`));

  // Next, then Previous, by keyboard.
  await pager.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((id) => document.querySelector('[data-testid="crawl-row"]')?.getAttribute('data-crawl-id') === id, String(all[50]!.id));
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => Number(e.getAttribute('data-crawl-id')))), all.slice(50, 100).map((c) => c.id));
  assert.equal(await pager.getByLabel('Crawls pages: page number').inputValue(), '2');
  await pager.getByRole('button', { name: 'Previous' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((id) => document.querySelector('[data-testid="crawl-row"]')?.getAttribute('data-crawl-id') === id, String(all[0]!.id));

  // The last page, by keyboard: the oldest crawls.
  await pager.getByRole('button', { name: 'Last' }).focus();
  await page.keyboard.press('Enter');
  await shows(page, all.length % 50 || 50);
  assert.equal(await rows.last().getAttribute('data-crawl-id'), String(all.at(-1)!.id));
  assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Last', 'the focus stays on the pager');

  // A slow page: the page shown stays, marked busy, and says it is loading.
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  await page.route(/\/api\/crawls\?page=3&/, async (route) => {
    await held;
    await route.continue();
  });
  await pager.getByLabel('Crawls pages: page number').fill('3');
  await page.keyboard.press('Enter');
  await page.getByTestId('crawls-table').and(page.locator('[aria-busy="true"]')).waitFor();
  assert.equal(await page.getByRole('status').filter({ hasText: 'Loading page 3…' }).count(), 1);
  assert.equal(await rows.last().getAttribute('data-crawl-id'), String(all.at(-1)!.id), 'the last page still shows');
  release();
  await shows(page, 50);
  assert.equal(await rows.first().getAttribute('data-crawl-id'), String(all[100]!.id));
  await page.unroute(/\/api\/crawls\?page=3&/);

  // The server out of reach: the error, said plainly, with the page as last read and a way to try again.
  await page.route(/\/api\/crawls\?page=4&/, (route) => route.abort());
  await pager.getByRole('button', { name: 'Next' }).focus();
  await page.keyboard.press('Enter');
  const failed = page.getByTestId('crawls-error');
  await failed.waitFor();
  assert.match(await failed.innerText(), /could not be read: the list below is page 3 as last read/);
  assert.equal(await rows.first().getAttribute('data-crawl-id'), String(all[100]!.id), 'page 3 still shows');
  await page.unroute(/\/api\/crawls\?page=4&/);
  await failed.getByRole('button', { name: 'Try again' }).click();
  await page.waitForFunction((id) => document.querySelector('[data-testid="crawl-row"]')?.getAttribute('data-crawl-id') === id, String(all[150]!.id));
  await failed.waitFor({ state: 'detached' });

  // Live: a crawl's status changes, a new crawl comes; the list shows both without a reload.
  await pager.getByRole('button', { name: 'First' }).click();
  await shows(page, 50);
  const changed = all[3]!;
  const live = openSqlite(dbPath);
  let added: number;
  try {
    live.prepare("UPDATE Crawl SET status = 'failed', desired = 'run' WHERE id = ?").run(changed.id);
    added = Number(live.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', 'Late arrival', 'finished', 'run', datetime('now'))").run(icdId).lastInsertRowid);
  } finally {
    live.close();
  }
  await page.waitForFunction((id) => document.querySelector('[data-testid="crawl-row"]')?.getAttribute('data-crawl-id') === id, String(added), { timeout: 15_000 });
  await page.locator(`[data-crawl-id="${changed.id}"] [data-testid="status"][data-status="failed"]`).waitFor({ timeout: 15_000 });
  await pager.getByText(`${all.length + 1} in all`).waitFor();
  const total = all.length + 1;

  // Paused ones only: back to the first page of them.
  await page.getByLabel('Status').selectOption({ label: 'Paused' });
  const paused = all.filter((c) => c.status === 'paused' && c.id !== changed.id);
  await shows(page, Math.min(50, paused.length));
  assert.deepEqual(await rows.locator('[data-testid="status"]').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-status')))]), ['paused']);

  // A name, typed: the harbour surveys among the paused.
  await page.getByLabel('Name or #id').fill('HARBOUR');
  const wanted = paused.filter((c) => c.name.startsWith('Harbour')).map((c) => String(c.id));
  await shows(page, wanted.length);
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-crawl-id'))), wanted);
  assert.equal(await pager.count(), 0, 'one page: no pager');

  // An id, any status.
  await page.getByLabel('Status').selectOption({ label: 'Any status' });
  await page.getByLabel('Name or #id').fill(`#${all[70]!.id}`);
  await page.waitForFunction((id) => [...document.querySelectorAll('[data-testid="crawl-row"]')].map((e) => e.getAttribute('data-crawl-id')).join() === id, String(all[70]!.id));
  await page.getByLabel('Name or #id').fill('no such crawl');
  await page.getByText('No crawl matches.').waitFor();
  assert.ok(answers.every((a) => a.items.length <= 50), 'never more than a page');
  assert.ok(answers.some((a) => a.total === total));
  await context.close();
});

test('more crawls than the export picker lists (the newest 500): a link to an older crawl\'s exports still picks that crawl', { timeout: 300_000 }, async () => {
  const oldest = oldestOfMany('More');
  const context = await signedInContext(rig);
  const page = await context.newPage();
  await page.goto(`${rig.cockpit.url}/exports?crawl=${oldest.id}`);
  const picker = page.getByLabel('Crawl', { exact: true });
  await page.waitForFunction((id) => (document.querySelector('#export-crawl') as HTMLSelectElement | null)?.value === id, String(oldest.id));
  // The name between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (an option holds no <bdi>).
  assert.match(await picker.locator('option:checked').innerText(), new RegExp(`^\u2068${oldest.name}\u2069 #${oldest.id} `));
  assert.equal(await picker.locator('option').count(), 1 + 500 + 1, 'the placeholder, the newest 500, the chosen one');
  await context.close();
});

test('the crawl pickers (exports, the AAH tester) search every crawl on the server by name or #id: an archivist picks one older than the newest 500 from the keyboard', { timeout: 300_000 }, async () => {
  // The oldest crawl, with a name only it has, in letters SQLite's lower() does not fold.
  const old = oldestOfMany('Pickers', 'Élan vital harbour');
  const context = await signedInContext(rig);
  const page = await context.newPage();

  // Exports: not listed at first; typed in the search, Enter picks it.
  await page.goto(`${rig.cockpit.url}/exports`);
  const select = page.locator('#export-crawl');
  await page.waitForFunction(() => (document.querySelector('#export-crawl') as HTMLSelectElement | null)?.options.length === 501);
  assert.equal(await select.locator(`option[value="${old.id}"]`).count(), 0, 'not among the newest 500');
  assert.match(await page.getByTestId('export-crawl-matches').innerText(), /the newest 500 are listed: search by name or #id for an older one/);
  const search = page.getByLabel('Find a crawl');
  await search.focus();
  await page.keyboard.type('élan');
  await page.getByTestId('export-crawl-matches').filter({ hasText: '1 crawl matches “élan”.' }).waitFor();
  assert.deepEqual(await select.locator('option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value)), ['', String(old.id)]);
  await page.keyboard.press('Enter');
  await page.waitForURL(new RegExp(`/exports\\?crawl=${old.id}$`));
  await page.waitForFunction((id) => (document.querySelector('#export-crawl') as HTMLSelectElement | null)?.value === id, String(old.id));
  assert.match(await select.locator('option:checked').innerText(), new RegExp(`^\u2068${old.name}\u2069 #${old.id} `));
  // Down arrow goes from the search to the list.
  await search.focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'export-crawl');

  // The AAH tester: by #id; Enter in the search picks the crawl and does not run the test.
  await page.goto(`${rig.cockpit.url}/knowledge-base`);
  await page.getByLabel('A page captured by a crawl').check();
  const tests: string[] = [];
  page.on('request', (r) => void (r.method() === 'POST' && tests.push(r.url())));
  const testerSearch = page.locator('#tester-crawl-search');
  await testerSearch.focus();
  await page.keyboard.type(`#${old.id}`);
  await page.keyboard.press('Enter');
  await page.waitForFunction((id) => (document.querySelector('#tester-crawl') as HTMLSelectElement | null)?.value === id, String(old.id));
  assert.equal(await page.locator('#tester-crawl option:checked').innerText(), `\u2068${old.name}\u2069 #${old.id}`);
  assert.deepEqual(tests, [], 'Enter in the search picks, it does not submit the tester');
  assert.equal(await page.getByTestId('tester-result').count(), 0);
  await context.close();
});
