/**
 * A crawl's spool folder holds bodies too large for memory only while their records are written.
 * It used to stay behind after every run, one per crawl for good (bench/soak.ts: 2 a round), with
 * whatever a killed worker had been spooling. Real parts: a migrated SQLite database, the engine,
 * a loopback site with a page over the 1 MB that stays in memory.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { join, resolve } from 'node:path';
import { CrawlEngine } from '../../../worker/crawler/crawl-engine';
import { icdSchema } from '../../../worker/icd/schema';
import { openSqlite } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { withTempDir } from '../../support/temp-dir';

test('a run empties its spool folder as it starts (a killed worker leaves files there) and removes it when it ends', { timeout: 60_000 }, async () => {
  const big = randomBytes(1_500_000).toString('base64');
  const server = createServer((req, res) => {
    if (req.url === '/') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<a href="/big">big</a> <a href="/small">small</a>');
    if (req.url === '/big') return void res.writeHead(200, { 'content-type': 'text/html' }).end(`<p>${big}</p>`);
    if (req.url === '/small') return void res.writeHead(200, { 'content-type': 'text/html' }).end('<p>small</p>');
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  try {
    await withTempDir('tm-spool-', async (dir) => {
      const db = openSqlite(join(dir, 'state.db'));
      applyMigrations(db, resolve('prisma/migrations'));
      const icd = icdSchema.parse({ name: 'Spool', seeds: [`${origin}/`], politeness: { enabled: false }, aah: { enabled: false } });
      const now = new Date().toISOString();
      const icdId = db.prepare('INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES (?, ?, ?, ?)').run(icd.name, JSON.stringify(icd), now, now).lastInsertRowid;
      const crawlId = Number(db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, ?, ?, 'created', 'run', ?)").run(icdId, JSON.stringify(icd), icd.name, now).lastInsertRowid);
      const spoolDir = join(dir, 'spool', String(crawlId));
      // What a worker killed while spooling a body leaves.
      mkdirSync(spoolDir, { recursive: true });
      writeFileSync(join(spoolDir, 'body-left-by-a-killed-worker.bin'), randomBytes(64 * 1024));

      const engine = new CrawlEngine({ crawlId, icd, db, warcDir: join(dir, 'warcs', String(crawlId)), spoolDir });
      assert.equal(await engine.run(), 'finished');
      const size = db.prepare('SELECT size FROM Capture WHERE crawlId = ? AND url = ?').pluck().get(crawlId, `${origin}/big`) as number;
      assert.ok(size > 2_000_000, `the big page was captured whole through the spool (${size} bytes)`);
      assert.equal(existsSync(spoolDir), false, 'the spool folder is gone');
      db.close();
    });
  } finally {
    server.closeAllConnections();
    server.close();
  }
});
