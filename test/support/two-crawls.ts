import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import type { RequestListener } from 'node:http';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CrawlEngine } from '../../worker/crawler/crawl-engine';
import { runExport } from '../../worker/export/export-job';
import { withSiteCrawl, type SiteCrawl } from './site-crawl';
import { insertLaterCrawl } from './crawl-rows';

/** A site of two pages (the second under /harbour/) and an image both show, whose home page says which edition it is (`site.edition`, set between crawls). */
export function editionSite(): { site: RequestListener; setEdition(n: number): void } {
  let edition = 1;
  const dot = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==', 'base64');
  const site: RequestListener = (req, res) => {
    const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html>${body}`);
    if (req.url === '/') return html(`<title>Home ${edition}</title><p id="edition">Edition ${edition}</p><img id="dot" src="/img/dot.png" alt=""><a href="/harbour/about">about</a>`);
    if (req.url === '/harbour/about') return html('<title>About</title><p>About the harbour.</p><img src="/img/dot.png" alt="">');
    if (req.url === '/img/dot.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(dot);
    res.writeHead(404).end();
  };
  return { site, setEdition: (n) => void (edition = n) };
}

/** What a test of two crawls of one ICD gets: the first crawl (SiteCrawl) and the later one, each with its WARC folder. */
export interface TwoCrawls extends SiteCrawl {
  first: { crawlId: number; warcDir: string };
  later: { crawlId: number; warcDir: string };
  /** Runs an export of the row `exportId` (the later crawl's), the other crawl's files found in its own folder; returns its row. */
  runExportOf(exportId: number): Promise<{ status: string; error: string | null; files: { name: string }[]; dir: string }>;
}

/**
 * Serves editionSite and crawls it twice with one ICD, edition 1 then edition 2, in two crawls at
 * two different seconds (distinct CDXJ timestamps), each into its own WARC folder; runs `fn`.
 */
export async function withTwoCrawls(prefix: string, fn: (c: TwoCrawls) => Promise<void>): Promise<void> {
  const { site, setEdition } = editionSite();
  const fields = { name: 'Harbour yearly', politeness: { enabled: false, concurrency: 1, respectRobots: false }, limits: { maxRetries: 0 } };
  await withSiteCrawl(prefix, site, fields, async (c) => {
    const run = async (crawlId: number) => {
      const warcDir = join(c.dir, `warcs-${crawlId}`);
      assert.equal(await new CrawlEngine({ crawlId, icd: c.icd, db: c.db, warcDir, spoolDir: join(c.dir, `spool-${crawlId}`) }).run(), 'finished');
      c.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
      return { crawlId, warcDir };
    };
    const first = await run(c.crawlId);
    // The next whole second: the later crawl's captures have another timestamp.
    await sleep(1100 - (Date.now() % 1000));
    setEdition(2);
    const later = await run(insertLaterCrawl(c.db, c.crawlId));
    const dirOf = (crawlId: number) => (crawlId === first.crawlId ? first : later).warcDir;
    const runExportOf: TwoCrawls['runExportOf'] = async (exportId) => {
      const dir = join(c.dir, 'exports', String(exportId));
      await runExport(c.db, { exportId, crawlId: later.crawlId, warcDir: later.warcDir, exportDir: dir, otherCrawl: (id) => ({ warcDir: dirOf(id) }) });
      const row = c.db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null; files: string };
      return { ...row, files: JSON.parse(row.files) as { name: string }[], dir };
    };
    await fn({ ...c, first, later, runExportOf });
  });
}

/** The file's bytes (a helper for reading what an export wrote). */
export const bytesOf = (dir: string, name: string) => readFileSync(join(dir, name));
