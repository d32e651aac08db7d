/**
 * Deleting an export (DELETE /api/exports/:id). Before, an export could be made, followed,
 * downloaded and cancelled but never deleted: the list filled with old, failed and cancelled
 * exports, and a finished one kept its WARC copies or WACZ on disk for ever. Now a delete removes
 * the export's own folder, then its row; it is refused while the export is pending or running,
 * never reaches outside the exports folder, and a file that cannot be removed keeps the row, which
 * says what was removed. A download under way when its file is deleted still ends whole.
 *
 * Real parts: the route handlers over a migrated SQLite database, the worker's CrawlManager making
 * a real export (hard links to the crawl's WARC files), the server's download handler on an HTTP
 * server on 127.0.0.1, and the file system (an immutable file, via chattr, for a file that cannot
 * be removed).
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Services } from '../../../app/lib/server/services';
import { assertCanMakeImmutable, makeImmutable, makeRemovable } from '../../support/immutable-file';
import { callRoute, routeDatabase, signedInAs, startWorker, type RouteHandler } from '../../support/route-database';
import { until } from '../../support/engine-run';
import { crawlWarcId } from '../../../worker/warc';
import { crawlWarcDir, exportDir } from '../../../worker/store/data-layout';
import { icdSchema } from '../../../worker/icd/schema';
import { insertCrawl } from '../../support/crawl-rows';
import { writeLargeWarcs } from '../../support/large-warcs';
import { serveExportDownload } from '../../../app/lib/server/export-download';
import { sqlDate } from '../../../worker/store/sqlite';

let s: Services;
let manager = { cookie: '', csrf: '' };
let curator = { cookie: '', csrf: '' };
let archivist = { cookie: '', csrf: '' };
let worker: Awaited<ReturnType<typeof startWorker>> | null = null;
let routes: typeof import('../../../app/api/exports/[id]/route');

before(async () => {
  s = await routeDatabase('tidemark-export-delete-');
  manager = await signedInAs(s, 'harbour-master', 'manager');
  curator = await signedInAs(s, 'visitor', 'curator');
  archivist = await signedInAs(s, 'designer', 'archivist');
  routes = await import('../../../app/api/exports/[id]/route');
});
after(() => worker?.stop());

const del = (as: { cookie: string; csrf: string }, id: number) => callRoute(as, routes.DELETE as RouteHandler<{ id: string }>, 'DELETE', `/api/exports/${id}`, undefined, { id: String(id) });
const get = (id: number) => callRoute(manager, routes.GET as RouteHandler<{ id: string }>, 'GET', `/api/exports/${id}`, undefined, { id: String(id) });
const digests = (dir: string) =>
  Object.fromEntries(readdirSync(dir).sort().map((n) => [n, createHash('sha256').update(readFileSync(join(dir, n))).digest('hex')]));

function finishedCrawl(): number {
  const crawlId = insertCrawl(s.db, icdSchema.parse({ name: 'Harbour', seeds: ['http://127.0.0.1:9/'] }));
  s.db.prepare("UPDATE Crawl SET status = 'finished', desired = 'stop' WHERE id = ?").run(crawlId);
  return crawlId;
}

/** An export row of `status` whose own folder holds `files` (name → content). */
function exportWithFiles(crawlId: number, status: string, files: Record<string, Buffer | string>): number {
  const listed = Object.entries(files).map(([name, body]) => ({ name, bytes: Buffer.byteLength(body), sha256: createHash('sha256').update(body).digest('hex') }));
  const id = Number(s.db.prepare('INSERT INTO Export (crawlId, status, files, createdAt) VALUES (?, ?, ?, ?)').run(crawlId, status, JSON.stringify(status === 'done' ? listed : []), sqlDate(new Date())).lastInsertRowid);
  const dir = exportDir(s.env.dataDir, id);
  mkdirSync(dir, { recursive: true });
  for (const [name, body] of Object.entries(files)) writeFileSync(join(dir, name), body);
  return id;
}

const rowOf = (id: number) => s.db.prepare('SELECT status, files, error FROM Export WHERE id = ?').get(id) as { status: string; files: string; error: string | null } | undefined;

test('only a role that may export deletes an export; pending and running ones are refused (cancel first), their files kept', async () => {
  const crawlId = finishedCrawl();
  const done = exportWithFiles(crawlId, 'done', { 'index.cdxj': 'x\n' });
  assert.equal((await del(curator, done)).status, 403, 'a curator may not export, so may not delete');
  assert.equal((await del(archivist, done)).status, 403, 'nor an archivist');
  assert.ok(rowOf(done) && existsSync(exportDir(s.env.dataDir, done)), 'a refused delete changes nothing');

  for (const status of ['pending', 'running']) {
    const id = exportWithFiles(crawlId, status, { 'partial.warc.gz': 'partial' });
    const res = await del(manager, id);
    assert.equal(res.status, 409, status);
    assert.equal(res.body.error, `The export is ${status}: cancel it first, then delete it`);
    assert.equal(rowOf(id)?.status, status, 'the row is kept');
    assert.ok(existsSync(join(exportDir(s.env.dataDir, id), 'partial.warc.gz')), 'its files are kept');
    // Not left in the way of the worker of this test file's other tests.
    s.db.prepare("UPDATE Export SET status = 'cancelled' WHERE id = ?").run(id);
  }
  assert.equal((await del(manager, 999_999)).status, 404);
  assert.equal((await del(manager, done)).status, 204, 'a manager may');
  assert.equal(rowOf(done), undefined);
});

