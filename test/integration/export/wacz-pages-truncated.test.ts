/**
 * A WACZ's pages.jsonl says which pages were captured cut short. A page whose body the connection
 * cut off mid-body (Capture.truncated `disconnect`) was listed like a whole one, so a reader of the
 * package met an incomplete replay with no word of it. Its line now carries `truncated` (the
 * WARC-Truncated value); a whole page's line has no such property. Real parts: a loopback site, the
 * engine, a migrated SQLite database, the export job writing the WACZ.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { withSiteCrawl } from '../../support/site-crawl';
import { cutBodySite } from '../../support/cut-body-site';
import { exportWacz } from '../../support/wacz-export';

test("a WACZ's pages.jsonl gives a page captured cut short its WARC-Truncated value, and a whole page none", { timeout: 60_000 }, async () => {
  const { listener: site } = cutBodySite();
  const fields = { name: 'Cut page export', limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-wacz-pages-truncated-', site, fields, async ({ dir, db, icd, crawlId }) => {
    const warcDir = join(dir, 'warcs');
    const engine = new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') });
    assert.equal(await engine.run(), 'finished');
    const entries = await exportWacz(db, crawlId, dir, warcDir);
    const [, ...lines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
    const pages = new Map(lines.map((l) => JSON.parse(l) as { url: string; truncated?: string }).map((p) => [new URL(p.url).pathname, p]));
    assert.deepEqual([...pages.keys()].sort(), ['/', '/p'], 'the two HTML pages (/q is linked only from the half /p never sent)');
    assert.equal(pages.get('/p')!.truncated, 'disconnect');
    assert.equal('truncated' in pages.get('/')!, false, 'a whole page lists no truncated property');
  });
});
