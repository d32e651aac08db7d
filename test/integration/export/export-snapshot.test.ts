/**
 * An export of a paused crawl stays as it was made when the crawl is resumed and goes on: its
 * files are downloaded again after more crawling and still match the sha256 it lists. Real parts:
 * the migrated SQLite database, the worker's CrawlManager crawling a loopback site, and downloads
 * over HTTP through the server's own download handler.
 */
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { icdSchema } from '../../../worker/icd/schema';
import { openSqlite, sqlDate } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { CrawlManager } from '../../../worker/process/crawl-manager';
import { crawlWarcDir } from '../../../worker/store/data-layout';
import { hashPassword } from '../../../worker/auth/password';
import { SESSION_COOKIE, SessionStore } from '../../../worker/auth/sessions';
import { serveExportDownload } from '../../../app/lib/server/export-download';
import { withTempDir } from '../../support/temp-dir';

const PAGES = 40;
const site = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://x').pathname;
  const html = (title: string, body: string) => `<!doctype html><title>${title}</title><h1>${title}</h1>${body}`;
  if (path === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end(html('Harbour', Array.from({ length: PAGES }, (_, i) => `<a href="/p/${i}">${i}</a>`).join(' ')));
  const m = /^\/p\/(\d+)$/.exec(path);
  if (m) return void res.writeHead(200, { 'content-type': 'text/html' }).end(html(`Berth ${m[1]}`, `<p>Berth ${m[1]} of the harbour, ${'tide '.repeat(50)}</p>`));
  res.writeHead(404).end('not found');
});
await new Promise<void>((r) => site.listen(0, '127.0.0.1', () => r()));
const origin = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
after(() => new Promise<void>((r) => { site.closeAllConnections(); site.close(() => r()); }));

interface ExportRow { id: number; status: string; error: string | null; files: string; finishedAt: string | null }
interface Listed { name: string; bytes: number; sha256: string }

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