test('a done export made by the worker: its folder (hard links to the crawl\'s WARC files) and row go, the crawl\'s files and other exports stay', { timeout: 120_000 }, async () => {
  const { POST: requestExport, GET: listExports } = await import('../../../app/api/crawls/[id]/exports/route');
  const crawlId = finishedCrawl();
  const warcDir = crawlWarcDir(s.env.dataDir, crawlId);
  await writeLargeWarcs(warcDir, crawlWarcId(crawlId), 4, 2);
  worker ??= await startWorker(s);
  const made: number[] = [];
  for (const format of ['warc', 'wacz']) {
    const res = await callRoute(manager, requestExport, 'POST', `/api/crawls/${crawlId}/exports`, { format }, { id: String(crawlId) });
    assert.equal(res.status, 201, JSON.stringify(res.body));
    made.push(res.body.id as number);
  }
  for (const id of made) await until(`export ${id} is done`, () => rowOf(id)?.status === 'done', 90_000);
  const [warcExport, waczExport] = made as [number, number];
  const crawlFiles = digests(warcDir);
  const waczFiles = digests(exportDir(s.env.dataDir, waczExport));
  assert.ok(readdirSync(exportDir(s.env.dataDir, warcExport)).some((n) => n.endsWith('.warc.gz')), 'the export holds its WARC files');

  assert.equal((await del(manager, warcExport)).status, 204);
  assert.ok(!existsSync(exportDir(s.env.dataDir, warcExport)), 'its folder is gone');
  assert.equal(rowOf(warcExport), undefined, 'its row is gone');
  assert.equal((await get(warcExport)).status, 404);
  const list = await callRoute(manager, listExports, 'GET', `/api/crawls/${crawlId}/exports`, undefined, { id: String(crawlId) });
  const items = (Array.isArray(list.body) ? list.body : (list.body.items as { id: number }[])) as { id: number }[];
  assert.deepEqual(items.map((e) => e.id), [waczExport], 'the list no longer holds it');
  assert.deepEqual(digests(warcDir), crawlFiles, "the crawl's own files (the same inodes) are untouched");
  assert.deepEqual(digests(exportDir(s.env.dataDir, waczExport)), waczFiles, 'the other export is untouched');
  assert.equal((await del(manager, warcExport)).status, 404, 'deleted once');
});

test('failed and cancelled exports are deleted, with or without a folder; an export listing the crawl\'s own files leaves them', async () => {
  const crawlId = finishedCrawl();
  const warcDir = crawlWarcDir(s.env.dataDir, crawlId);
  mkdirSync(warcDir, { recursive: true });
  writeFileSync(join(warcDir, 'index.cdxj'), 'crawl index\n');
  const now = sqlDate(new Date());
  const failed = Number(s.db.prepare("INSERT INTO Export (crawlId, status, error, createdAt) VALUES (?, 'failed', 'No capture matches', ?)").run(crawlId, now).lastInsertRowid);
  const cancelled = exportWithFiles(crawlId, 'cancelled', { 'left.warc.gz': 'left by a worker that died' });
  // Made before exports kept their own folder: it lists the crawl's files, which are not its to remove.
  const legacy = Number(s.db.prepare("INSERT INTO Export (crawlId, status, files, createdAt) VALUES (?, 'done', ?, ?)").run(crawlId, JSON.stringify([{ name: 'index.cdxj', bytes: 12, sha256: 'x' }]), now).lastInsertRowid);
  for (const id of [failed, cancelled, legacy]) {
    const res = await del(manager, id);
    assert.equal(res.status, 204, JSON.stringify(res.body));
    assert.equal(rowOf(id), undefined);
    assert.ok(!existsSync(exportDir(s.env.dataDir, id)));
  }
  assert.equal(readFileSync(join(warcDir, 'index.cdxj'), 'utf8'), 'crawl index\n', "the crawl's index is untouched");
});

