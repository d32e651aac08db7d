import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { cdxjLine, verifyCdxj, type CdxjEntry } from '../../../worker/warc';
import { withTempDir } from '../../support/temp-dir';

/** One gzipped record of `type` for `url` (the index check reads only its header and length). */
function member(type: string, url: string): Buffer {
  const block = Buffer.from(`HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n<p>${url}</p>`);
  const head = ['WARC/1.1', `WARC-Type: ${type}`, `WARC-Record-ID: <urn:uuid:${randomUUID()}>`, 'WARC-Date: 2026-11-25T00:00:00Z',
    `WARC-Target-URI: ${url}`, 'Content-Type: application/http; msgtype=response', `Content-Length: ${block.length}`].join('\r\n');
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
      'line 191: not sorted',
      'line 191: not CDXJ',
      'line 196: offset/length past the end of a.warc.gz',
    ]);
    // The whole index without the faults passes.
    writeFileSync(join(dir, 'index.cdxj'), entries.map(cdxjLine).sort().join(''));
    assert.deepEqual((await verifyCdxj(join(dir, 'index.cdxj'), dir)).errors, []);
  });
});
