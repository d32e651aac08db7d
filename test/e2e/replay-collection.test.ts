/**
 * A collection of the pages a visit–revisit crawl proved unchanged replays in ReplayWeb.page with
 * its images and stylesheets. It held the pages alone (only HTML pages have a coherence status), so
 * the replayed page showed a broken image and no style. Real parts: a loopback site, the engine,
 * a migrated SQLite database, the export job packaging a WACZ, ReplayWeb.page in headless Chromium.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { runExport } from '../../worker/export/export-job';
import { withSiteCrawl } from '../support/site-crawl';
import { crawlToTheEnd } from '../support/finished-crawl';
import { startReplayServer } from '../support/replay-harness';
import { launchBrowser } from './helpers/browser';

// A valid 1×1 PNG: Chromium decodes it to an image of that size (a missing one has none).
const DOT = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');

/** The paths the site was asked for, in order. */
const asked: string[] = [];

const site: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  asked.push(path);
  const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);
  if (path === '/') return html('<a href="/styled">styled</a> <a href="/news">news</a>');
  if (path === '/styled') return html('<link rel="stylesheet" href="/style.css"><p class="painted">Painted.</p><img id="dot" src="/dot.png" alt="">');
  // Changes at every fetch: not proved unchanged, so not in the collection.
  if (path === '/news') return html(`<p>News ${asked.filter((p) => p === '/news').length}: ${'the tide turned '.repeat(asked.length)}</p>`);
  if (path === '/style.css') return void res.writeHead(200, { 'content-type': 'text/css' }).end('.painted { color: rgb(12, 34, 56); }');
  if (path === '/dot.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(DOT);
  res.writeHead(404).end();
};

test('a collection of the pages proved unchanged replays them with their image and stylesheet', { timeout: 120_000 }, async () => {
  const fields = { name: 'Styled, twice', politeness: { enabled: false, concurrency: 1, respectRobots: false }, limits: { maxRetries: 0 }, coherence: { mode: 'visit-revisit' } };
  await withSiteCrawl('tm-replay-collection-', site, fields, async (crawl) => {
    const { dir, db, crawlId, origin } = crawl;
    const warcDir = await crawlToTheEnd(crawl);
    assert.equal(db.prepare('SELECT status FROM CoherencePage WHERE url = ?').pluck().get(`${origin}/styled`), 'unchanged');
    const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, selection, format) VALUES (?, 'pending', ?, 'wacz')").run(crawlId, JSON.stringify({ coherence: ['unchanged'] })).lastInsertRowid);
    const exportDir = join(dir, 'export');
    await runExport(db, { exportId, crawlId, warcDir, exportDir });
    const row = db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
    assert.equal(row.status, 'done', row.error ?? '');
    const wacz = join(exportDir, (JSON.parse(row.files) as { name: string }[])[0]!.name);

    const replay = await startReplayServer({ 'collection.wacz': wacz });
    const browser = await launchBrowser();
    try {
      const page = await (await browser.newContext()).newPage();
      const before = asked.length;
      const { frame, url } = await replay.replay(page, 'collection.wacz', `${origin}/styled`);
      assert.equal(url, `${origin}/styled`);
      // The image is decoded once loaded: waited for, as the replay's load event may come first.
      await frame.waitForFunction(() => document.querySelector<HTMLImageElement>('#dot')?.complete, undefined, { timeout: 15_000 });
      const shown = await frame.evaluate(() => ({
        imageWidth: document.querySelector<HTMLImageElement>('#dot')!.naturalWidth,
        color: getComputedStyle(document.querySelector('.painted')!).color,
      }));
      assert.deepEqual(shown, { imageWidth: 1, color: 'rgb(12, 34, 56)' }, 'the image and the stylesheet, from the collection');
      assert.deepEqual(asked.slice(before), [], 'the live site was not asked for anything during the replay');
    } finally {
      await browser.close();
      await replay.close();
    }
  });
});
