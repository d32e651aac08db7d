/**
 * Cancelling an export (POST /api/exports/:id/cancel). Before, an export once requested ran to its
 * end: an archivist who started a WACZ of a huge crawl by mistake waited for it (and for its disk
 * space), and its crawl could be neither resumed nor deleted meanwhile. Now a cancel marks it
 * cancelled (who, when) at once; a running one stops within about a second, in the middle of a
 * file too, and what it wrote is removed; a pending one is never started; nothing else changes.
 *
 * Real parts: the route handlers over a migrated SQLite database, the worker's CrawlManager running
 * the exports, and a crawl of three WARC files of 60 MB written by the crawl's own writer.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Services } from '../../../app/lib/server/services';
import { callRoute, routeDatabase, signedInAs, startWorker, type RouteHandler } from '../../support/route-database';
import { until } from '../../support/engine-run';
import { crawlWarcId } from '../../../worker/warc';
import { crawlWarcDir, exportDir } from '../../../worker/store/data-layout';
import { icdSchema } from '../../../worker/icd/schema';
import { insertCrawl } from '../../support/crawl-rows';
import { writeLargeWarcs } from '../../support/large-warcs';
import { findExportFile } from '../../../app/lib/server/export-download';
import { exportUnderWay } from '../../../worker/export/export-job';

let s: Services;
let manager = { cookie: '', csrf: '' };
let viewer = { cookie: '', csrf: '' };
let worker: Awaited<ReturnType<typeof startWorker>> | null = null;

before(async () => {
  s = await routeDatabase('tidemark-export-cancel-');
  manager = await signedInAs(s, 'harbour-master', 'manager');
  viewer = await signedInAs(s, 'visitor', 'curator');
});
after(() => worker?.stop());

type Row = { id: number; status: string; progress: number; files: unknown[]; cancelledBy: string | null; cancelledAt: string | null; finishedAt: string | null; error: string | null };

/** A finished crawl whose WARC files are `files` × `perFile` responses of 1 MB each, stored uncompressed (written fast). */
async function largeCrawl(files: number, perFile: number): Promise<number> {
  const crawlId = insertCrawl(s.db, icdSchema.parse({ name: 'Harbour', seeds: ['http://127.0.0.1:9/'] }));
  s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  await writeLargeWarcs(crawlWarcDir(s.env.dataDir, crawlId), crawlWarcId(crawlId), files * perFile, perFile);
  return crawlId;
}

const digests = (dir: string) =>
  Object.fromEntries(readdirSync(dir).sort().map((n) => [n, createHash('sha256').update(readFileSync(join(dir, n))).digest('hex')]));