test('nothing outside the exports folder is removed: a folder that is a link is refused, a link inside is removed as a link', async () => {
  const crawlId = finishedCrawl();
  const outside = mkdtempSync(join(tmpdir(), 'tidemark-outside-'));
  writeFileSync(join(outside, 'precious.txt'), 'keep me');

  // exports/<id> is a link to a folder elsewhere: refused, nothing removed there, the row kept.
  const id = Number(s.db.prepare("INSERT INTO Export (crawlId, status, files, createdAt) VALUES (?, 'done', ?, ?)").run(crawlId, JSON.stringify([{ name: 'precious.txt', bytes: 7, sha256: 'x' }]), sqlDate(new Date())).lastInsertRowid);
  mkdirSync(join(s.env.dataDir, 'exports'), { recursive: true });
  symlinkSync(outside, exportDir(s.env.dataDir, id));
  const res = await del(manager, id);
  assert.equal(res.status, 409);
  assert.match(String(res.body.error), new RegExp(`^exports/${id} is a symbolic link \\(to ${outside}\\), not the export's own folder: Tidemark removes nothing outside its exports folder\\. Nothing was removed and the export is kept$`));
  assert.equal(readFileSync(join(outside, 'precious.txt'), 'utf8'), 'keep me');
  assert.equal(rowOf(id)?.status, 'done', 'the row is kept');

  // A link inside the export's folder, to a file and to a folder outside: the links go, their targets stay.
  const linked = exportWithFiles(crawlId, 'done', { 'index.cdxj': 'own\n' });
  symlinkSync(join(outside, 'precious.txt'), join(exportDir(s.env.dataDir, linked), 'escape.txt'));
  symlinkSync(outside, join(exportDir(s.env.dataDir, linked), 'escape-dir'));
  assert.equal((await del(manager, linked)).status, 204);
  assert.ok(!existsSync(exportDir(s.env.dataDir, linked)));
  assert.deepEqual(readdirSync(outside), ['precious.txt']);
  assert.equal(readFileSync(join(outside, 'precious.txt'), 'utf8'), 'keep me');
});

test('a file that cannot be removed: a clear error, the row kept listing only the files still there, and a later delete finishes', async () => {
  assertCanMakeImmutable(s.env.dataDir);
  const crawlId = finishedCrawl();
  // Removed in name order: a-first goes, b-stuck cannot.
  const id = exportWithFiles(crawlId, 'done', { 'a-first.warc.gz': 'one', 'b-stuck.warc.gz': 'two' });
  const stuck = join(exportDir(s.env.dataDir, id), 'b-stuck.warc.gz');
  makeImmutable(stuck);
  try {
    const res = await del(manager, id);
    assert.equal(res.status, 500);
    assert.equal(res.body.error, `exports/${id}/b-stuck.warc.gz could not be removed (EPERM): 1 file had been removed before it (exports/${id}/a-first.warc.gz); delete the export again once it can be`);
    const row = rowOf(id)!;
    assert.equal(row.status, 'done', 'the row is kept');
    assert.deepEqual((JSON.parse(row.files) as { name: string }[]).map((f) => f.name), ['b-stuck.warc.gz'], 'it lists the file still there, not the one removed');
    assert.equal(row.error, `Delete stopped: ${res.body.error}`);
    assert.ok(existsSync(stuck));
  } finally {
    makeRemovable(stuck);
  }
  assert.equal((await del(manager, id)).status, 204);
  assert.equal(rowOf(id), undefined);
  assert.ok(!existsSync(exportDir(s.env.dataDir, id)));

  // A row whose file list is not JSON (edited by hand): the same clear error, the list left as it was.
  const odd = exportWithFiles(crawlId, 'done', { 'a-first.warc.gz': 'one', 'b-stuck.warc.gz': 'two' });
  s.db.prepare("UPDATE Export SET files = 'not json' WHERE id = ?").run(odd);
  const oddStuck = join(exportDir(s.env.dataDir, odd), 'b-stuck.warc.gz');
  makeImmutable(oddStuck);
  try {
    const res = await del(manager, odd);
    assert.equal(res.status, 500);
    assert.match(String(res.body.error), /b-stuck\.warc\.gz could not be removed \(EPERM\)/);
    assert.equal(rowOf(odd)?.files, 'not json');
    assert.match(rowOf(odd)?.error ?? '', /^Delete stopped: /);
  } finally {
    makeRemovable(oddStuck);
  }
  assert.equal((await del(manager, odd)).status, 204);
});

test('a download under way when its export is deleted ends whole; the next one is a 404', { timeout: 60_000 }, async () => {
  const crawlId = finishedCrawl();
  // Larger than the sockets' buffers take at once, so the server still reads the file after the delete.
  const bytes = randomBytes(16 * 1024 * 1024);
  const id = exportWithFiles(crawlId, 'done', { 'tidemark-1-1.wacz': bytes });
  const server = createServer((req, res) => {
    if (!serveExportDownload(req, res, { db: s.db, sessions: s.sessions, dataDir: s.env.dataDir })) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/exports/${id}/files/tidemark-1-1.wacz`;
  const cookie = manager.cookie;
  try {
    const res = await fetch(url, { headers: { cookie } });
    assert.equal(res.status, 200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    assert.ok(first.value?.length);
    assert.equal((await del(manager, id)).status, 204);
    assert.ok(!existsSync(exportDir(s.env.dataDir, id)), 'deleted while the download reads it');
    const chunks = [Buffer.from(first.value!)];
    for (let c = await reader.read(); !c.done; c = await reader.read()) chunks.push(Buffer.from(c.value));
    assert.ok(Buffer.concat(chunks).equals(bytes), 'the download ends byte for byte');
    assert.equal((await fetch(url, { headers: { cookie } })).status, 404, 'then there is nothing to download');
  } finally {
    server.closeAllConnections();
    await new Promise<void>((r) => server.close(() => r()));
  }
});
