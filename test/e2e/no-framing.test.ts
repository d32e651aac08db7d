/**
 * Clickjacking: a page of another site on the same host (another loopback port: same-site, so the
 * browser sends it the session cookie) cannot show the signed-in cockpit in a frame.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { ADMIN_PASSWORD } from '../support/cockpit';
import { serveLoopback } from '../support/loopback-site';
import { signIn, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

let rig: Partial<BrowserRig> = {};
after(() => stopBrowserRig(rig));

test('a page on another loopback port frames the Users page: the browser shows nothing of it', async () => {
  rig = await startBrowserRig();
  const { cockpit, browser } = rig as BrowserRig;
  const decoy = await serveLoopback((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(`<!doctype html><title>Win a prize</title><iframe id="target" src="${cockpit.url}/users" width="800" height="600"></iframe>`);
  });
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  // Signed in, the Users page itself shows.
  await page.goto(`${cockpit.url}/users`);
  await page.getByRole('heading', { name: 'Users' }).waitFor();

  const refused = new Promise<string>((resolve) => page.on('console', (m) => /frame-ancestors|X-Frame-Options/i.test(m.text()) && resolve(m.text())));
  await page.goto(`${decoy}/`);
  const frame = page.frameLocator('#target');
  const shown = await frame.getByRole('heading', { name: 'Users' }).waitFor({ timeout: 5_000 }).then(() => true, () => false);
  assert.equal(shown, false, 'the framed Users page rendered');
  assert.match(await Promise.race([refused, new Promise<string>((r) => setTimeout(() => r('no refusal logged'), 5_000))]), /frame-ancestors 'none'/);
});
