import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { ApiClient } from '../support/api-client';
import { ADMIN_PASSWORD, signedInAdmin, startCockpit, type RunningCockpit } from '../support/cockpit';
import { startFixtureSite, type FixtureSite } from '../support/fixture-site';
import { readZip } from '../support/read-wacz';
import { launchBrowser, signIn } from './helpers/browser';

let cockpit: RunningCockpit | undefined;
let site: FixtureSite | undefined;
let browser: Browser | undefined;
let finishedCrawlId = 0;
let createdIcdId = 0;
after(async () => {
  await browser?.close();
  await cockpit?.stop();
  await site?.close();
});

test('an archivist signs in, defines a crawl through the form, watches it live and downloads its WARC export', async () => {
  // The crawl is still running when the page shows it: the second half of the site is held back
  // until the test has seen the live counters (released below).
  // Each page answers after 40 ms: the hold, not the pace, keeps the crawl running while the test
  // looks; the pace still spreads the crawl over a few seconds, for the charts of the second test.
  site = await startFixtureSite({ pageCount: 24, delayMs: 40, holdFrom: 12 });
  cockpit = await startCockpit();
  browser = await launchBrowser();
  const context = await browser.newContext({ acceptDownloads: true });
  const page = await context.newPage();

  await signIn(page, cockpit.url, 'admin', ADMIN_PASSWORD);
  assert.match(await page.getByTestId('current-user').innerText(), /Signed in as admin\s+admin/i);

  // An edited, unsaved form asks before the tab closes; an untouched one does not.
  const newIcdUrl = `${cockpit.url}/icds/new`;
  const leaving = async (edit: boolean) => {
    const tab = await context.newPage();
    await tab.goto(newIcdUrl);
    await tab.getByLabel('Name', { exact: true }).click();
    if (edit) await tab.getByLabel('Name', { exact: true }).pressSequentially('Half-written');
    const asked = new Promise<string>((resolve) => tab.once('dialog', (d) => { resolve(d.type()); void d.accept(); }));
    // The tab closes only once a dialog it shows is answered: closed first, it asked nothing.
    const closed = tab.waitForEvent('close').then(() => 'no dialog');
    await tab.close({ runBeforeUnload: true });
    return Promise.race([asked, closed]);
  };
  assert.equal(await leaving(true), 'beforeunload');
  assert.equal(await leaving(false), 'no dialog');

  // The form refuses an invalid seed inline, before anything reaches the server.
  await page.getByRole('link', { name: 'New crawl definition' }).first().click();
  await page.waitForURL(/\/icds\/new$/);
  // An ICD file loads into the form, or is refused with the field at fault.
  const icdFile = (name: string, icd: unknown) => ({ name, mimeType: 'application/json', buffer: Buffer.from(JSON.stringify(icd)) });
  await page.locator('#icd-file').setInputFiles(icdFile('bad.icd.json', { name: 'x', seeds: ['ftp://nowhere/'] }));
  await page.getByTestId('icd-file-errors').filter({ hasText: 'bad.icd.json: seeds.0' }).waitFor();
  await page.locator('#icd-file').setInputFiles(icdFile('harbour.icd.json', { name: 'From a file', description: 'Loaded from a file', seeds: ['http://127.0.0.1:9/'], focus: { topicTerms: { tide: 0.5 } } }));
  await page.getByRole('status').filter({ hasText: 'Loaded from harbour.icd.json' }).waitFor();
  assert.equal(await page.getByLabel('Description').inputValue(), 'Loaded from a file');
  assert.equal(await page.getByTestId('icd-file-errors').count(), 0);
  await page.getByLabel('Name', { exact: true }).fill('Harbour fixture');
  await page.getByLabel('Seed URLs').fill('harbour without scheme');
  await page.getByRole('button', { name: 'Create' }).click();
  const seedError = page.getByTestId('error-seeds');
  await seedError.waitFor();
  assert.match(await seedError.innerText(), /Line 1: Not a valid http\(s\) URL/);
  assert.equal(await page.getByLabel('Seed URLs').getAttribute('aria-invalid'), 'true');
  assert.match(page.url(), /\/icds\/new$/);

  // Fixed, with quick politeness for the loopback site, submitted with Enter in a text field.
  // A second seed whose connection is always reset: a failure for the crawl log.
  await page.getByLabel('Seed URLs').fill(`${site.origin}/\n${site.origin}/reset.html`);
  await seedError.waitFor({ state: 'detached' });
  await page.getByLabel('Min delay between requests to a host (ms)').fill('40');
  await page.getByLabel('Max delay (ms)').fill('200');

  // Advanced settings are folded away; an invalid one there reopens them and takes the focus.
  const advanced = page.getByTestId('advanced-settings');
  await advanced.locator('summary').click();
  await page.getByLabel('Gzip level').fill('12');
  await page.getByLabel('Retries on 5xx and connection errors').fill('1');
  await advanced.locator('summary').press('Enter');
  assert.equal(await advanced.getAttribute('open'), null, 'folded again');
  await page.getByRole('button', { name: 'Create' }).click();
  await page.getByTestId('error-gzipLevel').waitFor();
  assert.notEqual(await advanced.getAttribute('open'), null);
  await page.waitForFunction(() => document.activeElement?.id === 'gzipLevel');
  await page.getByLabel('Gzip level').fill('6');
  await page.getByLabel('Name', { exact: true }).press('Enter');
  await page.waitForURL(/\/icds\/\d+/);
  const icdId = Number(/\/icds\/(\d+)/.exec(page.url())![1]);
  createdIcdId = icdId;

  const api = await signedInAdmin(cockpit);
  type Stored = {
    name: string;
    definition: { seeds: string[]; description: string; politeness: { minDelayMs: number }; warc: { gzipLevel: number }; limits: { maxRetries: number }; focus: { topicTerms: Record<string, number> } };
  };
  const stored = await api.json<Stored>('GET', `/api/icds/${icdId}`);
  assert.equal(stored.definition.description, 'Loaded from a file');
  assert.deepEqual(stored.definition.focus.topicTerms, { tide: 0.5 }, 'kept from the file, though the form does not show it');
  // The saved definition downloads as the JSON file the CLI reads.
  const [icdDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('download-icd').click()]);
  assert.equal(icdDownload.suggestedFilename(), 'harbour-fixture.icd.json');
  assert.deepEqual(JSON.parse(readFileSync((await icdDownload.path())!, 'utf8')), stored.definition);
  assert.equal(stored.name, 'Harbour fixture');
  assert.deepEqual(stored.definition.seeds, [`${site.origin}/`, `${site.origin}/reset.html`]);
  assert.equal(stored.definition.politeness.minDelayMs, 40);
  assert.equal(stored.definition.warc.gzipLevel, 6);
  assert.equal(stored.definition.limits.maxRetries, 1);

  // What is not a number in a number field is an error in words, not the default put in its place.
  const maxPagesBefore = await page.getByLabel('Max pages', { exact: true }).inputValue();
  await page.getByLabel('Max pages', { exact: true }).fill('12e');
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  assert.match(await page.getByTestId('error-maxPages').innerText(), /Not a number/);
  await page.getByLabel('Max pages', { exact: true }).fill(maxPagesBefore);
  await page.getByTestId('error-maxPages').waitFor({ state: 'detached' });
  // Edits not saved yet are saved before the crawl starts (they were left out of it without a word).
  await page.getByLabel('Max delay (ms)').fill('250');
  assert.equal(await page.getByTestId('start-crawl').innerText(), 'Save and start a crawl');
  await page.getByTestId('start-crawl').click();
  await page.waitForURL(/\/crawls\/\d+$/);
  assert.equal((await api.json<{ definition: { politeness: { maxDelayMs: number } } }>('GET', `/api/icds/${icdId}`)).definition.politeness.maxDelayMs, 250);
  const crawlId = Number(/\/crawls\/(\d+)$/.exec(page.url())![1]);
  finishedCrawlId = crawlId;
  await page.locator('[data-testid="live-state"][data-state="live"]').waitFor();

  // The counter moves while the page stays the same document and cannot re-read the crawl over
  // HTTP (those requests are cut off): the numbers come through socket.io.
  await page.evaluate(() => ((window as unknown as { marker: string }).marker = 'same document'));
  const crawlRoute = new RegExp(`/api/crawls/${crawlId}(/captures\\?.*)?$`);
  await page.route(crawlRoute, (route) => route.abort());
  const first = Number(await page.getByTestId('counter-fetched').innerText());
  const rowsBefore = await page.getByTestId('capture-row').count();
  assert.ok(first < site.pages.length, `the crawl is still running (fetched ${first})`);
  site.release();
  await page.waitForFunction((before) => Number(document.querySelector('[data-testid="counter-fetched"]')?.textContent) > before, first);
  // The captures table grows live too, each new row a real capture of the site.
  await page.waitForFunction((before) => document.querySelectorAll('[data-testid="capture-row"]').length > before, rowsBefore);
  for (const url of await page.getByTestId('capture-url').allInnerTexts()) assert.ok(url.startsWith(site.origin), url);
  // Live rows carry the page's title under its URL (the fixture's pages are titled "Page <n>"). The
  // first live row may be robots.txt's, which has none: wait for a page's.
  await page.getByTestId('capture-title').first().waitFor();
  for (const title of await page.getByTestId('capture-title').allInnerTexts()) assert.match(title, /^Page \d+$/);
  assert.equal(await page.evaluate(() => (window as unknown as { marker?: string }).marker), 'same document');
  await page.unroute(crawlRoute);

  await page.locator('[data-testid="status"][data-status="finished"]').waitFor({ timeout: 90_000 });
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="counter-fetched"]')?.textContent) >= n, site.pages.length);
  // The last captures come in a batch after the counters and the status (event-batcher.ts): waited for too.
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="captures-table"]')?.getAttribute('data-total')) >= n, site.pages.length);
  assert.equal(await page.evaluate(() => (window as unknown as { marker?: string }).marker), 'same document');

  // Paging goes straight to the last page, which holds the first captures (the seed's), or to a
  // typed page: a crawl of 20,000 URLs has a thousand pages of captures to step through otherwise.
  const capturesPager = page.getByRole('navigation', { name: 'Captures pages' });
  const capturesPage = capturesPager.getByLabel('Captures pages: page number');
  const lastPage = Math.ceil(Number(await page.getByTestId('captures-table').getAttribute('data-total')) / 20);
  assert.ok(lastPage >= 2, `${lastPage} pages of captures`);
  await capturesPager.getByRole('button', { name: 'Last' }).click();
  await page.waitForFunction((url) => [...document.querySelectorAll('[data-testid="capture-url"]')].some((b) => b.textContent === url), `${site.origin}/`);
  assert.equal(await capturesPage.inputValue(), String(lastPage));
  assert.ok(await capturesPager.getByRole('button', { name: 'Last' }).isDisabled());
  await capturesPage.fill('1');
  await capturesPage.press('Enter');
  await capturesPager.getByRole('button', { name: 'First' }).and(page.locator('[aria-disabled="true"]')).waitFor();
  assert.equal(await capturesPage.inputValue(), '1');

  // The crawl log: every fetch outcome, filtered by outcome (with counts) and by URL.
  const logTotal = () => page.getByTestId('crawl-log').getAttribute('data-total').then(Number);
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="crawl-log"]')?.getAttribute('data-total')) > n, site.pages.length);
  const okOption = await page.locator('#log-outcome option[value="ok"]').innerText();
  const okCount = Number(/\((\d+)\)/.exec(okOption)![1]);
  assert.ok(okCount >= site.pages.length, okOption);
  await page.getByLabel('Outcome').selectOption('ok');
  await page.waitForFunction((n) => Number(document.querySelector('[data-testid="crawl-log"]')?.getAttribute('data-total')) === n, okCount);
  await page.locator('#log-search').fill('page/1.html');
  await page.locator('#log-search').press('Enter');
  await page.waitForFunction(() => document.querySelector('[data-testid="crawl-log"]')?.getAttribute('data-total') === '1');
  assert.equal(await logTotal(), 1);
  assert.deepEqual(await page.getByTestId('log-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-outcome'))), ['ok']);

  // A failure reason of the counters shows its entries in the crawl log (the URL filter cleared first).
  await page.locator('#log-search').fill('');
  await page.locator('#log-search').press('Enter');
  const reason = page.getByTestId('failed-by-reason').getByRole('button').first();
  const reasonName = await reason.innerText();
  await reason.click();
  assert.equal(await page.getByLabel('Outcome').inputValue(), reasonName);
  await page.waitForFunction((r) => {
    const rows = [...document.querySelectorAll('[data-testid="log-row"]')];
    return rows.length > 0 && rows.every((row) => row.getAttribute('data-outcome') === r);
  }, reasonName);
  assert.match(await page.getByTestId('crawl-log').innerText(), /reset\.html/);
  // The entries the filter shows download as a tab-separated file.
  const [logDownload] = await Promise.all([page.waitForEvent('download'), page.getByTestId('crawl-log-download').click()]);
  assert.equal(logDownload.suggestedFilename(), `crawl-${crawlId}-log.tsv`);
  const logLines = readFileSync((await logDownload.path())!, 'utf8').trimEnd().split('\n');
  assert.equal(logLines[0], 'at\tstatus\toutcome\tsize\tduration_ms\tretries\turl\tmessage\tnot_requested');
  assert.ok(logLines.length > 1 && logLines.slice(1).every((l) => l.split('\t')[2] === reasonName), logLines.join('\n'));

  // Reports, folded until opened: the fixture's one host with every page fetched.
  await page.getByTestId('crawl-reports').locator('summary').click();
  const hostRow = page.getByTestId('report-hosts').locator('tbody tr');
  await hostRow.first().waitFor();
  const cells = await hostRow.first().locator('td').allInnerTexts();
  assert.equal(cells[0], new URL(site.origin).host);
  assert.ok(Number(cells[1]) > site.pages.length, `fetches: ${cells[1]} (the pages and robots.txt)`);
  assert.match(await page.getByTestId('report-mime').innerText(), /text\/html\s+\d+/);
  // The host queues: the finished crawl has nothing waiting, and says so.
  assert.match(await page.getByTestId('report-queues').locator('caption').innerText(), /^Host queues: 0 URLs waiting on 0 hosts$/);
  assert.match(await page.getByTestId('report-records').innerText(), /response\s+\d+/);
  // The seeds report: the home page captured; the page that resets its connection failed, with the log's message.
  const seedRows = page.getByTestId('report-seeds').locator('tbody tr');
  assert.equal(await seedRows.count(), 2);
  assert.deepEqual(await seedRows.evaluateAll((rows) => rows.map((r) => r.getAttribute('data-outcome'))), ['captured', 'problem']);
  assert.match(await seedRows.nth(0).innerText(), /200, captured/);
  assert.match(await seedRows.nth(1).innerText(), new RegExp(`reset\\.html\\s+failed: ${reasonName}`));

  // A URL looked up, with the keyboard: the crawl found it from its seed; one it never saw is out of scope.
  await page.getByLabel('URL', { exact: true }).fill(`${site.origin}/page/1.html`);
  await page.getByLabel('URL', { exact: true }).press('Enter');
  await page.locator('[data-testid="inspection"][data-state="done"]').waitFor();
  assert.equal(await page.getByTestId('discovery-path').locator('li').first().locator('span').first().innerText(), `${site.origin}/`);
  await page.getByLabel('URL', { exact: true }).fill('http://elsewhere.invalid/');
  await page.getByLabel('URL', { exact: true }).press('Enter');
  await page.locator('[data-testid="inspection"][data-state="unseen"]').waitFor();
  assert.match(await page.getByTestId('inspection-verdict').innerText(), /scope would not take it: out-of-scope-host/);

  // A capture's stored record: WARC header, HTTP head and the page's text, read back from the WARC file.
  const firstCapture = page.getByTestId('capture-url').first();
  const capturedUrl = await firstCapture.innerText();
  await firstCapture.click();
  await page.getByTestId('record-warc-headers').filter({ hasText: `WARC-Target-URI: ${capturedUrl}` }).waitFor();
  assert.match(await page.getByTestId('record-http-head').innerText(), /^HTTP\/1\.1 200/);
  assert.match(await page.getByTestId('record-preview').innerText(), /tides and harbours/);

  // Export: request it, follow it to done, download a WARC file and the CDXJ index.
  await page.getByRole('link', { name: 'Export', exact: true }).click();
  await page.waitForURL(new RegExp(`/exports\\?crawl=${crawlId}$`));
  await page.getByTestId('request-export').click();
  await page.locator('[data-testid="export"][data-status="done"]').waitFor({ timeout: 60_000 });

  const warcLink = page.locator('[data-testid="export-file"][data-name$=".warc.gz"]').first();
  const [warcDownload] = await Promise.all([page.waitForEvent('download'), warcLink.click()]);
  const warc = readFileSync((await warcDownload.path())!);
  assert.deepEqual([...warc.subarray(0, 2)], [0x1f, 0x8b], 'a gzip file');
  const text = gunzipSync(warc).toString('latin1');
  assert.ok(text.startsWith('WARC/1.1\r\n'), 'starts with a WARC/1.1 record');
  assert.ok(text.includes(`WARC-Target-URI: ${site.origin}/`), 'holds the fixture site');

  const [cdxDownload] = await Promise.all([page.waitForEvent('download'), page.locator('[data-testid="export-file"][data-name="index.cdxj"]').click()]);
  const cdxj = readFileSync((await cdxDownload.path())!, 'utf8');
  for (const url of site.pages) assert.ok(cdxj.includes(`"url":"${url}"`) || cdxj.includes(`"url": "${url}"`), `index has ${url}`);
  assert.equal(await page.getByTestId('export-scope').first().innerText(), 'The whole crawl, its own files');

  // A collection: only the pages whose URL holds "page/1", typed into the folded selection form.
  const collectionUrls = site.pages.filter((u) => u.includes('page/1'));
  assert.ok(collectionUrls.length >= 1 && collectionUrls.length < site.pages.length);
  await page.getByTestId('export-selection').locator('summary').click();
  await page.getByLabel('URL contains').fill('page/1');
  await page.getByLabel('2xx').check();
  await page.getByTestId('selection-preview').filter({ hasText: new RegExp(`^${collectionUrls.length} captures? match`) }).waitFor();
  await page.getByRole('button', { name: 'Export the selection' }).click();
  const collectionCard = page.locator('[data-testid="export"][data-status="done"]').filter({ hasText: 'Collection: statuses 2xx; URLs containing "page/1"' });
  await collectionCard.waitFor({ timeout: 60_000 });
  const [partIndex] = await Promise.all([page.waitForEvent('download'), collectionCard.locator('[data-testid="export-file"][data-name="index.cdxj"]').click()]);
  const partUrls = readFileSync((await partIndex.path())!, 'utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l.slice(l.indexOf('{'))) as { url: string }).url);
  assert.deepEqual(partUrls.sort(), [...collectionUrls].sort(), 'the collection indexes exactly the selected pages');
  assert.match(await collectionCard.locator('[data-testid="export-file"][data-name$=".warc.gz"]').first().innerText(), /^collection-\d+-\d+-00000\.warc\.gz$/);

  // The same collection as one WACZ package, chosen by its radio button, with its pages' text.
  await page.getByLabel('one WACZ package (opens in ReplayWeb.page)').check();
  await page.getByLabel(/with each page's text/).check();
  await page.getByRole('button', { name: 'Export the selection' }).click();
  const waczCard = page.locator('[data-testid="export"][data-status="done"]').filter({ hasText: 'as one WACZ package, with page text' });
  await waczCard.waitFor({ timeout: 60_000 });
  assert.equal(await waczCard.getByTestId('export-file').count(), 1);
  const [waczDownload] = await Promise.all([page.waitForEvent('download'), waczCard.getByTestId('export-file').click()]);
  assert.match(waczDownload.suggestedFilename(), /^tidemark-\d+-\d+\.wacz$/);
  const wacz = await readZip(readFileSync((await waczDownload.path())!));
  const waczUrls = wacz.get('indexes/index.cdx')!.bytes.toString('utf8').split('\n').filter(Boolean).map((l) => (JSON.parse(l.slice(l.indexOf('{'))) as { url: string }).url);
  assert.deepEqual(waczUrls.sort(), [...collectionUrls].sort(), 'the package indexes the selected pages');
  assert.ok([...wacz.keys()].some((k) => /^archive\/collection-\d+-\d+-00000\.warc\.gz$/.test(k)));
  const [pagesHeader, ...pageLines] = wacz.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
  assert.equal((JSON.parse(pagesHeader!) as { hasText?: boolean }).hasText, true);
  for (const line of pageLines) assert.match((JSON.parse(line) as { text: string }).text, /Some text about tides and harbours on page \d+/);
});

test('a curator sees no run or export controls, and a refused request says which permission is missing', async () => {
  assert.ok(cockpit && browser && finishedCrawlId, 'runs after the archivist test');
  const api = await signedInAdmin(cockpit);
  assert.equal((await api.request('POST', '/api/users', { username: 'cora', password: 'curator-password', role: 'curator' })).status, 201);

  const page = await (await browser.newContext()).newPage();
  await signIn(page, cockpit.url, 'cora', 'curator-password');
  assert.match(await page.getByTestId('current-user').innerText(), /cora\s+curator/i);
  assert.equal(await page.getByRole('form', { name: 'Start a crawl' }).count(), 0);

  // A paused crawl: the archivist's Resume and Stop, the manager's Delete — none for a curator.
  const paused = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: createdIcdId });
  await api.json('POST', `/api/crawls/${paused.id}/control`, { action: 'pause' });
  const controls = /^(Pause|Resume|Stop|Delete)\b/;
  const admin = await (await browser.newContext()).newPage();
  await signIn(admin, cockpit.url, 'admin', ADMIN_PASSWORD);
  await admin.goto(`${cockpit.url}/crawls/${paused.id}`);
  await admin.getByRole('button', { name: /^Resume\b/ }).waitFor();
  assert.ok((await admin.getByRole('button', { name: controls }).count()) >= 2);

  await page.goto(`${cockpit.url}/crawls/${paused.id}`);
  await page.getByTestId('counter-fetched').waitFor();
  await page.locator('[data-testid="status"][data-status="paused"]').waitFor();
  assert.equal(await page.getByRole('button', { name: controls }).count(), 0);
  assert.equal(await page.getByRole('link', { name: 'Export', exact: true }).count(), 0);

  await page.goto(`${cockpit.url}/exports?crawl=${finishedCrawlId}`);
  assert.match(await page.getByTestId('forbidden').innerText(), /not allowed/i);

  // An id that names nothing, or is no id, is the 404 page with a way back (the coherence view said
  // "Loading…" for seconds, retrying, then a bare "not found").
  for (const path of ['/crawls/999999', '/crawls/abc', '/crawls/0x1', '/crawls/999999/coherence', '/icds/999999']) {
    await page.goto(`${cockpit.url}${path}`);
    await page.getByRole('heading', { name: 'Not found' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'The crawls' }).count(), 1, path);
  }

  // The knowledge base is read-only for a curator; trying the tester is a design request, and the
  // server's 403 is shown plainly.
  await page.goto(`${cockpit.url}/knowledge-base`);
  assert.equal(await page.getByTestId('kb-xml').getAttribute('readonly'), '');
  assert.equal(await page.getByTestId('save-kb').count(), 0);
  await page.getByLabel('HTML', { exact: true }).fill('<html><body><p>hello</p></body></html>');
  await page.getByTestId('run-tester').click();
  assert.match(await page.getByTestId('forbidden').innerText(), /needs the “design” permission/);

  // A curator annotates: the finished crawl, and one of its captures (in the capture's record).
  await page.goto(`${cockpit.url}/crawls/${finishedCrawlId}`);
  // Opened after the crawl, the charts show its history (rebuilt from its captures), not blanks.
  await page.waitForFunction(() => Number(document.querySelector('[data-testid="throughput"]')?.getAttribute('data-samples')) >= 3);
  assert.equal(await page.getByText('The charts fill in while the crawl runs.').count(), 0);
  // The history's points average the same 5 s as the live ones, and the chart says so.
  await page.getByTestId('chart-pages-per-second').getByText('Pages per second (average of the 5 s before each point)').first().waitFor();
  // A finished crawl's pages/s is its average over the time it ran, not the last seconds' rate.
  await page.getByText('Pages/s (average)').waitFor();
  assert.ok(Number(await page.getByTestId('counter-pages-per-second').innerText()) > 0);
  // Not focused: no score column (every URL had the default priority).
  await page.getByTestId('captures-table').locator('th').first().waitFor();
  assert.equal(await page.getByTestId('captures-table').locator('th', { hasText: 'Score' }).count(), 0);
  await page.getByLabel('Note on the crawl').fill('Harbour site, first capture');
  await page.getByRole('button', { name: 'Add note' }).click();
  await page.getByTestId('crawl-annotations').getByTestId('annotation').filter({ hasText: 'Harbour site, first capture' }).waitFor();
  await page.getByTestId('capture-url').first().click();
  await page.getByLabel('Note on this capture').fill('Footer missing');
  await page.getByTestId('capture-annotations').getByRole('button', { name: 'Add note' }).click();
  await page.getByTestId('capture-annotations').getByTestId('annotation').filter({ hasText: 'Footer missing' }).waitFor();
  // The crawl's list now holds both, the capture's with its URL, newest first.
  await page.getByTestId('crawl-annotations').getByTestId('annotation').filter({ hasText: /cora,[\s\S]*Footer missing/ }).waitFor();
  assert.equal(await page.getByTestId('crawl-annotations').getByTestId('annotation').count(), 2);

  // Any user changes their own password under Account; a wrong current one is named on its field.
  await page.getByRole('link', { name: 'Account', exact: true }).click();
  await page.waitForURL(/\/account$/);
  await page.getByLabel('Current password').fill('not-it');
  await page.getByLabel('New password', { exact: true }).fill('curator-password-2');
  await page.getByLabel('New password again').fill('curator-password-2');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByTestId('error-currentPassword').filter({ hasText: 'Not your current password' }).waitFor();
  await page.getByLabel('Current password').fill('curator-password');
  await page.getByRole('button', { name: 'Change password' }).click();
  await page.getByRole('status').filter({ hasText: 'Password changed.' }).waitFor();
  assert.equal((await new ApiClient(cockpit.url).login('cora', 'curator-password-2')).status, 200);

  // An admin gives her another role and a new password in the users list.
  await admin.goto(`${cockpit.url}/users`);
  const row = admin.locator('[data-testid="user-row"][data-username="cora"]');
  await row.getByLabel('Role of cora').selectOption('manager');
  await row.getByLabel('New password for cora').fill('manager-password');
  await row.getByRole('button', { name: 'Save' }).click();
  await row.getByRole('status').filter({ hasText: 'Saved.' }).waitFor();
  await row.locator('td').nth(1).filter({ hasText: /^manager/ }).waitFor();
  assert.equal((await new ApiClient(cockpit.url).login('cora', 'curator-password-2')).status, 401);
  assert.equal((await new ApiClient(cockpit.url).login('cora', 'manager-password')).status, 200);
});
