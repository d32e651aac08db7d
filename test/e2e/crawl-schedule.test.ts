/**
 * An ICD's schedule set from its page by keyboard in Chromium: the time zone field starting at the
 * browser's zone, a wrong day of the month and an unknown zone refused at their fields, the schedule
 * saved in Europe/Paris and described with its zone and next due time (as the API stores it), then
 * removed. The scheduler that starts the crawls is tested in test/integration/platform/crawl-schedule.test.ts.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { ADMIN_PASSWORD } from '../support/cockpit';
import { openSqlite, sqlDate } from '../../worker/store/sqlite';
import { signIn, signedInContext, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

let rig: Partial<BrowserRig> = {};
before(async () => {
  rig = await startBrowserRig();
});
after(() => stopBrowserRig(rig));

test('the Schedule section: set monthly in a time zone by keyboard, a wrong day and zone refused at their fields, then removed', async () => {
  const { cockpit, browser, api } = rig as BrowserRig;
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Monthly harbour', seeds: ['http://127.0.0.1:9/'] });

  // A browser in New York: a new schedule starts in its zone.
  const page = await (await browser.newContext({ timezoneId: 'America/New_York' })).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.goto(`${cockpit.url}/icds/${icd.id}`);
  const section = page.getByRole('region', { name: 'Schedule' });
  await section.getByText('No schedule: this definition is crawled only when someone starts it.').waitFor();

  const cadence = section.getByLabel('Crawl again');
  await cadence.focus();
  await cadence.selectOption('monthly');
  await page.keyboard.press('Tab');
  const day = section.getByLabel('On day (1–28)');
  assert.equal(await day.evaluate((el) => el === document.activeElement), true, 'the day follows the cadence in tab order');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('31');
  await page.keyboard.press('Tab');
  const time = section.getByLabel('At', { exact: true });
  assert.equal(await time.evaluate((el) => el === document.activeElement), true);
  await time.fill('04:30');
  // Tab goes through the time's own hour, minute (and AM/PM) parts first, then on to the zone.
  const zone = section.getByLabel('Time zone');
  for (let i = 0; i < 4 && (await time.evaluate((el) => el === document.activeElement)); i++) await page.keyboard.press('Tab');
  assert.equal(await zone.evaluate((el) => el === document.activeElement), true, 'the zone follows the time in tab order');
  assert.equal(await zone.inputValue(), 'America/New_York', "the browser's zone for a new schedule");
  assert.equal(await zone.evaluate((el) => (el as HTMLInputElement).list?.querySelector('option[value="Europe/Paris"]') !== null), true, 'zones suggested');
  await page.keyboard.press('Control+A');
  await page.keyboard.type('Europe/Atlantis');
  await page.keyboard.press('Enter');
  const dayError = section.getByTestId('error-schedule-month-day');
  await dayError.waitFor();
  assert.equal(await dayError.innerText(), 'A day of the month, 1 to 28 (days every month has)');
  assert.equal(await day.getAttribute('aria-invalid'), 'true');
  const zoneError = section.getByTestId('error-schedule-time-zone');
  assert.equal(await zoneError.innerText(), 'Unknown time zone “Europe/Atlantis”: an IANA time zone such as Europe/Paris, America/New_York or UTC');
  assert.equal(await zone.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await api.json('GET', `/api/icds/${icd.id}/schedule`), { schedule: null }, 'nothing stored');

  await zone.fill('Europe/Paris');
  await day.fill('15');
  await day.press('Enter');
  await section.getByRole('status').filter({ hasText: 'Schedule saved.' }).waitFor();
  const stored = await api.json<{ schedule: { description: string; timeZone: string; nextRunAt: string; ownerId: number } }>('GET', `/api/icds/${icd.id}/schedule`);
  assert.equal(stored.schedule.timeZone, 'Europe/Paris');
  assert.equal(stored.schedule.description, 'on day 15 of every month at 04:30 Europe/Paris');
  // 04:30 in Paris: 03:30 UTC in winter, 02:30 in summer.
  assert.match(stored.schedule.nextRunAt, /^\d{4}-\d\d-15T0[23]:30:00\.000Z$/);
  const status = section.getByTestId('schedule-status');
  assert.match(await status.innerText(), /on day 15 of every month at 04:30 Europe\/Paris/);
  assert.match(await status.innerText(), new RegExp(`${stored.schedule.nextRunAt.slice(0, 10)} 04:30 Europe/Paris`));
  assert.equal(await zone.inputValue(), 'Europe/Paris', 'a saved schedule shows its own zone, not the browser\'s');

  // The list of definitions says it too.
  await page.goto(`${cockpit.url}/icds`);
  const row = page.getByTestId('icd-row').filter({ hasText: 'Monthly harbour' });
  await row.getByTestId('icd-schedule').getByText('on day 15 of every month at 04:30 Europe/Paris').waitFor();
  // Its next time in the schedule's zone, named (it was the browser's local time, unlabelled).
  assert.equal(await row.getByTestId('icd-schedule').getByText(/^next /).innerText(), `next ${stored.schedule.nextRunAt.slice(0, 10)} 04:30 Europe/Paris`);
  await row.getByRole('link', { name: 'Monthly harbour' }).click();
  await page.waitForURL(new RegExp(`/icds/${icd.id}$`));

  await section.getByRole('button', { name: 'Remove schedule' }).click();
  await section.getByRole('status').filter({ hasText: 'Schedule removed' }).waitFor();
  await section.getByText('No schedule: this definition is crawled only when someone starts it.').waitFor();
  assert.deepEqual(await api.json('GET', `/api/icds/${icd.id}/schedule`), { schedule: null });
});

// A schedule's zone this browser's Intl does not know (its zone data older than the server's; here a
// row written by hand) threw in the section's "Next crawl" and took the page down.
test('a schedule in a zone the browser does not know: the section still shows, its next time in UTC', async () => {
  const { cockpit, api } = rig as BrowserRig;
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Olympus harbour', seeds: ['http://127.0.0.1:9/'] });
  const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
  try {
    db.prepare("INSERT INTO CrawlSchedule (icdId, cadence, minuteOfDay, timeZone, nextRunAt, ownerId, updatedAt) VALUES (?, 'daily', 180, 'Mars/Olympus_Mons', ?, 1, ?)")
      .run(icd.id, sqlDate(new Date('2099-01-01T03:00:00Z')), sqlDate(new Date()));
  } finally {
    db.close();
  }
  const page = await (await signedInContext(rig as BrowserRig)).newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(`${cockpit.url}/icds/${icd.id}`);
  const status = page.getByRole('region', { name: 'Schedule' }).getByTestId('schedule-status');
  await status.waitFor();
  assert.match(await status.innerText(), /every day at 03:00 Mars\/Olympus_Mons/);
  assert.match(await status.innerText(), /2099-01-01 03:00 UTC/);
  assert.deepEqual(errors, []);
});
