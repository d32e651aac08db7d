import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { chromium, type Browser, type Page } from 'playwright-core';
import { DOMParser } from '@xmldom/xmldom';
import type { ApiClient } from '../support/api-client';
import { signedInAdmin, startCockpit, type RunningCockpit } from '../support/cockpit';
import { groundTruth, startChangingSite, type ChangingSite } from '../integration/coherence/changing-site';
import type { CoherenceCertificate } from '../../worker/coherence';
import { openSqlite, sqlDate } from '../../worker/store/sqlite';
import { SIBLING_BATCH } from '../../app/crawls/[id]/coherence/tree-layout';
import { assertFocusComes } from './helpers/browser';

let cockpit: RunningCockpit;
let api: ApiClient;
let browser: Browser;
let site: ChangingSite | undefined;
before(async () => {
  cockpit = await startCockpit();
  api = await signedInAdmin(cockpit);
  browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'] });
});
after(async () => {
  await browser?.close();
  await cockpit?.stop();
  await site?.close();
});

/** A tab signed in as the admin. */
async function signedInPage(): Promise<Page> {
  const context = await browser.newContext({ acceptDownloads: true });
  const [name, value] = api.cookie.split('=') as [string, string];
  await context.addCookies([{ name, value, url: cockpit.url }]);
  return context.newPage();
}