async function until<T>(what: string, probe: () => T | undefined | null | false, timeoutMs = 60_000): Promise<T> {
  for (const end = Date.now() + timeoutMs; Date.now() < end; await sleep(50)) {
    const value = probe();
    if (value) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

test('an export of a paused crawl keeps its files and digests when the crawl is resumed; resuming waits for an export under way', { timeout: 120_000 }, async () => {
  await withTempDir('tm-export-snapshot-', async (dataDir) => {
    const db = openSqlite(join(dataDir, 'state.db'));
    applyMigrations(db, resolve('prisma/migrations'));
    const now = sqlDate(new Date());
    db.prepare("INSERT INTO User (username, passwordHash, role, createdAt) VALUES ('mara', ?, 'manager', ?)").run(await hashPassword('harbour-pass'), now);
    const login = await new SessionStore(db, 1).login('mara', 'harbour-pass');
    assert.ok(login);
    const downloads: Server = createServer((req, res) => {
      if (!serveExportDownload(req, res, { db, sessions: new SessionStore(db, 1), dataDir })) res.writeHead(404).end();
    });
    await new Promise<void>((r) => downloads.listen(0, '127.0.0.1', () => r()));
    const base = `http://127.0.0.1:${(downloads.address() as AddressInfo).port}`;
    const get = (exportId: number, name: string) => fetch(`${base}/api/exports/${exportId}/files/${encodeURIComponent(name)}`, { headers: { cookie: `${SESSION_COOKIE}=${login.token}` } });

    const icd = icdSchema.parse({
      name: 'Harbour berths',
      seeds: [`${origin}/`],
      scope: { includeFavicon: false },
      politeness: { respectRobots: false, minDelayMs: 40, maxDelayMs: 200, concurrency: 1 },
      aah: { enabled: false },
    });
    const icdId = db.prepare('INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES (?, ?, ?, ?)').run(icd.name, JSON.stringify(icd), now, now).lastInsertRowid;
    const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, ?, ?, 'created', 'run', ?)").run(icdId, JSON.stringify(icd), icd.name, now).lastInsertRowid);
    const crawlStatus = () => (db.prepare('SELECT status FROM Crawl WHERE id = ?').get(crawlId) as { status: string }).status;
    const captures = () => (db.prepare('SELECT COUNT(*) AS n FROM Capture WHERE crawlId = ?').get(crawlId) as { n: number }).n;
    const requestExport = (format = 'warc') => Number(db.prepare('INSERT INTO Export (crawlId, format, createdAt) VALUES (?, ?, ?)').run(crawlId, format, sqlDate(new Date())).lastInsertRowid);
    const exportRow = (id: number) => db.prepare('SELECT id, status, error, files, finishedAt FROM Export WHERE id = ?').get(id) as ExportRow;
    const ended = (id: number) => until(`export ${id}`, () => ['done', 'failed'].includes(exportRow(id).status) && exportRow(id));
    const downloadAll = async (exportId: number, files: readonly Listed[]) => {
      const got = new Map<string, Buffer>();
      for (const f of files) {
        const res = await get(exportId, f.name);
        assert.equal(res.status, 200, `export ${exportId}: ${f.name}`);
        const bytes = Buffer.from(await res.arrayBuffer());
        assert.equal(bytes.length, f.bytes, `export ${exportId}: ${f.name} is as long as listed`);
        assert.equal(sha256(bytes), f.sha256, `export ${exportId}: ${f.name} has the sha256 listed`);
        got.set(f.name, bytes);
      }
      return got;
    };

    const manager = new CrawlManager({ db, dataDir, send: () => undefined });
    manager.start();
    try {
      // Paused part-way: a few berths captured, the rest still queued.
      await until('a few captures', () => captures() >= 6);
      db.prepare("UPDATE Crawl SET desired = 'pause' WHERE id = ?").run(crawlId);
      await until('the pause', () => crawlStatus() === 'paused');
      const pausedAt = captures();
      assert.ok(pausedAt < PAGES, `paused before the end (${pausedAt} captures)`);

      const warcExport = await ended(requestExport());
      const waczExport = await ended(requestExport('wacz'));
      for (const e of [warcExport, waczExport]) assert.equal(e.status, 'done', `export ${e.id}: ${e.error}`);
      const warcFiles = JSON.parse(warcExport.files) as Listed[];
      assert.ok(warcFiles.some((f) => f.name === 'index.cdxj') && warcFiles.some((f) => f.name.endsWith('.warc.gz')));
      const waczFiles = JSON.parse(waczExport.files) as Listed[];
      assert.deepEqual(readdirSync(join(dataDir, 'exports', String(waczExport.id))), [waczFiles[0]!.name], 'a WACZ export keeps only its package');
      const before = await downloadAll(warcExport.id, warcFiles);
      const waczBefore = await downloadAll(waczExport.id, waczFiles);

      // An export made before exports took snapshots: it lists the crawl's own files.
      const referring = Number(db.prepare("INSERT INTO Export (crawlId, status, progress, files, createdAt, finishedAt) VALUES (?, 'done', 1, ?, ?, ?)").run(crawlId, warcExport.files, now, now).lastInsertRowid);
      assert.equal((await get(referring, 'index.cdxj')).status, 200, 'the crawl\'s index is still as that export listed it');

      // Resumed in the same moment as a third export is requested: the export takes the paused
      // crawl, then the crawl resumes, and it runs to its end.
      const third = db.transaction(() => {
        db.prepare("UPDATE Crawl SET desired = 'run' WHERE id = ?").run(crawlId);
        return requestExport();
      })();
      await until('the end of the crawl', () => crawlStatus() === 'finished');
      assert.equal(captures(), PAGES + 1, 'the resumed crawl captured the rest');
      const liveIndex = readFileSync(join(crawlWarcDir(dataDir, crawlId), 'index.cdxj'));
      assert.notEqual(sha256(liveIndex), warcFiles.find((f) => f.name === 'index.cdxj')!.sha256, 'the crawl\'s own index has changed since');

      // The first exports are downloaded again: the same bytes, as their sha256 says.
      const again = await downloadAll(warcExport.id, warcFiles);
      for (const [name, bytes] of before) assert.ok(again.get(name)!.equals(bytes), `${name} unchanged`);
      assert.ok((await downloadAll(waczExport.id, waczFiles)).get(waczFiles[0]!.name)!.equals(waczBefore.get(waczFiles[0]!.name)!));

      const thirdRow = exportRow(third);
      assert.equal(thirdRow.status, 'done', `the export requested with the resume: ${thirdRow.error}`);
      assert.deepEqual(JSON.parse(thirdRow.files), warcFiles, 'it took the crawl as it was paused');
      const resumedAt = (db.prepare("SELECT startedAt FROM CrawlRun WHERE crawlId = ? AND reason = 'resume'").get(crawlId) as { startedAt: string }).startedAt;
      assert.ok(Date.parse(resumedAt) >= Date.parse(thirdRow.finishedAt!), 'the crawl resumed after the export ended');

      // The old-style export's index has changed under it: refused, saying so, not served.
      const stale = await get(referring, 'index.cdxj');
      assert.equal(stale.status, 410);
      assert.match(((await stale.json()) as { error: string }).error, /index\.cdxj has changed since export \d+ was made/);
      const warc = warcFiles.find((f) => f.name.endsWith('.warc.gz'))!;
      assert.equal(sha256(Buffer.from(await (await get(referring, warc.name)).arrayBuffer())), warc.sha256, 'a closed WARC file never changes');
    } finally {
      await manager.shutdown();
      await new Promise<void>((r) => downloads.close(() => r()));
      db.close();
    }
  });
});
