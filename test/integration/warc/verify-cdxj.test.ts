import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cdxjLine, verifyCdxj, type CdxjEntry } from '../../../worker/warc';
import { withTempDir } from '../../support/temp-dir';

/** One gzipped record of `type` for `url` (the index check reads only its header and length). */
function member(type: string, url: string, contentTypes = ['text/html']): Buffer {
  const block = Buffer.from(`HTTP/1.1 200 OK\r\n${contentTypes.map((t) => `Content-Type: ${t}\r\n`).join('')}\r\n<p>${url}</p>`);
  const head = ['WARC/1.1', `WARC-Type: ${type}`, `WARC-Record-ID: <urn:uuid:${randomUUID()}>`, 'WARC-Date: 2026-11-25T00:00:00Z',
    `WARC-Target-URI: ${url}`, 'WARC-Payload-Digest: sha1:X', 'Content-Type: application/http; msgtype=response', `Content-Length: ${block.length}`].join('\r\n');
  return gzipSync(Buffer.concat([Buffer.from(`${head}\r\n\r\n`), block, Buffer.from('\r\n\r\n')]));
}

// Index lines are checked in batches read at once: each problem must still name its own line, in order.
test('every index line is followed to its record, and each problem names its line', async () => {
  await withTempDir('tm-verify-cdxj-', async (dir) => {
    const entries: CdxjEntry[] = [];
    const members: Buffer[] = [];
    let offset = 0;
    const add = (type: string, url: string) => {
      const m = member(type, url);
      const entry = { url, date: '2026-11-25T00:00:00Z', mime: type === 'revisit' ? 'warc/revisit' : 'text/html', status: 200, digest: 'sha1:X', length: m.length, offset, filename: 'a.warc.gz' };
      members.push(m);
      offset += m.length;
      return entry;
    };
    for (let i = 0; i < 200; i++) entries.push(add(i === 150 ? 'revisit' : 'response', `http://example.org/p${String(i).padStart(3, '0')}`));
    const request = add('request', 'http://example.org/q');
    writeFileSync(join(dir, 'a.warc.gz'), Buffer.concat(members));
    const lines = entries.map(cdxjLine).sort();
    // Faults placed in the first batch, across the batch boundary and far after it (line numbers from 1).
    lines[5] = cdxjLine({ ...entries[5]!, url: 'http://example.org/elsewhere' }).replace(/^\S+/, lines[5]!.split(' ')[0]!);
    lines[63] = cdxjLine({ ...entries[63]!, offset: entries[63]!.offset + 1 });
    lines[64] = cdxjLine({ ...request, url: 'http://example.org/p064' }).replace(/^\S+/, lines[64]!.split(' ')[0]!);
    lines[100] = cdxjLine({ ...entries[100]!, mime: 'warc/revisit' });
    lines[150] = cdxjLine({ ...entries[150]!, mime: 'text/html' });
    lines[170] = cdxjLine({ ...entries[170]!, offset: offset + 10 });
    lines[180] = cdxjLine({ ...entries[180]!, filename: 'missing.warc.gz' });
    lines[190] = 'not a cdxj line\n';
    // A length of a terabyte: reported, never allocated.
    lines[195] = cdxjLine({ ...entries[195]!, length: 2 ** 40 });
    writeFileSync(join(dir, 'index.cdxj'), lines.join(''));

    const v = await verifyCdxj(join(dir, 'index.cdxj'), dir);
    assert.equal(v.lines, 200);
    assert.deepEqual(v.errors, [
      'line 6: record is for another URL',
      'line 64: offset/length is not a whole gzip member (incorrect header check)',
      'line 65: record is request',
      'line 101: mime/type mismatch',
      'line 151: mime/type mismatch',
      'line 171: offset/length past the end of a.warc.gz',
      'line 181: no file missing.warc.gz',
      'line 191: not sorted: in byte order it comes before the line above it',
      'line 191: not CDXJ',
      'line 196: offset/length past the end of a.warc.gz',
    ]);
    // The whole index without the faults passes.
    writeFileSync(join(dir, 'index.cdxj'), entries.map(cdxjLine).sort().join(''));
    assert.deepEqual((await verifyCdxj(join(dir, 'index.cdxj'), dir)).errors, []);
  });
});