test('the coherence view of a finished visit–revisit crawl shows the changed and removed pages; GraphML and certificate download', async () => {
  site = await startChangingSite();
  const icd = await api.json<{ id: number }>('POST', '/api/icds', {
    name: 'Changing harbour site',
    seeds: [`${site.origin}/`],
    politeness: { minDelayMs: 30, maxDelayMs: 200, concurrency: 1, respectRobots: false },
    aah: { enabled: false },
    coherence: { mode: 'visit-revisit' },
  });
  const crawl = await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id });
  let status = '';
  for (const deadline = Date.now() + 90_000; status !== 'finished' && Date.now() < deadline; await sleep(200)) {
    status = (await api.json<{ status: string }>('GET', `/api/crawls/${crawl.id}`)).status;
  }
  assert.equal(status, 'finished');
  const truth = groundTruth(site);
  const removed = `${site.origin}/gone`;
  const linksChanged = `${site.origin}/menu`;
  assert.equal(truth.get(removed), 'missing');
  assert.equal(truth.get(linksChanged), 'links-changed');

  const page = await signedInPage();
  await page.goto(`${cockpit.url}/crawls/${crawl.id}/coherence`);

  // Every page of the site is a node with its status; the red and the black ones are the changed and removed pages.
  const node = (url: string) => page.locator(`[data-testid="tree-node"][data-url="${url}"]`);
  await node(removed).waitFor();
  for (const [url, expected] of truth) assert.equal(await node(url).getAttribute('data-status'), expected, url);
  assert.equal(await node(linksChanged).locator('path').getAttribute('fill'), '#dc2626', 'red: links changed');
  assert.equal(await node(removed).locator('path').getAttribute('fill'), '#111827', 'black: missing');
  const red = await page.locator('[data-testid="tree-node"][data-status="links-changed"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-url')));
  const black = await page.locator('[data-testid="tree-node"][data-status="missing"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-url')));
  assert.deepEqual(red, [linksChanged]);
  assert.deepEqual(black, [removed]);

  // Clicking the red node shows visit and revisit side by side, with the new link.
  await node(linksChanged).click();
  await page.getByTestId('page-status').filter({ hasText: 'links changed' }).waitFor();
  assert.match(await page.getByTestId('page-detail').innerText(), /new-page/);
  assert.match(await page.getByTestId('page-status').innerText(), /decided by a changed set of out-links/);

  // The black one says why its revisit has no text: the page gone (its 404), not an empty page.
  await node(removed).click();
  await page.getByTestId('page-status').filter({ hasText: 'decided by the page gone or moved at the revisit' }).waitFor();
  assert.match(await page.getByTestId('revisit-text').locator('h3').innerText(), /^Revisit · .+ · no text to compare$/);

  // Collapse hides the subtree under the home page, expand brings it back; the wheel zooms.
  const home = `${site.origin}/`;
  await node(home).click();
  await page.getByTestId('toggle-subtree').click();
  await page.locator(`[data-testid="tree-node"][data-url="${home}"][data-collapsed="true"]`).waitFor();
  assert.equal(await node(removed).count(), 0);
  await page.getByTestId('toggle-subtree').click();
  await node(removed).waitFor();
  const chart = page.locator('svg[aria-label="Discovery tree coloured by coherence status"]');
  const before = await chart.locator(':scope > g').getAttribute('transform');
  await chart.hover();
  await page.mouse.wheel(0, -400);
  await page.waitForFunction((t) => document.querySelector('svg[aria-label="Discovery tree coloured by coherence status"] > g')?.getAttribute('transform') !== t, before);

  // The keyboard: one tab stop in the tree; arrows walk it, Enter shows a page, Left/Right fold and unfold.
  const focusedUrl = () => page.evaluate(() => document.activeElement?.getAttribute('data-url') ?? null);
  await node(home).focus();
  assert.equal(await page.locator('[data-testid="tree-node"][tabindex="0"]').count(), 1, 'one tab stop');
  await page.keyboard.press('End');
  const last = await page.locator('[data-testid="tree-node"]').last().getAttribute('data-url');
  assert.equal(await focusedUrl(), last);
  await page.keyboard.press('ArrowUp');
  const previous = await focusedUrl();
  assert.ok(previous && previous !== last);
  await page.keyboard.press('Enter');
  await page.getByTestId('page-detail').locator('h2', { hasText: previous }).waitFor();
  await page.keyboard.press('Home');
  assert.equal(await focusedUrl(), await page.locator('[data-testid="tree-node"]').first().getAttribute('data-url'));
  await node(home).focus();
  await page.keyboard.press('ArrowLeft');
  await page.locator(`[data-testid="tree-node"][data-url="${home}"][data-collapsed="true"]`).waitFor();
  assert.equal(await node(removed).count(), 0);
  assert.equal(await focusedUrl(), home, 'the folded node keeps the focus');
  await page.keyboard.press('ArrowRight');
  await node(removed).waitFor();
  // Right again goes into the open node, Left from a child back to its parent.
  await page.keyboard.press('ArrowRight');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('aria-level')), '2', 'the first child');
  await node(removed).focus();
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focusedUrl(), home, 'from /gone to the page that linked to it');

  // Search finds a node; the summary shows the coherence.
  await page.getByTestId('tree-search').fill('/clock');
  assert.equal(await node(`${site.origin}/clock`).locator('path').getAttribute('stroke'), '#f97316');
  const unchanged = [...truth].filter(([, s]) => s === 'unchanged').map(([u]) => u).sort();
  assert.match(await page.getByTestId('coherence-summary').innerText(), new RegExp(`${((unchanged.length / truth.size) * 100).toFixed(1)} %`));

  const [graphml] = await Promise.all([page.waitForEvent('download'), page.getByTestId('graphml-link').click()]);
  const xml = readFileSync((await graphml.path())!, 'utf8');
  assert.equal((xml.match(/<node /g) ?? []).length, truth.size);
  assert.ok(xml.includes('<data key="status">missing</data>'));

  const [certificate] = await Promise.all([page.waitForEvent('download'), page.getByTestId('certificate-link').click()]);
  const cert = JSON.parse(readFileSync((await certificate.path())!, 'utf8')) as CoherenceCertificate;
  assert.deepEqual(cert.unchanged.map((p) => p.url), unchanged);
  assert.deepEqual(cert.notCertified.map((p) => p.url).sort(), [...truth].filter(([, s]) => s !== 'unchanged').map(([u]) => u).sort());
});

