/**
 * A WACZ of two crawls of one ICD replays in ReplayWeb.page at either date: the home page at the
 * first crawl's timestamp shows its first edition, with its image; at the later crawl's, the second.
 * Before, an export held one crawl, so only one date could be replayed from it. Real parts: a
 * loopback site crawled twice by the engine, a migrated SQLite database, the export job packaging a
 * WACZ, ReplayWeb.page in headless Chromium.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { requestExport } from '../../worker/process/crawl-requests';
import { parseCdxjLine } from '../../worker/warc';
import { startReplayServer } from '../support/replay-harness';
import { readZip } from '../support/read-wacz';
import { bytesOf, withTwoCrawls } from '../support/two-crawls';
import { launchBrowser } from './helpers/browser';

test('a collection of two crawls replays the home page at each crawl\'s date', { timeout: 180_000 }, async () => {
  await withTwoCrawls('tm-replay-two-', async (c) => {
    const outcome = requestExport(c.db, c.later.crawlId, { requestedById: 1, selection: null, format: 'wacz', pageText: false, otherCrawlIds: [c.first.crawlId] });
    assert.ok(typeof outcome === 'object' && 'done' in outcome, JSON.stringify(outcome));
    const row = await c.runExportOf(outcome.done.id);
    assert.equal(row.status, 'done', row.error ?? '');
    const name = row.files[0]!.name;
    const index = (await readZip(bytesOf(row.dir, name))).get('indexes/index.cdx')!.bytes.toString('utf8');
    const dates = index.split('\n').filter(Boolean).map((l) => parseCdxjLine(l)!).filter((e) => e.json.url === `${c.origin}/`).map((e) => e.timestamp);
    assert.equal(dates.length, 2, index);

    const replay = await startReplayServer({ 'collection.wacz': join(row.dir, name) });
    const browser = await launchBrowser();
    try {
      for (const [i, ts] of dates.entries()) {
        const page = await (await browser.newContext()).newPage();
        const { frame } = await replay.replay(page, 'collection.wacz', `${c.origin}/`, { ts });
        await frame.waitForFunction(() => document.querySelector<HTMLImageElement>('#dot')?.complete, undefined, { timeout: 15_000 });
        const shown = await frame.evaluate(() => ({ edition: document.querySelector('#edition')?.textContent, imageWidth: document.querySelector<HTMLImageElement>('#dot')!.naturalWidth }));
        assert.deepEqual(shown, { edition: `Edition ${i + 1}`, imageWidth: 1 }, `at ${ts}`);
        await page.context().close();
      }
    } finally {
      await browser.close();
      await replay.close();
    }
  });
});