test('cancelling a running WACZ export stops it mid-file within a second, removes its files, and says who and when', { timeout: 180_000 }, async () => {
  const { POST: requestExport } = await import('../../../app/api/crawls/[id]/exports/route');
  const { GET: getExport } = await import('../../../app/api/exports/[id]/route');
  const { POST: cancel } = await import('../../../app/api/exports/[id]/cancel/route');
  const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(manager, handler, method, path, body, params);
  const exportRow = async (id: number) => (await call(getExport, 'GET', `/api/exports/${id}`, undefined, { id: String(id) })).body as unknown as Row;

  const crawlId = await largeCrawl(3, 60);
  const warcDir = crawlWarcDir(s.env.dataDir, crawlId);
  assert.equal(readdirSync(warcDir).filter((n) => n.endsWith('.warc.gz')).length, 3, 'three WARC files');
  worker = await startWorker(s);

  // An earlier export, done: it must stay as it is.
  const first = await call(requestExport, 'POST', `/api/crawls/${crawlId}/exports`, { format: 'warc' }, { id: String(crawlId) });
  assert.equal(first.status, 201, JSON.stringify(first.body));
  const firstId = first.body.id as number;
  await until('the first export is done', () => s.db.prepare('SELECT status FROM Export WHERE id = ?').pluck().get(firstId) !== 'running' && s.db.prepare('SELECT status FROM Export WHERE id = ?').pluck().get(firstId) !== 'pending', 120_000);
  assert.equal((await exportRow(firstId)).status, 'done');
  const firstFiles = digests(exportDir(s.env.dataDir, firstId));
  const crawlFiles = digests(warcDir);

  // The mistaken one: a WACZ of the whole crawl, cancelled while it verifies the WARC files.
  const wacz = await call(requestExport, 'POST', `/api/crawls/${crawlId}/exports`, { format: 'wacz', pageText: true }, { id: String(crawlId) });
  assert.equal(wacz.status, 201);
  const id = wacz.body.id as number;
  const params = { id: String(id) };
  // Under way, a few percent in: inside the first of the three files (verifying reads each twice).
  await until('the export is under way', () => (s.db.prepare('SELECT progress FROM Export WHERE id = ?').pluck().get(id) as number) >= 0.03, 60_000);
  const at = s.db.prepare('SELECT progress FROM Export WHERE id = ?').pluck().get(id) as number;
  assert.ok(at < 0.3, `cancelled while verifying, before any packaging (progress ${at})`);
  assert.equal((await callRoute(viewer, cancel, 'POST', `/api/exports/${id}/cancel`, undefined, params)).status, 403, 'a role that may not export may not cancel');

  const asked = Date.now();
  const cancelled = await call(cancel, 'POST', `/api/exports/${id}/cancel`, undefined, params);
  assert.equal(cancelled.status, 200, JSON.stringify(cancelled.body));
  assert.equal(cancelled.body.status, 'cancelled');
  assert.equal(cancelled.body.cancelledBy, 'harbour-master');
  assert.ok(cancelled.body.cancelledAt, 'when');

  // The worker stops and removes what it wrote: its folder is gone once it has stopped.
  while (existsSync(exportDir(s.env.dataDir, id)) && Date.now() - asked < 10_000) await sleep(10);
  assert.ok(!existsSync(exportDir(s.env.dataDir, id)), 'its partial files are removed');
  // Stopped at once, measured by how far it had got rather than by a clock (a loaded machine's
  // seconds say nothing): cancelled a few percent in, it stopped before half of the WARC files.
  const progressAtStop = s.db.prepare('SELECT progress FROM Export WHERE id = ?').pluck().get(id) as number;
  assert.ok(progressAtStop < 0.5, `stopped before it was through the WARC files (progress ${progressAtStop})`);

  await until('the worker has let the export go', () => !worker!.exporting(), 10_000);
  const row = await exportRow(id);
  assert.equal(row.status, 'cancelled', 'still cancelled: the worker did not overwrite it');
  assert.equal(row.cancelledBy, 'harbour-master');
  assert.equal(row.error, null);
  assert.deepEqual(row.files, [], 'nothing offered for download');
  assert.ok(row.finishedAt);
  assert.equal(new Date(row.cancelledAt!).getTime() >= asked - 1000, true);
  const download = await findExportFile(s.db, s.env.dataDir, id, `tidemark-${crawlId}-${id}.wacz`);
  assert.equal('status' in download && download.status, 409, 'its package is not offered');

  // Nothing else disturbed: the crawl's files, the earlier export's.
  assert.deepEqual(digests(warcDir), crawlFiles, "the crawl's files as they were");
  assert.deepEqual(digests(exportDir(s.env.dataDir, firstId)), firstFiles, "the earlier export's files as they were");
  assert.equal((await exportRow(firstId)).status, 'done');
  // Cancelled twice, or a done export: 409; one that is not there: 404.
  assert.equal((await call(cancel, 'POST', `/api/exports/${id}/cancel`, undefined, params)).status, 409);
  assert.equal((await call(cancel, 'POST', `/api/exports/${firstId}/cancel`, undefined, { id: String(firstId) })).status, 409);
  assert.equal((await call(cancel, 'POST', '/api/exports/9999/cancel', undefined, { id: '9999' })).status, 404);
  // The crawl is no longer held by it (resumed or deleted once no export of it is under way).
  assert.equal(exportUnderWay(s.db, crawlId), null);

  // The worker goes on with the next export.
  const next = await call(requestExport, 'POST', `/api/crawls/${crawlId}/exports`, { format: 'warc' }, { id: String(crawlId) });
  await until('the next export is done', () => ['done', 'failed'].includes(s.db.prepare('SELECT status FROM Export WHERE id = ?').pluck().get(next.body.id) as string), 120_000);
  assert.equal((await exportRow(next.body.id as number)).status, 'done');
});

test('a pending export cancelled is never started; the one before it is not disturbed', { timeout: 180_000 }, async () => {
  const { POST: requestExport } = await import('../../../app/api/crawls/[id]/exports/route');
  const { POST: cancel } = await import('../../../app/api/exports/[id]/cancel/route');
  const call = <P>(handler: RouteHandler<P>, method: string, path: string, body: unknown, params: P) => callRoute(manager, handler, method, path, body, params);
  const crawlId = await largeCrawl(2, 30);
  worker ??= await startWorker(s);
  const running = (await call(requestExport, 'POST', `/api/crawls/${crawlId}/exports`, { format: 'wacz' }, { id: String(crawlId) })).body.id as number;
  const waiting = (await call(requestExport, 'POST', `/api/crawls/${crawlId}/exports`, { format: 'warc' }, { id: String(crawlId) })).body.id as number;
  const status = (id: number) => s.db.prepare('SELECT status FROM Export WHERE id = ?').pluck().get(id) as string;
  await until('the first export runs', () => status(running) === 'running', 60_000);
  assert.equal(status(waiting), 'pending');
  const cancelled = await call(cancel, 'POST', `/api/exports/${waiting}/cancel`, undefined, { id: String(waiting) });
  assert.equal(cancelled.status, 200);
  assert.equal(cancelled.body.status, 'cancelled');
  await until('the first export is done', () => status(running) === 'done', 120_000);
  await sleep(1000);
  assert.equal(status(waiting), 'cancelled', 'never started');
  assert.ok(!existsSync(exportDir(s.env.dataDir, waiting)), 'nothing written for it');
  assert.ok(existsSync(join(exportDir(s.env.dataDir, running), `tidemark-${crawlId}-${running}.wacz`)), 'the other export is whole');
});
