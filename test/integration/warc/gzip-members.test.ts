import { test } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { gzipSync } from 'node:zlib';
import { scanGzipMembers, type GzipMember } from '../../../worker/warc/gzip-members';
import { withTempDir } from '../../support/temp-dir';

/** A gzip member with the FNAME flag set, as some tools write them: the header is longer than 10 bytes. */
function namedMember(data: Buffer, name: string): Buffer {
  const plain = gzipSync(data);
  const header = Buffer.from(plain.subarray(0, 10));
  header[3] = header[3]! | 8;
  return Buffer.concat([header, Buffer.from(`${name}\0`, 'latin1'), plain.subarray(10)]);
}

async function scan(path: string, part?: { start: number; length: number }) {
  const found: GzipMember[] = [];
  const result = await scanGzipMembers(path, (m) => void found.push(m), 1024, part);
  return { ...result, found };
}

// Small members are inflated in one call from a read-ahead window; large ones (past 512 KB
// compressed, or 16 MB inflated) stream. Both must give the same layout, and the same faults.
test('the member scan reports each member of small, large, incompressible and highly compressible records', { timeout: 60_000 }, async () => {
  await withTempDir('tm-gzip-members-', async (dir) => {
    const datas = [
      Buffer.from('WARC/1.1\r\nsmall\r\n\r\n'),
      randomBytes(700 * 1024), // compresses to more than 512 KB: streams
      Buffer.alloc(20 * 1024 * 1024, 'a'), // ~20 KB compressed that inflates past 16 MB: streams
      Buffer.from('x'.repeat(50_000) + 'END!'),
      Buffer.alloc(0), // an empty member
    ];
    const encoded = [gzipSync(datas[0]!), gzipSync(datas[1]!), gzipSync(datas[2]!), namedMember(datas[3]!, 'record.warc'), gzipSync(datas[4]!)];
    // Many small members after them, so that the scan crosses its read window several times.
    for (let i = 0; i < 3000; i++) {
      datas.push(Buffer.from(`record ${i} `.repeat(100 + (i % 50))));
      encoded.push(gzipSync(datas.at(-1)!));
    }
    const file = Buffer.concat(encoded);
    const path = join(dir, 'a.warc.gz');
    writeFileSync(path, file);

    const whole = await scan(path);
    assert.equal(whole.problem, null);
    assert.equal(whole.members, datas.length);
    assert.equal(whole.validEnd, file.length);
    let offset = 0;
    whole.found.forEach((m, i) => {
      assert.equal(m.offset, offset, `member ${i} offset`);
      assert.equal(m.length, encoded[i]!.length, `member ${i} length`);
      assert.equal(m.rawLength, datas[i]!.length, `member ${i} inflated length`);
      assert.deepEqual(m.head, datas[i]!.subarray(0, 1024), `member ${i} head`);
      assert.deepEqual(m.tail, datas[i]!.subarray(Math.max(0, datas[i]!.length - 4)), `member ${i} tail`);
      offset += m.length;
    });

    // Within a larger file (a WARC file stored in a WACZ package): offsets count from the part's start.
    const container = join(dir, 'container.bin');
    writeFileSync(container, Buffer.concat([Buffer.from('prefix bytes'), file, Buffer.from('suffix')]));
    const inPart = await scan(container, { start: 12, length: file.length });
    assert.equal(inPart.problem, null);
    assert.deepEqual(inPart.found.map((m) => [m.offset, m.length]), whole.found.map((m) => [m.offset, m.length]));

    // Faults: each stops the scan at the end of the last whole member, and says where.
    const ends = whole.found.map((m) => m.offset + m.length);
    const faulty = async (bytes: Buffer) => {
      const p = join(dir, 'faulty.warc.gz');
      writeFileSync(p, bytes);
      return scan(p);
    };
    const cutInSmall = await faulty(file.subarray(0, ends[10]! + 20));
    assert.equal(cutInSmall.validEnd, ends[10]);
    assert.match(cutInSmall.problem ?? '', new RegExp(`at ${ends[10]}`));
    const cutInLarge = await faulty(file.subarray(0, ends[0]! + 300 * 1024));
    assert.equal(cutInLarge.validEnd, ends[0]);
    assert.match(cutInLarge.problem ?? '', /^bad member at \d+: /);
    const cutInTrailer = await faulty(file.subarray(0, ends[5]! - 3));
    assert.equal(cutInTrailer.validEnd, ends[4]);
    assert.equal(cutInTrailer.problem, `truncated gzip trailer at ${ends[4]}`);
    const garbage = await faulty(Buffer.concat([file.subarray(0, ends[7]!), Buffer.from('not gzip at all')]));
    assert.equal(garbage.validEnd, ends[7]);
    assert.equal(garbage.problem, `not a gzip member at ${ends[7]}`);
    const wrongSize = Buffer.from(file.subarray(0, ends[8]!));
    wrongSize.writeUInt32LE(12345, ends[8]! - 4);
    const mismatch = await faulty(wrongSize);
    assert.equal(mismatch.validEnd, ends[7]);
    assert.equal(mismatch.problem, `gzip size mismatch at ${ends[7]}`);
    const corrupt = Buffer.from(file);
    corrupt.fill(0xff, ends[20]! + 12, ends[20]! + 40);
    const broken = await faulty(corrupt);
    assert.equal(broken.validEnd, ends[20]);
    assert.match(broken.problem ?? '', new RegExp(`^bad member at ${ends[20]}: `));
  });
});
