/**
 * The export download path, as server.ts serves it (on an HTTP server on 127.0.0.1) and as the
 * route handler serves it when Next does, over a real migrated SQLite database: both answer the
 * same paths, and `01` or a malformed escape is a 404 from both; each kind of file comes with a
 * registered Content-Type and no Content-Encoding.
 */
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createHash } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { routeDatabase, signedInAs } from '../../support/route-database';
import { serveExportDownload } from '../../../app/lib/server/export-download';
import { exportDir } from '../../../worker/store/data-layout';

const NAME = 'tidemark-1-1.warc.gz';
/** Files of each kind an export lists, with the Content-Type each is downloaded with. */
const KINDS: Record<string, { bytes: Buffer; type: string }> = {
  'tidemark-1-00000.warc.gz': { bytes: gzipSync('WARC/1.1\r\nWARC-Type: warcinfo\r\n\r\n'), type: 'application/warc' },
  'collection-1-1-00000.warc': { bytes: Buffer.from('WARC/1.1\r\nWARC-Type: warcinfo\r\n\r\n'), type: 'application/warc' },
  'index.cdxj': { bytes: Buffer.from('org,example)/ 20261129000000 {"url":"http://example.org/"}\n'), type: 'text/plain; charset=utf-8' },
  'tidemark-1-1.wacz': { bytes: Buffer.from('PK\x03\x04 not really a zip'), type: 'application/zip' },
  'coherence-certificate.json': { bytes: Buffer.from('{}\n'), type: 'application/json' },
};
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
  const stored = { [NAME]: Buffer.from('not really a WARC'), ...Object.fromEntries(Object.entries(KINDS).map(([name, k]) => [name, k.bytes])) };
  const files = Object.entries(stored).map(([name, bytes]) => ({ name, bytes: bytes.length, sha256: createHash('sha256').update(bytes).digest('hex') }));
  exportId = Number(db.prepare("INSERT INTO Export (crawlId, status, files, createdAt) VALUES (?, 'done', ?, datetime('now'))").run(crawlId, JSON.stringify(files)).lastInsertRowid);
  mkdirSync(exportDir(env.dataDir, exportId), { recursive: true });
  for (const [name, bytes] of Object.entries(stored)) writeFileSync(join(exportDir(env.dataDir, exportId), name), bytes);
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

// A .warc.gz went out as the unregistered `application/warc+gzip` and a WACZ as `application/wacz+zip`.
test('each kind of export file comes with a registered Content-Type, no Content-Encoding and its bytes as stored, from both', async () => {
  const { GET } = await import('../../../app/api/exports/[id]/files/[name]/route');
  for (const [name, k] of Object.entries(KINDS)) {
    const path = `/api/exports/${exportId}/files/${name}`;
    const served = await fetch(`${base}${path}`, { headers: { cookie, 'accept-encoding': 'gzip' } });
    const routed = await GET(new Request(`http://cockpit.test${path}`, { headers: { host: 'cockpit.test', cookie, 'accept-encoding': 'gzip' } }), { params: Promise.resolve({ id: String(exportId), name }) });
    for (const [how, res] of [['server.ts', served], ['route handler', routed]] as const) {
      assert.equal(res.status, 200, `${how} ${name}`);
      assert.equal(res.headers.get('content-type'), k.type, `${how} ${name}`);
      assert.equal(res.headers.get('content-encoding'), null, `${how} ${name}: no Content-Encoding`);
      assert.equal(res.headers.get('content-disposition'), `attachment; filename="${name}"`, `${how} ${name}`);
      assert.ok(Buffer.from(await res.arrayBuffer()).equals(k.bytes), `${how} ${name}: the bytes as stored`);
    }
  }
});
