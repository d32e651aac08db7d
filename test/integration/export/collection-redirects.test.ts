/**
 * A collection of redirects holds the captures they lead to. Found by an exploratory session: a
 * manager selecting the pages under a path that had moved (`/old/`) got a collection of 3xx
 * responses alone, which replay to nothing, and a WACZ of them listing no page. Now each selected
 * redirect brings the capture of its Location, hop by hop to the end of a chain (a target that is
 * a revisit brings the response holding its payload). Real parts: a loopback site, the engine, a
 * migrated SQLite database, the export job writing the collection.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestListener } from 'node:http';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { runExport } from '../../../worker/export/export-job';
import { verifyCdxj } from '../../../worker/warc';
import { withSiteCrawl } from '../../support/site-crawl';
import { readZip } from '../../support/read-wacz';

const site: RequestListener = (req, res) => {
  const path = req.url ?? '/';
  const html = (body: string) => void res.writeHead(200, { 'content-type': 'text/html' }).end(`<!doctype html><title>${path}</title>${body}`);
  const moved = (status: number, location: string) => void res.writeHead(status, { location }).end();
  if (path === '/') return html('<a href="/old/tides">tides</a> <a href="/old/quay">quay</a> <a href="/old/same">same</a> <a href="/harbour">harbour</a> <a href="/old/cafe">café</a>');
  // A Location in raw Latin-1 (an old IIS or PHP site): a browser, and the crawl, follow it to /new/caf%E9.
  if (path === '/old/cafe') return moved(301, '/new/caf\xe9');
  if (path === '/new/caf%E9') return html('<p>the café by the quay</p>');
  // A redirect, a chain of two more (the second relative, with a query the crawl keeps), and one to a copy of /harbour (a revisit).
  if (path === '/old/tides') return moved(301, '/new/tides');
  if (path === '/old/quay') return moved(302, 'http://' + req.headers.host + '/hop');
  if (path === '/hop') return moved(307, 'final?x=1');
  if (path === '/old/same') return moved(301, '/copy-of-harbour');
  if (path === '/new/tides') return html('<p>high water at noon</p>');
  if (path === '/final?x=1') return html('<p>the end of the quay</p>');
  if (path === '/harbour' || path === '/copy-of-harbour') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>the harbour, the same at both addresses</p>');
  res.writeHead(404).end();
};

test('a collection of redirects holds what they lead to, to the end of a chain', { timeout: 60_000 }, async () => {
  const fields = { name: 'Moved pages', politeness: { enabled: false, concurrency: 1, respectRobots: false }, limits: { maxRetries: 0 } };
  await withSiteCrawl('tm-collection-redirects-', site, fields, async ({ dir, db, icd, crawlId, origin }) => {
    const warcDir = join(dir, 'warcs');
    assert.equal(await new CrawlEngine({ crawlId, icd, db, warcDir, spoolDir: join(dir, 'spool') }).run(), 'finished');
    const copy = db.prepare('SELECT recordType FROM Capture WHERE url = ?').pluck().get(`${origin}/copy-of-harbour`);
    assert.equal(copy, 'revisit', 'the copy of /harbour was archived as a revisit of it');
    db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
    const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, selection) VALUES (?, 'pending', ?)").run(crawlId, JSON.stringify({ urlContains: '/old/' })).lastInsertRowid);
    const exportDir = join(dir, 'export');
    await runExport(db, { exportId, crawlId, warcDir, exportDir });
    const row = db.prepare('SELECT status, error FROM Export WHERE id = ?').get(exportId) as { status: string; error: string | null };
    assert.equal(row.status, 'done', row.error ?? '');
    const index = await verifyCdxj(join(exportDir, 'index.cdxj'), exportDir);
    assert.deepEqual(index.errors, []);
    const indexed = readFileSync(join(exportDir, 'index.cdxj'), 'utf8').trim().split('\n')
      .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as { url: string; status: string })
      .map((r) => `${r.status} ${r.url.slice(origin.length)}`).sort();
    assert.deepEqual(indexed, [
      '200 /copy-of-harbour', '200 /final?x=1', '200 /harbour', '200 /new/caf%E9', '200 /new/tides',
      '301 /old/cafe', '301 /old/same', '301 /old/tides', '302 /old/quay', '307 /hop',
    ], 'the redirects, where they lead, and the response a revisit among them repeats; not the home page');

    // As a WACZ (with page text), the pages they lead to are its pages: it listed none.
    const waczId = Number(db.prepare("INSERT INTO Export (crawlId, status, selection, format, pageText) VALUES (?, 'pending', ?, 'wacz', 1)").run(crawlId, JSON.stringify({ urlContains: '/old/' })).lastInsertRowid);
    const waczDir = join(dir, 'wacz');
    await runExport(db, { exportId: waczId, crawlId, warcDir, exportDir: waczDir });
    const wacz = db.prepare('SELECT status, error, files FROM Export WHERE id = ?').get(waczId) as { status: string; error: string | null; files: string };
    assert.equal(wacz.status, 'done', wacz.error ?? '');
    const entries = await readZip(readFileSync(join(waczDir, (JSON.parse(wacz.files) as { name: string }[])[0]!.name)));
    const [, ...lines] = entries.get('pages/pages.jsonl')!.bytes.toString('utf8').split('\n').filter(Boolean);
    const pages = lines.map((l) => JSON.parse(l) as { url: string; text?: string });
    assert.deepEqual(pages.map((p) => p.url.slice(origin.length)).sort(), ['/copy-of-harbour', '/final?x=1', '/new/caf%E9', '/new/tides']);
    assert.match(pages.find((p) => p.url.endsWith('/new/tides'))!.text ?? '', /high water at noon/, 'with its text');
  });
});
