/**
 * The export form's preview (GET /api/crawls/:id/exports/preview) counts the captures the export
 * then writes. Found by reading the code: it counted the selection and the responses its revisits
 * repeat, not the captures its redirects lead to, which the export reads from the WARC files and
 * writes too (a selection of one moved page said 1 capture, the export wrote 2), nor the pages'
 * requisites the export now brings. Real parts: the route handler over a migrated SQLite database
 * in its data folder, the engine crawling a loopback site into it, the export job.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { runExport } from '../../../worker/export/export-job';
import { icdSchema } from '../../../worker/icd/schema';
import { crawlWarcDir } from '../../../worker/store/data-layout';
import { callRoute, routeDatabase, signedInAs } from '../../support/route-database';
import { insertCrawl } from '../../support/crawl-rows';
import { withSite } from '../../support/site-crawl';
import { capturesIn, harbourSite } from '../../support/requisites-site';

const s = await routeDatabase('tm-preview-counts-');
const { GET: preview } = await import('../../../app/api/crawls/[id]/exports/preview/route');

test('the preview counts what the export writes: redirect targets, requisites, the responses revisits repeat', { timeout: 60_000 }, async () => {
  const manager = await signedInAs(s, 'manager', 'manager');
  await withSite(harbourSite, async (origin) => {
    const icd = icdSchema.parse({ name: 'Harbour', seeds: [`${origin}/`], politeness: { enabled: false, concurrency: 1, respectRobots: false }, aah: { enabled: false }, limits: { maxRetries: 0 } });
    const crawlId = insertCrawl(s.db, icd);
    const warcDir = crawlWarcDir(s.env.dataDir, crawlId);
    assert.equal(await new CrawlEngine({ crawlId, icd, db: s.db, warcDir, spoolDir: join(s.env.dataDir, 'spool') }).run(), 'finished');
    s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
    for (const selection of [
      { urlContains: '/old/', requisites: false },
      { urlContains: '/old/' },
      { urlContains: '/quay' },
      { hosts: [origin], statusClasses: ['3xx', '2xx'], mimeTypes: ['text/html'] },
    ]) {
      const counted = await callRoute(manager, preview, 'GET', `/api/crawls/${crawlId}/exports/preview?selection=${encodeURIComponent(JSON.stringify(selection))}`, undefined, { id: String(crawlId) });
      assert.equal(counted.status, 200);
      const exportId = Number(s.db.prepare("INSERT INTO Export (crawlId, status, selection) VALUES (?, 'pending', ?)").run(crawlId, JSON.stringify(selection)).lastInsertRowid);
      const exportDir = join(s.env.dataDir, 'exports', String(exportId));
      await runExport(s.db, { exportId, crawlId, warcDir, exportDir });
      const row = s.db.prepare('SELECT status, error FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null };
      assert.equal(row.status, 'done', row.error ?? '');
      const written = capturesIn(exportDir, origin);
      assert.equal(counted.body.captures, written.length, `${JSON.stringify(selection)}: the preview said ${counted.body.captures}, the export wrote ${written.join(', ')}`);
    }
  });
});
