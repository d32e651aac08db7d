import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { listVerified } from '../../../worker/export/export-job';
import { verifyWarcFile } from '../../../worker/warc';
import { sha1Digest } from '../../../worker/warc/warc-digest';
import { withTempDir } from '../../support/temp-dir';

/** One WARC/1.1 record, uncompressed. */
function rawRecord(fields: string[], block: Buffer): Buffer {
  const head = ['WARC/1.1', `WARC-Record-ID: <urn:uuid:${randomUUID()}>`, 'WARC-Date: 2026-11-25T00:00:00Z', ...fields,
    `WARC-Block-Digest: ${sha1Digest(block)}`, `Content-Length: ${block.length}`].join('\r\n');
  return Buffer.concat([Buffer.from(`${head}\r\n\r\n`), block, Buffer.from('\r\n\r\n')]);
}

/** One gzipped WARC/1.1 record. */
const record = (fields: string[], block: Buffer): Buffer => gzipSync(rawRecord(fields, block));

/** A resource record whose target URI is bracketed, as only WARC/1.0 allowed: one problem each. */
const bracketedRecord = (i: number) => record(['WARC-Type: resource', `WARC-Target-URI: <http://example.org/${i}>`, 'Content-Type: text/plain'], Buffer.from(`record ${i}`));

/** A valid file of `n` resource records after its warcinfo. */
function validWarc(name: string, n: number): Buffer {
  const info = record(['WARC-Type: warcinfo', `WARC-Filename: ${name}`, 'Content-Type: application/warc-fields'], Buffer.from('software: test\r\n'));
  const resources = Array.from({ length: n }, (_, i) => record(['WARC-Type: resource', `WARC-Target-URI: http://example.org/${i}`, 'Content-Type: text/plain'], Buffer.from(`record ${i}`)));
  return Buffer.concat([info, ...resources]);
}

test('a file broken in every record lists its first thousand problems and counts the rest', async () => {
  await withTempDir('tm-verify-limits-', async (dir) => {
    const path = join(dir, 'broken.warc.gz');
    writeFileSync(path, Buffer.concat(Array.from({ length: 1500 }, (_, i) => bracketedRecord(i))));
    const v = await verifyWarcFile(path);
    assert.equal(v.records, 1500, 'every record was still read');
    assert.equal(v.errors.length, 1001);
    assert.match(v.errors[0]!, /^member at 0: WARC-Target-URI not bare: <http:\/\/example\.org\/0>$/);
    // 1,500 bracketed URIs, the first record's missing WARC-Filename, and no warcinfo first.
    assert.equal(v.errors.at(-1), '… and 502 more not listed');
  });
});

test('a long check reports its progress: the member scan to one half, the records to the whole', async () => {
  await withTempDir('tm-verify-progress-', async (dir) => {
    const path = join(dir, 'broken.warc.gz');
    writeFileSync(path, Buffer.concat(Array.from({ length: 200 }, (_, i) => bracketedRecord(i))));
    const seen: number[] = [];
    await verifyWarcFile(path, undefined, (f) => seen.push(f));
    assert.ok(seen.length >= 400, `one report per member and per record, got ${seen.length}`);
    assert.ok(seen.every((f, i) => f >= (seen[i - 1] ?? 0) && f <= 1), 'never backwards, never past the end');
    assert.equal(seen.filter((f) => f <= 0.5).length >= 200, true, 'the scan fills the first half');
    assert.equal(seen.at(-1), 1);
  });
});

test("an export's verification reports its progress within a file too, once a percent at most", async () => {
  await withTempDir('tm-export-progress-', async (dir) => {
    writeFileSync(join(dir, 'a.warc.gz'), validWarc('a.warc.gz', 2000));
    writeFileSync(join(dir, 'b.warc.gz'), validWarc('b.warc.gz', 10));
    const seen: number[] = [];
    const files = await listVerified(dir, ['a.warc.gz', 'b.warc.gz'], (f) => seen.push(f));
    assert.deepEqual(files.map((f) => f.name), ['a.warc.gz', 'b.warc.gz']);
    assert.ok(seen.filter((f) => f < 0.9).length >= 20, `progress while the large file is read: ${seen.length} reports`);
    assert.ok(seen.length <= 103, 'not one report per record');
    assert.ok(seen.every((f, i) => f >= (seen[i - 1] ?? 0)), 'never backwards');
    assert.equal(seen.at(-1), 1);
  });
});

// warcio reads the whole gzip members the scan found; the scan says where and why it stopped.
test('a damaged file: its whole records are all read, and each fault is reported once', async () => {
  await withTempDir('tm-verify-damaged-', async (dir) => {
    const whole = validWarc('d.warc.gz', 300);
    const check = async (bytes: Buffer) => {
      const path = join(dir, 'd.warc.gz');
      writeFileSync(path, bytes);
      return verifyWarcFile(path);
    };
    const okFile = await check(whole);
    assert.deepEqual(okFile.errors, []);
    assert.equal(okFile.records, 301);

    const torn = await check(whole.subarray(0, whole.length - 10));
    assert.equal(torn.records, 300, 'every whole record before the torn one');
    assert.equal(torn.errors.length, 1, torn.errors.join('\n'));
    assert.match(torn.errors[0]!, /^gzip: (bad member|truncated gzip trailer) at \d+/);

    const garbage = await check(Buffer.concat([whole, Buffer.from('trailing bytes that are not gzip')]));
    assert.equal(garbage.records, 301);
    assert.deepEqual(garbage.errors, [`gzip: not a gzip member at ${whole.length}`]);

    // The warcinfo and the first resource in one member: the layout is wrong, the records still read.
    const info = rawRecord(['WARC-Type: warcinfo', 'WARC-Filename: d.warc.gz', 'Content-Type: application/warc-fields'], Buffer.from('software: test\r\n'));
    const first = rawRecord(['WARC-Type: resource', 'WARC-Target-URI: http://example.org/a', 'Content-Type: text/plain'], Buffer.from('a'));
    const second = record(['WARC-Type: resource', 'WARC-Target-URI: http://example.org/b', 'Content-Type: text/plain'], Buffer.from('b'));
    const joined = gzipSync(Buffer.concat([info, first]));
    const shared = await check(Buffer.concat([joined, second]));
    assert.equal(shared.records, 3);
    assert.deepEqual(shared.errors, [
      `member at 0: holds ${info.length + first.length} bytes, one record needs ${info.length}`,
      'record 0 at 0: member length differs from warcio\'s',
      `record 1 at decompressed offset ${info.length}: not at a gzip member boundary`,
    ]);
  });
});

test('a member that holds no WARC header ends what warcio reads (it would look for a header line in all of it)', async () => {
  await withTempDir('tm-verify-headerless-', async (dir) => {
    const before = validWarc('h.warc.gz', 3);
    const zeros = gzipSync(Buffer.alloc(32 * 1024 * 1024));
    const after = validWarc('h.warc.gz', 2);
    const path = join(dir, 'h.warc.gz');
    writeFileSync(path, Buffer.concat([before, zeros, after]));
    const v = await verifyWarcFile(path);
    assert.equal(v.records, 4, 'the warcinfo and the three resources before it');
    assert.deepEqual(v.errors, [`member at ${before.length}: no WARC header`]);

    writeFileSync(path, zeros);
    assert.deepEqual((await verifyWarcFile(path)).errors, ['member at 0: no WARC header', 'no WARC records']);
  });
});
