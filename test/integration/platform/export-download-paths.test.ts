/**
 * The export download path, as server.ts serves it (on an HTTP server on 127.0.0.1) and as the
 * route handler serves it when Next does, over a real migrated SQLite database: both answer the
 * same paths, and `01` or a malformed escape is a 404 from both.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { routeDatabase, signedInAs } from '../../support/route-database';
import { serveExportDownload } from '../../../app/lib/server/export-download';
import { exportDir } from '../../../worker/store/data-layout';

const NAME = 'tidemark-1-1.warc.gz';
let cookie = '';
let exportId = 0;
let server: Server;
let base = '';

before(async () => {
  const services = await routeDatabase('tidemark-download-paths-');
  const { db, env } = services;
  cookie = (await signedInAs(services, 'mara', 'manager')).cookie;
  const icdId = db.prepare("INSERT INTO Icd (name, definition, createdAt, updatedAt) VALUES ('Quay', '{}', datetime('now'), datetime('now'))").run().lastInsertRowid;
  const crawlId = db.prepare("INSERT INTO Crawl (icdId, definition, name, status, desired, createdAt) VALUES (?, '{}', 'Quay', 'finished', 'run', datetime('now'))").run(icdId).lastInsertRowid;
  const bytes = Buffer.from('not really a WARC');
  const files = [{ name: NAME, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }];
  exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, files, createdAt) VALUES (?, 'done', ?, datetime('now'))").run(crawlId, JSON.stringify(files)).lastInsertRowid);
  mkdirSync(exportDir(env.dataDir, exportId), { recursive: true });
  writeFileSync(join(exportDir(env.dataDir, exportId), NAME), bytes);
  server = createServer((req, res) => {
    if (!serveExportDownload(req, res, { db, sessions: services.sessions, dataDir: env.dataDir })) res.writeHead(599).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
after(() => server.close());

/** The status server.ts's handler and the route handler give for `/api/exports/<id>/files/<name>`. */
async function statuses(id: string, name: string): Promise<[number, number]> {
  const path = `/api/exports/${id}/files/${name}`;
  const served = await fetch(`${base}${path}`, { headers: { cookie } });
  await served.arrayBuffer();
  const { GET } = await import('../../../app/api/exports/[id]/files/[name]/route');
  const routed = await GET(new Request(`http://cockpit.test${path}`, { headers: { host: 'cockpit.test', cookie } }), { params: Promise.resolve({ id, name }) });
  return [served.status, routed.status];
}

test('the file of export 1 is served at /1/ by both, and /01/ is a 404 from both, as docs/api.md says', async () => {
  assert.equal(exportId, 1);
  assert.deepEqual(await statuses('1', NAME), [200, 200]);
  for (const id of ['01', '001']) assert.deepEqual(await statuses(id, NAME), [404, 404], id);
});

test('a file name with a malformed % escape is a 404 from both, not a 500', async () => {
  for (const name of ['%E0%A4%A', 'x%', '%zz.warc.gz']) assert.deepEqual(await statuses('1', name), [404, 404], name);
  assert.deepEqual(await statuses('1', encodeURIComponent(NAME)), [200, 200], 'an escaped listed name is the name');
});