test('a capture of 5,000 roots reads the first 1,000, then all; shows 100 of them and a "+K more" row; a search reaches a hidden one; polls of an unchanged report are answered 304', async () => {
  // 5,000 roots (a seed list, sitemap pages whose parent is unknown) drew 5,000 nodes.
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Wide capture', seeds: ['http://seed-0000.example/'], coherence: { mode: 'visit-revisit' } });
  const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
  const wideId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired) SELECT id, definition, name, 'paused', 'pause' FROM Icd WHERE id = ?").run(icd.id).lastInsertRowid);
  const now = sqlDate(new Date());
  const insert = db.prepare("INSERT INTO CoherencePage (crawlId, url, parentUrl, depth, mime, visitedAt, visit, visitText, status) VALUES (?, ?, NULL, 0, 'text/html', ?, '{}', '', 'unchanged')");
  const seed = (i: number) => `http://seed-${String(i).padStart(4, '0')}.example/`;
  db.transaction(() => { for (let i = 0; i < 5_000; i++) insert.run(wideId, seed(i), now); })();
  // The revisit pass paused part-way (a paused crawl may be resumed any moment): the view asks again, and the server answers 304 while nothing changes.
  db.prepare('INSERT INTO CoherenceRun (crawlId, referenceTime, startedAt) VALUES (?, ?, ?)').run(wideId, now, now);
  db.close();
  const page = await signedInPage();
  // The tree's rows come 1,000 at a time (the report held them all: 12 MB for 100,000 pages).
  const treeReads: Promise<number>[] = [];
  page.on('response', (r) => { if (r.url().includes(`/api/crawls/${wideId}/coherence/tree?`)) treeReads.push(r.body().then((b) => b.length)); });
  await page.goto(`${cockpit.url}/crawls/${wideId}/coherence`);
  const chart = page.locator('svg[aria-label="Discovery tree coloured by coherence status"]');
  const node = (url: string) => page.locator(`[data-testid="tree-node"][data-url="${url}"]`);
  const more = page.getByTestId('tree-more');
  await more.waitFor();
  assert.equal(await page.getByTestId('tree-node').count(), SIBLING_BATCH);
  assert.match((await more.textContent())!, /\+900 more/, 'the first 1,000 pages read');
  assert.match(await page.getByTestId('tree-read').innerText(), /^The tree of the first 1.?000 pages visited, of 5.?000/);
  await page.getByTestId('tree-read-all').click();
  await page.getByTestId('tree-read').filter({ hasText: /^The tree of all 5.?000 pages\.$/ }).waitFor();
  assert.equal(await page.getByTestId('tree-read-more').count(), 0, 'nothing more to read');
  const sizes = await Promise.all(treeReads);
  assert.equal(sizes.length, 5);
  assert.ok(Math.max(...sizes) < 200_000, `${Math.max(...sizes)} bytes a read`);
  assert.equal(await page.getByTestId('tree-node').count(), SIBLING_BATCH);
  const svgElements = await chart.locator('*').count();
  assert.ok(svgElements < 1_000, `${svgElements} SVG elements`);
  assert.match((await more.textContent())!, /\+4.?900 more/);
  assert.match(await page.getByTestId('tree-shown').innerText(), /^100 of 5.?000 pages shown/);
  await node(seed(SIBLING_BATCH - 1)).focus();
  await page.keyboard.press('ArrowDown');
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-testid')), 'tree-more', 'the keyboard reaches the row');
  await page.keyboard.press('Enter');
  await node(seed(2 * SIBLING_BATCH - 1)).waitFor();
  await assertFocusComes(page, () => document.activeElement?.getAttribute('data-url'), seed(SIBLING_BATCH), 'the focus goes to the first of the new batch');
  assert.equal(await page.getByTestId('tree-node').count(), 2 * SIBLING_BATCH);
  assert.match((await more.textContent())!, /\+4.?800 more/);
  const reportUrl = `${cockpit.url}/api/crawls/${wideId}/coherence`;
  const poll = await page.waitForResponse((r) => r.url() === reportUrl && r.status() === 304, { timeout: 15_000 });
  assert.match((await poll.request().headerValue('if-none-match'))!, /^"paused-5000-5000-\d+-\d+-0-0"$/);
  assert.equal(await page.getByTestId('tree-node').count(), 2 * SIBLING_BATCH, 'the view as it was');
  await page.getByTestId('tree-search').fill('seed-4321');
  await node(seed(4321)).waitFor();
  assert.equal(await node(seed(4321)).locator('path').getAttribute('stroke'), '#f97316');
  assert.match((await more.textContent())!, /\+4.?799 more/);
  // Enter in Search takes the keyboard to the match, far down the tree, and pans it into view; Enter there shows it.
  await page.getByTestId('tree-search').press('Enter');
  await page.waitForFunction((url) => document.activeElement?.getAttribute('data-url') === url, seed(4321));
  // The pan is drawn on React's next render after the focus: wait for it, then say where the row is if it never comes.
  const inTheBox = await page.waitForFunction((url) => {
    const row = document.querySelector(`[data-testid="tree-node"][data-url="${url}"]`)?.getBoundingClientRect();
    const view = document.querySelector('svg[aria-label="Discovery tree coloured by coherence status"]')?.getBoundingClientRect();
    return row && view && row.top >= view.top && row.bottom <= view.bottom;
  }, seed(4321), { timeout: 5_000 }).then(() => true, () => false);
  const box = (await node(seed(4321)).boundingBox())!;
  const view = (await chart.boundingBox())!;
  assert.ok(inTheBox, `the match is in the tree's box (${box.y} in ${view.y}–${view.y + view.height})`);
  assert.match((await node(seed(4321)).getAttribute('aria-label'))!, /matches the search/);
  await page.keyboard.press('Enter');
  await page.getByTestId('page-detail').locator('h2', { hasText: seed(4321) }).waitFor();
});

