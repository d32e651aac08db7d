/**
 * The knowledge-base tester's preview of pasted HTML requests nothing from the page's site: a
 * hostile site would otherwise learn when, and from where (the Referer names the cockpit), an
 * archivist looks at it.
 */
import { after, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ADMIN_PASSWORD } from '../support/cockpit';
import { signIn, startBrowserRig, stopBrowserRig, type BrowserRig } from './helpers/browser';

let rig: Partial<BrowserRig> = {};
const requests: string[] = [];
let connections = 0;
const site = createServer((req, res) => {
  requests.push(`${req.method} ${req.url} (Referer: ${req.headers.referer ?? 'none'})`);
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end('');
});
site.on('connection', () => void connections++);
after(async () => {
  await stopBrowserRig(rig);
  site.closeAllConnections();
  await new Promise((r) => site.close(r));
});

/** A page that would make a browser ask its site for much: relative URLs read against the preview's base. */
const PAGE = `<!doctype html><html><head>
<meta http-equiv="refresh" content="0; url=/refresh">
<link rel="stylesheet" href="/style.css">
<link rel="prefetch" href="/prefetch">
<link rel="preload" href="/preload.png" as="image">
<link rel="preconnect" href="/"><link rel="dns-prefetch" href="/">
<link rel="icon" href="/favicon.ico">
<style>@import url("/import.css"); body { background: url("/background.png"); } @font-face { font-family: f; src: url("/font.woff2"); } p { font-family: f; }</style>
</head><body>
<p id="marker" style="background-image: url('/inline-background.png')">A post</p>
<img src="/image.png" srcset="/image-2x.png 2x" alt="">
<picture><source srcset="/source.webp" type="image/webp"><img src="/picture.png" alt=""></picture>
<video poster="/poster.png" src="/video.mp4"></video>
<audio src="/audio.mp3" preload="auto"></audio>
<iframe src="/frame.html"></iframe>
<object data="/object.swf"></object>
<embed src="/embed.swf">
<input type="image" src="/input.png" alt="">
<svg><image href="/svg.png" width="10" height="10"/></svg>
<img src="data:image/gif;base64,R0lGODlhAQABAAAAACw=" alt="" id="inlined">
</body></html>`;

test('the tester previews a pasted page without a request to its site', async () => {
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
  const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
  rig = await startBrowserRig();
  const { cockpit, browser } = rig as BrowserRig;
  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  await page.getByRole('link', { name: 'Knowledge base' }).click();
  await page.locator('[data-testid="kb-validation"][data-state="valid"]').waitFor();

  await page.getByLabel('Page URL').fill(`${origin}/forum/viewtopic.php?t=1&x=2`);
  await page.getByLabel('HTML', { exact: true }).fill(PAGE);
  await page.getByTestId('run-tester').click();
  await page.getByTestId('tester-result').waitFor();
  const preview = page.frameLocator('[data-testid="tester-preview"]');
  await preview.locator('#marker').waitFor();
  // The frame loaded (no refresh took it elsewhere), with its base as the page's URL, its & kept.
  await page.waitForFunction(() => (document.querySelector('[data-testid="tester-preview"]') as HTMLIFrameElement | null)?.contentDocument?.readyState === 'complete');
  assert.equal(await preview.locator('#marker').evaluate((el) => el.ownerDocument.baseURI), `${origin}/forum/viewtopic.php?t=1&x=2`);
  // What a browser would have asked for by now, and a refresh after its 0 s.
  await page.waitForTimeout(2_000);
  assert.equal(await preview.locator('#marker').innerText(), 'A post');
  assert.deepEqual(requests, []);
  assert.equal(connections, 0, 'no connection to the site either (Chromium connects for a frame before its CSP refuses it)');
  // The frame is kept, emptied, for rules that select it.
  assert.equal(await preview.locator('iframe').getAttribute('src'), 'about:blank');
  assert.match(await page.getByTestId('tester-preview-note').innerText(), /without the images, styles and frames/);
});
