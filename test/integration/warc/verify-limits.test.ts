import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { verifyWarcFile } from '../../../worker/warc';
import { sha1Digest } from '../../../worker/warc/warc-digest';

/** A WARC/1.1 resource record whose target URI is bracketed, as only WARC/1.0 allowed: one problem each. */
function bracketedRecord(i: number): Buffer {
  const block = Buffer.from(`record ${i}`);
  const head = [
    'WARC/1.1', 'WARC-Type: resource', `WARC-Record-ID: <urn:uuid:${randomUUID()}>`, 'WARC-Date: 2026-11-25T00:00:00Z',
    `WARC-Target-URI: <http://example.org/${i}>`, 'Content-Type: text/plain', `WARC-Block-Digest: ${sha1Digest(block)}`, `Content-Length: ${block.length}`,
  ].join('\r\n');
  return gzipSync(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), block, Buffer.from('\r\n\r\n')]));
}

test('a file broken in every record lists its first thousand problems and counts the rest', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-verify-limits-'));
  try {
    const path = join(dir, 'broken.warc.gz');
    writeFileSync(path, Buffer.concat(Array.from({ length: 1500 }, (_, i) => bracketedRecord(i))));
    const v = await verifyWarcFile(path);
    assert.equal(v.records, 1500, 'every record was still read');
    assert.equal(v.errors.length, 1001);
    assert.match(v.errors[0]!, /^member at 0: WARC-Target-URI not bare: <http:\/\/example\.org\/0>$/);
    // 1,500 bracketed URIs, the first record's missing WARC-Filename, and no warcinfo first.
    assert.equal(v.errors.at(-1), '… and 502 more not listed');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('a long check reports its progress: the member scan to one half, the records to the whole', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-verify-progress-'));
  try {
    const path = join(dir, 'broken.warc.gz');
    writeFileSync(path, Buffer.concat(Array.from({ length: 200 }, (_, i) => bracketedRecord(i))));
    const seen: number[] = [];
    await verifyWarcFile(path, undefined, (f) => seen.push(f));
    assert.ok(seen.length >= 400, `one report per member and per record, got ${seen.length}`);
    assert.ok(seen.every((f, i) => f >= (seen[i - 1] ?? 0) && f <= 1), 'never backwards, never past the end');
    assert.equal(seen.filter((f) => f <= 0.5).length >= 200, true, 'the scan fills the first half');
    assert.equal(seen.at(-1), 1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