test('a crawl with no page says why (snapshot mode, nothing captured yet, ended or failed without a page) and shows no coherence for no page', async () => {
  // A seed that refuses connections: the visit–revisit crawl finishes, its run over no page.
  const refused = createServer();
  await new Promise<void>((done) => refused.listen(0, '127.0.0.1', done));
  const refusedPort = (refused.address() as AddressInfo).port;
  await new Promise((done) => refused.close(done));
  // A seed that never answers: the crawl runs with nothing captured.
  const silent = createServer(() => undefined);
  await new Promise<void>((done) => silent.listen(0, '127.0.0.1', done));
  try {
    const definition = (name: string, port: number, mode: string) => ({
      name, seeds: [`http://127.0.0.1:${port}/`], politeness: { minDelayMs: 30, maxDelayMs: 200, concurrency: 1, respectRobots: false }, aah: { enabled: false }, coherence: { mode },
    });
    const start = async (name: string, port: number) => {
      const icd = await api.json<{ id: number }>('POST', '/api/icds', definition(name, port, 'visit-revisit'));
      return (await api.json<{ id: number }>('POST', '/api/crawls', { icdId: icd.id })).id;
    };
    const ended = await start('Refused seed', refusedPort);
    let status = '';
    for (const deadline = Date.now() + 90_000; status !== 'finished' && Date.now() < deadline; await sleep(200)) {
      status = (await api.json<{ status: string }>('GET', `/api/crawls/${ended}`)).status;
    }
    assert.equal(status, 'finished');
    // Started after the other has finished: both seeds are on 127.0.0.1, whose politeness they share.
    const running = await start('Silent seed', (silent.address() as AddressInfo).port);
    for (const deadline = Date.now() + 30_000; status !== 'running' && Date.now() < deadline; await sleep(100)) {
      status = (await api.json<{ status: string }>('GET', `/api/crawls/${running}`)).status;
    }
    assert.equal(status, 'running');
    const snapshotIcd = await api.json<{ id: number }>('POST', '/api/icds', definition('Snapshot', refusedPort, 'snapshot'));
    const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
    const insert = db.prepare("INSERT INTO Crawl (icdId, definition, name, status, error) SELECT id, definition, name, ?, ? FROM Icd WHERE id = ?");
    const snapshot = Number(insert.run('finished', null, snapshotIcd.id).lastInsertRowid);
    const failed = Number(insert.run('failed', 'the WARC folder could not be made', snapshotIcd.id).lastInsertRowid);
    db.prepare("UPDATE Crawl SET definition = json_set(definition, '$.coherence.mode', 'visit-revisit') WHERE id = ?").run(failed);
    db.close();

    const page = await signedInPage();
    const said = async (crawlId: number) => {
      await page.goto(`${cockpit.url}/crawls/${crawlId}/coherence`);
      return page.getByTestId('no-capture').innerText();
    };
    assert.match(await said(snapshot), /runs in snapshot mode: its pages are not revisited/);
    assert.match(await said(running), /^No HTML page captured yet/);
    assert.match(await said(failed), /^The crawl failed before it captured any HTML page \(the WARC folder could not be made\)/);
    assert.match(await said(ended), /^The crawl ended without capturing any HTML page/);
    // Its run finished over no page: a coherence of no page is no 100 %.
    const summary = await page.getByTestId('coherence-summary').innerText();
    assert.match(summary, /coherence\s+—/);
    assert.doesNotMatch(summary, /100\.0 %/);
    await api.json('POST', `/api/crawls/${running}/control`, { action: 'stop' });
  } finally {
    silent.closeAllConnections();
    await new Promise((done) => silent.close(done));
  }
});

