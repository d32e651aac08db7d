import { chromium, type Browser, type Page } from 'playwright-core';

/** Debian's Chromium, headless, with nothing that would reach the network on its own. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({
    executablePath: '/usr/bin/chromium',
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

/** Signs in through the login form, as a person would: type, press Enter. */
export async function signIn(page: Page, baseUrl: string, username: string, password: string): Promise<void> {
  await page.goto(`${baseUrl}/crawls`);
  await page.waitForURL(/\/login\?next=/);
  await page.getByLabel('User name').fill(username);
  await page.getByLabel('Password').fill(password);
  await page.getByLabel('Password').press('Enter');
  await page.waitForURL(/\/crawls$/);
  await page.getByTestId('current-user').waitFor();
}
