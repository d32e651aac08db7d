/**
 * A download given up half-way (a browser tab closed, a script killed, a network gone) must not
 * leave the export's file open in the server. Real parts: the migrated SQLite database, a session,
 * the server's own download handler on an HTTP server on 127.0.0.1, and fetch.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, readdirSync, readlinkSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSqlite, sqlDate } from '../../../worker/store/sqlite';
import { applyMigrations } from '../../../worker/store/migrator';
import { exportDir } from '../../../worker/store/data-layout';
import { hashPassword } from '../../../worker/auth/password';
import { SESSION_COOKIE, SessionStore } from '../../../worker/auth/sessions';
import { serveExportDownload } from '../../../app/lib/server/export-download';
import { withTempDir } from '../../support/temp-dir';

/** This process's descriptors open on `path` (the handler runs in the test's process). */
const openOn = (path: string) =>
  readdirSync('/proc/self/fd').filter((fd) => {
    try {
      return readlinkSync(`/proc/self/fd/${fd}`).startsWith(path);
    } catch {
      return false;
    }
  }).length;

test('downloads given up after their first bytes leave no descriptor open on the export file', { timeout: 60_000 }, async () => {
  await withTempDir('tm-download-abort-', async (dataDir) => {
    const db = openSqlite(join(dataDir, 'tidemark.db'));
    applyMigrations(db, resolve('prisma/migrations'));
    const now = sqlDate(new Date());
    db.prepare("INSERT INTO User (username, passwordHash, role, createdAt) VALUES ('mara', ?, 'manager', ?)").run(await hashPassword('harbour-pass'), now);
    const login = await new SessionStore(db, 1).login('mara', 'harbour-pass');
    assert.ok(login);
    const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('x', '{}', ?, ?)").run(now, now).lastInsertRowid;
    const crawlId = db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', 'x', 'finished', 'stop', ?)").run(icdId, now).lastInsertRowid;
    // Larger than what the sockets' buffers take at once, so the server is still reading the file when the client goes.
    const bytes = randomBytes(8 * 1024 * 1024);
    const files = [{ name: 'tidemark-1-1.wacz', bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }];
    const exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, files, format, createdAt) VALUES (?, 'done', ?, 'wacz', ?)").run(crawlId, JSON.stringify(files), now).lastInsertRowid);
    const dir = exportDir(dataDir, exportId);
    mkdirSync(dir, { recursive: true });
    const path = join(dir, files[0]!.name);
    writeFileSync(path, bytes);

    const server = createServer((req, res) => {
      if (!serveExportDownload(req, res, { db, sessions: new SessionStore(db, 1), dataDir })) res.writeHead(404).end();
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/exports/${exportId}/files/${files[0]!.name}`;
    try {
      const ABORTED = 10;
      for (let i = 0; i < ABORTED; i++) {
        const controller = new AbortController();
        const res: Response = await fetch(url, { headers: { cookie: `${SESSION_COOKIE}=${login.token}` }, signal: controller.signal });
        assert.equal(res.status, 200);
        const reader = res.body!.getReader();
        assert.ok((await reader.read()).value?.length, 'the first bytes arrived');
        controller.abort();
        await reader.cancel().catch(() => undefined);
      }
      // The server sees each connection close within moments.
      for (const end = Date.now() + 5_000; openOn(path) > 0 && Date.now() < end; ) await sleep(50);
      assert.equal(openOn(path), 0, `descriptors still open on the export file after ${ABORTED} abandoned downloads`);

      // A whole download still arrives byte for byte.
      const whole = Buffer.from(await (await fetch(url, { headers: { cookie: `${SESSION_COOKIE}=${login.token}` } })).arrayBuffer());
      assert.ok(whole.equals(bytes));
      assert.equal(openOn(path), 0);
    } finally {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      db.close();
    }
  });
});