test('hostile pages: URLs with & < > " \' and one of 30,000 characters, binary text; each opens its detail, and GraphML parses with every node and edge', async () => {
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Hostile capture', seeds: ['http://hostile.example/'], coherence: { mode: 'visit-revisit' } });
  const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
  const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status) SELECT id, definition, name, 'finished' FROM Icd WHERE id = ?").run(icd.id).lastInsertRowid);
  const home = 'http://hostile.example/';
  const quoted = `http://hostile.example/a?x=1&y=<b>"q"'s`;
  // Escaped again in a query string, 45,000 characters: more than the 16 KB of request line and headers the server takes.
  const long = `http://hostile.example/${'q%22'.repeat(7_500)}`;
  const binary = 'http://hostile.example/blob';
  const now = sqlDate(new Date());
  const insert = db.prepare("INSERT INTO CoherencePage (crawlId, url, parentUrl, depth, mime, visitedAt, visit, visitText, revisitedAt, revisitText, status, evidence, changeRate) VALUES (?, ?, ?, ?, 'text/html', ?, '{}', ?, ?, ?, ?, ?, 1)");
  insert.run(crawlId, home, null, 0, now, 'Home & <home>', now, 'Home & <home>', 'unchanged', 'payload-digest');
  insert.run(crawlId, quoted, home, 1, now, `tide <script>alert("x")</script> & 'quotes'`, now, 'tide changed', 'content-changed', 'content');
  insert.run(crawlId, long, home, 1, now, 'the longest address', now, null, 'missing', 'gone');
  insert.run(crawlId, binary, home, 1, now, 'PK\u0003\u0004 \u0000\u0001 \ufffd\ufffd', now, 'PK\u0003\u0004 \u0000\u0001 \ufffd\ufffd', 'unchanged', 'payload-digest');
  const below = 'http://hostile.example/below/quoted';
  insert.run(crawlId, below, quoted, 2, now, 'below', now, 'below', 'unchanged', 'payload-digest');
  db.close();

  const page = await signedInPage();
  await page.goto(`${cockpit.url}/crawls/${crawlId}/coherence`);
  await page.getByTestId('tree-node').nth(3).waitFor();
  const urls = await page.getByTestId('tree-node').evaluateAll((els) => els.map((e) => e.getAttribute('data-url')));
  assert.deepEqual([...urls].sort(), [home, quoted, long, binary, below].sort(), 'every URL as stored');
  const detail = page.getByTestId('page-detail');
  for (const [url, text] of [[quoted, `<script>alert("x")</script>`], [long, 'the longest address'], [binary, 'PK']] as const) {
    await page.getByTestId('tree-node').nth(urls.indexOf(url)).click();
    await detail.locator('h2').filter({ hasText: url.slice(0, 60) }).waitFor();
    await page.getByTestId('visit-text').filter({ hasText: text }).waitFor({ timeout: 10_000 });
    assert.equal(await detail.locator('[role="alert"]').count(), 0, `no error for ${url.slice(0, 60)}`);
    assert.equal(await detail.locator('h2').innerText(), url);
  }

  const [graphml] = await Promise.all([page.waitForEvent('download'), page.getByTestId('graphml-link').click()]);
  const errors: string[] = [];
  const doc = new DOMParser({ onError: (level, message) => errors.push(`${level}: ${message}`) }).parseFromString(readFileSync((await graphml.path())!, 'utf8'), 'text/xml');
  assert.deepEqual(errors, [], 'well-formed XML');
  const nodes = Array.from(doc.getElementsByTagName('node'));
  const urlOf = new Map(nodes.map((n) => [n.getAttribute('id'), Array.from(n.getElementsByTagName('data')).find((d) => d.getAttribute('key') === 'url')!.textContent]));
  assert.deepEqual([...urlOf.values()].sort(), [home, quoted, long, binary, below].sort(), 'every node, its URL read back as stored');
  const edges = Array.from(doc.getElementsByTagName('edge')).map((e) => [urlOf.get(e.getAttribute('source')), urlOf.get(e.getAttribute('target'))]);
  assert.deepEqual(edges.sort(), [[home, binary], [home, long], [home, quoted], [quoted, below]].sort(), 'every edge, parent to child');

  // A search holds the way to its match open: ← from the match goes up that way, node by node, to the root.
  await page.getByTestId('tree-search').fill('below/');
  await page.getByTestId('tree-search').press('Enter');
  const focused = () => page.evaluate(() => document.activeElement?.getAttribute('data-url') ?? null);
  await page.waitForFunction((url) => document.activeElement?.getAttribute('data-url') === url, below);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), quoted);
  await page.keyboard.press('ArrowLeft');
  assert.equal(await focused(), home, 'not held on a node the search keeps open');
  // Its detail offers no collapse the search would undo; without the search it does.
  await page.keyboard.press('Enter');
  await detail.locator('h2', { hasText: home }).waitFor();
  await page.getByTestId('subtree-pinned').waitFor();
  assert.equal(await page.getByTestId('toggle-subtree').count(), 0);
  await page.getByTestId('tree-search').fill('');
  await page.getByTestId('toggle-subtree').click();
  await page.locator(`[data-testid="tree-node"][data-url="${home}"][data-collapsed="true"]`).waitFor();
});