// What a line says of its record is checked too, each fault named with what the record says instead.
test('a line whose key, timestamp, status, digest or mime differs from its record fails, saying what differs', async () => {
  await withTempDir('tm-verify-cdxj-facts-', async (dir) => {
    const url = 'http://example.org/dup';
    const m = member('response', url);
    writeFileSync(join(dir, 'a.warc.gz'), m);
    const entry: CdxjEntry = { url, date: '2026-11-25T00:00:00Z', mime: 'text/html', status: 200, digest: 'sha1:X', length: m.length, offset: 0, filename: 'a.warc.gz' };
    const good = cdxjLine(entry);
    const check = async (line: string) => {
      writeFileSync(join(dir, 'index.cdxj'), line);
      return (await verifyCdxj(join(dir, 'index.cdxj'), dir)).errors;
    };
    assert.deepEqual(await check(good), []);
    assert.deepEqual(await check(good.replace('org,example)/dup ', 'org,example)/dupx ')), ["line 1: key org,example)/dupx is not the SURT of its record's WARC-Target-URI, org,example)/dup"]);
    assert.deepEqual(await check(good.replace(' 20261125000000 ', ' 19991125000000 ')), ["line 1: timestamp 19991125000000 is not its record's WARC-Date, 2026-11-25T00:00:00Z (20261125000000)"]);
    assert.deepEqual(await check(cdxjLine({ ...entry, status: 404 })), ["line 1: status 404 is not its record's, 200"]);
    assert.deepEqual(await check(cdxjLine({ ...entry, digest: 'AAAA' })), ["line 1: digest AAAA is not its record's WARC-Payload-Digest, sha1:X"]);
    assert.deepEqual(await check(cdxjLine({ ...entry, mime: 'image/gif' })), ["line 1: mime image/gif is not its record's first Content-Type, text/html"]);
  });
});

test("an index written before the mime was the first Content-Type's, with both lines joined, still passes: its crawls stay exportable", async () => {
  await withTempDir('tm-verify-cdxj-legacy-mime-', async (dir) => {
    const url = 'http://example.org/two-types';
    const m = member('response', url, ['text/html; charset=utf-8', 'text/plain']);
    writeFileSync(join(dir, 'a.warc.gz'), m);
    const entry: CdxjEntry = { url, date: '2026-11-25T00:00:00Z', mime: 'text/html', status: 200, digest: 'sha1:X', length: m.length, offset: 0, filename: 'a.warc.gz' };
    const check = async (mime: string) => {
      writeFileSync(join(dir, 'index.cdxj'), cdxjLine({ ...entry, mime }));
      return (await verifyCdxj(join(dir, 'index.cdxj'), dir)).errors;
    };
    assert.deepEqual(await check('text/html'), []);
    // Earlier versions wrote the joined header up to its first ';' (the crash rebuild lower-cased it).
    const two = member('response', url, ['text/html', 'Text/Plain']);
    writeFileSync(join(dir, 'a.warc.gz'), two);
    entry.length = two.length;
    assert.deepEqual(await check('text/html, Text/Plain'), []);
    assert.deepEqual(await check('text/html, text/plain'), []);
    assert.deepEqual(await check('text/plain'), ["line 1: mime text/plain is not its record's first Content-Type, text/html"]);
  });
});

test('lines must be in the byte order of their UTF-8, not in the order of UTF-16 code units', async () => {
  await withTempDir('tm-verify-cdxj-order-', async (dir) => {
    const url = 'http://example.org/a';
    const m = member('response', url);
    // Two copies of one file: their lines differ only in the file's name, U+FF5E (EF BD 9E) against U+1F600 (F0 9F 98 80).
    const names = ['x-\uFF5E.warc.gz', 'x-\u{1F600}.warc.gz'];
    for (const name of names) writeFileSync(join(dir, name), m);
    const lines = names.map((filename) => cdxjLine({ url, date: '2026-11-25T00:00:00Z', mime: 'text/html', status: 200, digest: 'sha1:X', length: m.length, offset: 0, filename }));
    writeFileSync(join(dir, 'index.cdxj'), lines.join(''));
    assert.deepEqual((await verifyCdxj(join(dir, 'index.cdxj'), dir)).errors, []);
    // JavaScript's own sort puts them the other way round.
    assert.deepEqual([...lines].sort(), [...lines].reverse());
    writeFileSync(join(dir, 'index.cdxj'), [...lines].sort().join(''));
    assert.deepEqual((await verifyCdxj(join(dir, 'index.cdxj'), dir)).errors, ['line 2: not sorted: in byte order it comes before the line above it']);
  });
});
