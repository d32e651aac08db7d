/**
 * An ICD's schedule set from its page by keyboard in Chromium: a wrong day of the month refused at
 * its field, the schedule saved and described with its next due time (as the API stores it), then
 * removed. The scheduler that starts the crawls is tested in test/integration/platform/crawl-schedule.test.ts.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD } from '../support/cockpit';
import { signIn, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

let rig: Partial<BrowserRig> = {};
after(() => stopBrowserRig(rig));

test('the Schedule section: set monthly by keyboard, a wrong day refused at its field, then removed', async () => {
  rig = await startBrowserRig();
  const { cockpit, browser, api } = rig as BrowserRig;
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Monthly harbour', seeds: ['http://127.0.0.1:9/'] });

  const page = await (await browser.newContext()).newPage();
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
  const time = section.getByLabel('At (UTC)');
  assert.equal(await time.evaluate((el) => el === document.activeElement), true);
  await time.fill('04:30');
  await time.press('Enter');
  const dayError = section.getByTestId('error-schedule-month-day');
  await dayError.waitFor();
  assert.equal(await dayError.innerText(), 'A day of the month, 1 to 28 (days every month has)');
  assert.equal(await day.getAttribute('aria-invalid'), 'true');
  assert.deepEqual(await api.json('GET', `/api/icds/${icd.id}/schedule`), { schedule: null }, 'nothing stored');

  await day.fill('15');
  await day.press('Enter');
  await section.getByRole('status').filter({ hasText: 'Schedule saved.' }).waitFor();
  const stored = await api.json<{ schedule: { description: string; nextRunAt: string; ownerId: number } }>('GET', `/api/icds/${icd.id}/schedule`);
  assert.equal(stored.schedule.description, 'on day 15 of every month at 04:30 UTC');
  assert.match(stored.schedule.nextRunAt, /^\d{4}-\d\d-15T04:30:00\.000Z$/);
  const status = section.getByTestId('schedule-status');
  assert.match(await status.innerText(), /on day 15 of every month at 04:30 UTC/);
  assert.match(await status.innerText(), new RegExp(`${stored.schedule.nextRunAt.slice(0, 10)} 04:30 UTC`));

  // The list of definitions says it too.
  await page.goto(`${cockpit.url}/icds`);
  const row = page.getByTestId('icd-row').filter({ hasText: 'Monthly harbour' });
  await row.getByTestId('icd-schedule').getByText('on day 15 of every month at 04:30 UTC').waitFor();
  await row.getByRole('link', { name: 'Monthly harbour' }).click();
  await page.waitForURL(new RegExp(`/icds/${icd.id}$`));

  await section.getByRole('button', { name: 'Remove schedule' }).click();
  await section.getByRole('status').filter({ hasText: 'Schedule removed' }).waitFor();
  await section.getByText('No schedule: this definition is crawled only when someone starts it.').waitFor();
  assert.deepEqual(await api.json('GET', `/api/icds/${icd.id}/schedule`), { schedule: null });
});
