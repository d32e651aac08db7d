/**
 * The crawls list with many crawls: 50 a page with a pager, filtered by status and by name or id,
 * from the keyboard. Real parts: the cockpit (server, worker, SQLite) with 150 crawls stored in its
 * database as the cockpit stores them, Chromium.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { openSqlite } from '../../worker/store/sqlite';
import { signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

let rig: BrowserRig;
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig ?? {}));

/** Ended or paused: statuses the worker leaves alone. */
const STATUSES = ['finished', 'paused', 'stopped', 'failed', 'finished'];

test('150 crawls: a page of 50, the pager, a status filter and a name filter, all from the keyboard', { timeout: 300_000 }, async () => {
  const db = openSqlite(join(rig.cockpit.dataDir, 'tidemark.db'));
  try {
    const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Many', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
    const insert = db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', ?, ?, ?, datetime('now'))");
    db.transaction(() => {
      for (let k = 0; k < 150; k++) insert.run(icdId, k % 25 === 0 ? `Harbour survey ${k}` : `Quay ${k}`, STATUSES[k % STATUSES.length], STATUSES[k % STATUSES.length] === 'paused' ? 'pause' : 'run');
    })();
  } finally {
    db.close();
  }
  const all = await rig.api.json<{ id: number; name: string; status: string }[]>('GET', '/api/crawls');
  assert.ok(all.length >= 150);
  const context = await signedInContext(rig);
  const page = await context.newPage();
  await page.goto(`${rig.cockpit.url}/crawls`);
  const rows = page.getByTestId('crawl-row');
  await rows.first().waitFor();
  assert.equal(await rows.count(), 50);
  const pager = page.getByRole('navigation', { name: 'Crawls pages' });
  assert.match(await pager.innerText(), new RegExp(`of ${Math.ceil(all.length / 50)} · ${all.length} in all`));

  // The last page, by keyboard: the oldest crawls.
  await pager.getByRole('button', { name: 'Last' }).focus();
  await page.keyboard.press('Enter');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="crawl-row"]').length === n, all.length % 50 || 50);
  assert.equal(await rows.last().getAttribute('data-crawl-id'), String(all.at(-1)!.id));

  // Paused ones only: back to the first page of them.
  await page.getByLabel('Status').selectOption({ label: 'Paused' });
  const paused = all.filter((c) => c.status === 'paused');
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="crawl-row"]').length === n, Math.min(50, paused.length));
  assert.deepEqual(await rows.locator('[data-testid="status"]').evaluateAll((els) => [...new Set(els.map((e) => e.getAttribute('data-status')))]), ['paused']);

  // A name, typed: the harbour surveys among the paused.
  await page.getByLabel('Name or #id').fill('HARBOUR');
  const wanted = paused.filter((c) => c.name.startsWith('Harbour')).map((c) => String(c.id));
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="crawl-row"]').length === n, wanted.length);
  assert.deepEqual(await rows.evaluateAll((els) => els.map((e) => e.getAttribute('data-crawl-id'))), wanted);
  assert.equal(await pager.count(), 0, 'one page: no pager');

  // An id, any status.
  await page.getByLabel('Status').selectOption({ label: 'Any status' });
  await page.getByLabel('Name or #id').fill(`#${all[70]!.id}`);
  await page.waitForFunction(() => document.querySelectorAll('[data-testid="crawl-row"]').length === 1);
  assert.equal(await rows.getAttribute('data-crawl-id'), String(all[70]!.id));
  await page.getByLabel('Name or #id').fill('no such crawl');
  await page.getByText('No crawl matches.').waitFor();
  await context.close();
});
