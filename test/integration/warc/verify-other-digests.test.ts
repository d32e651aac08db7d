import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { WARCRecord, WARCSerializer } from 'warcio';
import { verifyWarcFile } from '../../../worker/warc';
import { withTempDir } from '../../support/temp-dir';

/** A response and its request as warcio.js writes them (digests sha256 in base16), after its warcinfo: each record its own gzip member. */
async function warcioFile(path: string, body: string): Promise<void> {
  const info = await WARCRecord.createWARCInfo({ filename: 'other.warc.gz', warcVersion: 'WARC/1.1' }, { software: 'warcio.js' });
  const response = await WARCRecord.create({
    url: 'http://a.example/', date: '2026-11-24T10:00:00Z', type: 'response', warcVersion: 'WARC/1.1',
    httpHeaders: { 'Content-Type': 'text/html' }, statusline: 'HTTP/1.1 200 OK',
  }, (async function* () { yield new TextEncoder().encode(body); })());
  const request = await WARCRecord.create({
    url: 'http://a.example/', date: '2026-11-24T10:00:00Z', type: 'request', warcVersion: 'WARC/1.1',
    httpHeaders: { Host: 'a.example' }, statusline: 'GET / HTTP/1.1',
    warcHeaders: { 'WARC-Concurrent-To': response.warcHeaders.headers.get('WARC-Record-ID')! },
  }, (async function* () {})());
  const members: Buffer[] = [];
  for (const r of [info, response, request]) members.push(Buffer.from(await WARCSerializer.serialize(r, { gzip: true })));
  writeFileSync(path, Buffer.concat(members));
}

test("another tool's WARC file with sha256 digests in base16 passes, and a changed byte in it is still found", () => withTempDir('tm-verify-sha256-', async (dir) => {
  const path = join(dir, 'other.warc.gz');
  await warcioFile(path, '<p>tide tables</p>');
  assert.match(gunzipSync(readFileSync(path)).toString('latin1'), /WARC-Payload-Digest: sha256:[0-9a-f]{64}\r\n/, 'written the way warcio.js does');
  const v = await verifyWarcFile(path);
  assert.deepEqual(v.errors, []);
  assert.equal(v.records, 3);
  // The same file with one byte of the page changed (re-gzipped, so only the digests can tell).
  const text = gunzipSync(readFileSync(path)).toString('latin1');
  const changed = text.replace('tide tables', 'tide tablez').split(/(?=WARC\/1\.1\r\n)/).map((r) => gzipSync(Buffer.from(r, 'latin1')));
  writeFileSync(path, Buffer.concat(changed));
  const bad = await verifyWarcFile(path);
  assert.ok(bad.errors.some((e) => /WARC-Block-Digest mismatch/.test(e)), bad.errors.join('\n'));
  assert.ok(bad.errors.some((e) => /WARC-Payload-Digest mismatch/.test(e)), bad.errors.join('\n'));
}));
