/**
 * A crawl an earlier version created with settings this version refuses (an exclude pattern that
 * can backtrack) is not resumed as it is (409, and its page offers no plain Resume but the way to the
 * correction); on its page the archivist corrects the refused setting, with the keyboard, and the
 * crawl goes on from where it was with the correction. Real
 * parts: the cockpit (server, worker, SQLite), Chromium, a loopback site.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { signedInContext, startBrowserRig, startCrawlFromList, stopBrowserRig, type BrowserRig } from './helpers/browser';
import { startHoldingSite, type HoldingSite } from '../support/holding-site';
import { openSqlite } from '../../worker/store/sqlite';

let rig: BrowserRig;
let site: HoldingSite | null = null;
before(async () => {
  rig = await startBrowserRig();
});
after(async () => {
  site?.close();
  await stopBrowserRig(rig ?? {});
});

/** Polls `done` until it holds, or fails after `ms`. */
async function until(what: string, done: () => Promise<boolean>, ms = 30_000): Promise<void> {
  for (const end = Date.now() + ms; !(await done()); await sleep(100)) if (Date.now() > end) assert.fail(`timed out waiting until ${what}`);
}

type CrawlView = { status: string; error: string | null; stats: { fetched?: number } };

test('the crawl page corrects a refused stored setting with the keyboard, and the crawl resumes with it', { timeout: 180_000 }, async () => {
  const { api } = rig;
  // `/` links to /a and /b; /a waits, so the crawl is paused with / and /a captured and /b queued.
  site = await startHoldingSite((path) => path === '/a');
  const { page: started, crawlId } = await startCrawlFromList(rig, {
    name: 'Harbour notices', seeds: [`${site.origin}/`], scope: { includeFavicon: false }, politeness: { enabled: false, concurrency: 1 }, limits: { maxRetries: 0 }, aah: { enabled: false },
  });
  await started.context().close();
  const crawl = () => api.json<CrawlView>('GET', `/api/crawls/${crawlId}`);
  await site.held;
  await api.json('POST', `/api/crawls/${crawlId}/control`, { action: 'pause' });
  await until('the crawl is pausing', async () => (await crawl()).status === 'pausing');
  site.release();
  await until('the crawl is paused', async () => (await crawl()).status === 'paused');

  // Its ICD copy as an earlier version stored it: a pattern with a repetition inside a repetition.
  const db = openSqlite(join(rig.cockpit.dataDir, 'tidemark.db'));
  try {
    const stored = JSON.parse(db.prepare('SELECT definition FROM Crawl WHERE id = ?').pluck().get(crawlId) as string) as { scope: { exclude: string[] } };
    stored.scope.exclude = ['(a+)+$'];
    db.prepare('UPDATE Crawl SET definition = ? WHERE id = ?').run(JSON.stringify(stored), crawlId);
  } finally {
    db.close();
  }
  // A plain resume is refused up front (it was accepted, and the worker paused the crawl again).
  const resumed = await api.request('POST', `/api/crawls/${crawlId}/control`, { action: 'resume' });
  assert.equal(resumed.status, 409);
  assert.match(((await resumed.json()) as { error: string }).error, /cannot be resumed as it is\. Refused: scope\.exclude\.0: .*Correct scope\.exclude first, on the crawl's page/);
  assert.equal((await crawl()).status, 'paused');

  const page = await (await signedInContext(rig)).newPage();
  await page.goto(`${rig.cockpit.url}/crawls/${crawlId}`);
  const section = page.getByRole('region', { name: 'Correct the refused settings' });
  const field = section.getByLabel('scope.exclude (an entry a line)');
  await field.waitFor();
  // No plain Resume is offered: its place leads to the correction, with the keyboard too.
  assert.equal(await page.getByRole('button', { name: 'Resume Harbour notices' }).count(), 0);
  const toCorrect = page.getByRole('link', { name: 'Correct settings to resume Harbour notices' });
  assert.equal(await toCorrect.getAttribute('title'), 'Refused: scope.exclude');
  await toCorrect.focus();
  await page.keyboard.press('Enter');
  await page.waitForURL(/#refused-settings$/);
  assert.equal(await field.inputValue(), '(a+)+$');
  assert.match(await section.innerText(), /Refused: scope\.exclude\.0: [^\n]*repetition inside a repetition/);

  // Still refused: the server's reason shows at the field, and nothing changes.
  await field.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('(b*)*');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  await until('the field is marked invalid', async () => (await field.getAttribute('aria-invalid')) === 'true');
  assert.match(await section.getByRole('list').innerText(), /scope\.exclude\.0: [^\n]*repetition inside a repetition/);
  assert.equal((await crawl()).status, 'paused');

  // Corrected: the crawl resumes, and the corrected pattern keeps /b, queued before, from being fetched.
  await field.focus();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('/b$');
  await page.keyboard.press('Tab');
  await page.keyboard.press('Enter');
  const done = section.getByRole('status');
  await done.waitFor();
  assert.equal(await done.innerText(), 'Replaced scope.exclude ["(a+)+$"] → ["/b$"] (recorded with the crawl); the crawl resumes.');
  await until('the crawl finishes', async () => (await crawl()).status === 'finished', 60_000);
  // (robots.txt may be asked again by the resumed run: its cache is the run's.)
  assert.deepEqual(site.requested.filter((p) => p !== '/robots.txt'), ['/', '/a'], 'nothing fetched twice, /b not fetched');
});