test('the detail of a page selected before its revisit shows the revisit once the tree does; each text is a region named by its heading, its paragraphs kept', async () => {
  const icd = await api.json<{ id: number }>('POST', '/api/icds', { name: 'Revisit under way', seeds: ['http://underway.example/'], coherence: { mode: 'visit-revisit' } });
  const db = openSqlite(join(cockpit.dataDir, 'tidemark.db'));
  // Paused during its revisit pass (a paused crawl is left alone by the worker; the view keeps asking).
  const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired) SELECT id, definition, name, 'paused', 'pause' FROM Icd WHERE id = ?").run(icd.id).lastInsertRowid);
  const now = sqlDate(new Date());
  const url = 'http://underway.example/';
  db.prepare("INSERT INTO CoherencePage (crawlId, url, parentUrl, depth, mime, visitedAt, visit, visitText) VALUES (?, ?, NULL, 0, 'text/html', ?, '{}', ?)").run(crawlId, url, now, 'the tide is low\n\nboats wait in the harbour');
  db.prepare('INSERT INTO CoherenceRun (crawlId, referenceTime, startedAt) VALUES (?, ?, ?)').run(crawlId, now, now);
  const page = await signedInPage();
  await page.goto(`${cockpit.url}/crawls/${crawlId}/coherence`);
  const node = page.locator(`[data-testid="tree-node"][data-url="${url}"]`);
  await node.click();
  await page.getByTestId('page-status').filter({ hasText: 'not revisited yet' }).waitFor();
  const visitText = page.getByRole('region', { name: /^Visit · / });
  const revisitText = page.getByRole('region', { name: /^Revisit · / });
  assert.equal(await visitText.innerText(), 'the tide is low\n\nboats wait in the harbour', 'the paragraph break is kept');
  assert.equal(await revisitText.getAttribute('aria-labelledby') !== null, true);
  // The revisit is recorded: the next poll colours the node, and the detail follows.
  db.prepare("UPDATE CoherencePage SET revisitedAt = ?, revisitText = ?, status = 'content-changed', evidence = 'content', similarity = 0.5, changeRate = 1 WHERE crawlId = ? AND url = ?")
    .run(now, 'the tide is high\n\nboats wait in the harbour\n\nthe quay is closed', crawlId, url);
  db.close();
  await page.locator(`[data-testid="tree-node"][data-url="${url}"][data-status="content-changed"]`).waitFor({ timeout: 15_000 });
  await page.getByTestId('page-status').filter({ hasText: 'content changed' }).waitFor({ timeout: 5_000 });
  assert.match(await page.getByTestId('revisit-text').innerText(), /high/);
  // Each side reads as its text, paragraphs included; the changed words are marked.
  assert.equal(await revisitText.innerText(), 'the tide is high\n\nboats wait in the harbour\n\nthe quay is closed');
  assert.equal(await visitText.innerText(), 'the tide is low\n\nboats wait in the harbour');
  assert.deepEqual(await visitText.locator('mark').allInnerTexts(), ['low']);
  assert.deepEqual(await revisitText.locator('mark').allInnerTexts(), ['high', '\n\nthe quay is closed']);
});
