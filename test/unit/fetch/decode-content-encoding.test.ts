import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, deflateRawSync, deflateSync, gzipSync } from 'node:zlib';
import { bodyForParsing, decodeBody, decodeContentEncoding, decodeStreamCapped, DecompressionBombError, parseContentCodings } from '../../../worker/fetch';
import { gzipDamagedAfterFirstBlock } from '../../support/damaged-gzip';

const text = Buffer.from('<p>hello</p>'.repeat(200));

test('gzip, x-gzip, deflate (zlib and raw), br, chained codings and identity', async () => {
  assert.deepEqual(await decodeContentEncoding(gzipSync(text), 'gzip', 1e6), text);
  assert.deepEqual(await decodeContentEncoding({ kind: 'memory', bytes: gzipSync(text) }, 'X-GZIP', 1e6), text);
  assert.deepEqual(await decodeContentEncoding(deflateSync(text), 'deflate', 1e6), text);
  assert.deepEqual(await decodeContentEncoding(deflateRawSync(text), 'deflate', 1e6), text);
  assert.deepEqual(await decodeContentEncoding(brotliCompressSync(text), 'br', 1e6), text);
  assert.deepEqual(await decodeContentEncoding(brotliCompressSync(gzipSync(text)), 'gzip, br', 1e6), text);
  assert.deepEqual(await decodeContentEncoding(text, undefined, 1e6), text);
  assert.deepEqual(await decodeContentEncoding(text, 'identity', 1e6), text);
});

test('unknown codings return the bytes as they are', async () => {
  assert.equal(parseContentCodings('compress'), null);
  assert.deepEqual(await decodeContentEncoding(text, 'compress', 1e6), text);
});

test('a body cut short still yields what was decoded', async () => {
  const gz = gzipSync(text);
  const decoded = await decodeContentEncoding(gz.subarray(0, Math.floor(gz.length / 2)), 'gzip', 1e6);
  assert.ok(decoded.length > 0 && decoded.length < text.length);
  assert.deepEqual(decoded, text.subarray(0, decoded.length));
  assert.deepEqual(await decodeContentEncoding(Buffer.from('not gzip at all'), 'gzip', 1e6), Buffer.alloc(0));
});

test('past the cap: DecompressionBombError, or the first bytes with overflow "truncate"', async () => {
  const bomb = gzipSync(Buffer.alloc(4 * 1024 * 1024));
  await assert.rejects(decodeContentEncoding(bomb, 'gzip', 1024 * 1024), DecompressionBombError);
  const prefix = await decodeContentEncoding(bomb, 'gzip', 1000, 'truncate');
  assert.equal(prefix.length, 1000);
  await assert.rejects(decodeContentEncoding(Buffer.alloc(2000), undefined, 1000), DecompressionBombError, 'identity bodies obey the cap too');
  const identityPrefix = await decodeContentEncoding({ kind: 'memory', bytes: Buffer.from('abcdef') }, 'identity', 4, 'truncate');
  assert.equal(identityPrefix.toString(), 'abcd', 'identity bodies are truncated at the cap too');
  assert.equal((await decodeContentEncoding({ kind: 'memory', bytes: Buffer.from('abcd') }, undefined, 4)).toString(), 'abcd', 'exactly at the cap is not over it');
});

test('the bomb stops early: only a few input chunks are read, not the whole stream', async () => {
  const member = gzipSync(Buffer.alloc(16 * 1024 * 1024), { level: 9 }); // 16 MB of zeros in ~16 KB
  let pulled = 0;
  async function* lazyBomb() {
    for (let i = 0; i < 640; i++) {
      pulled++;
      yield member; // 640 members: 10 GB decoded if read to the end
    }
  }
  await assert.rejects(decodeStreamCapped(lazyBomb(), ['gzip'], 8 * 1024 * 1024), DecompressionBombError);
  assert.ok(pulled < 10, `pulled ${pulled} of 640 chunks`);
});

test('corrupt data ends decoding with what came before it, flagged damaged; a whole or merely cut stream is not', async () => {
  const data = Buffer.from(Array.from({ length: 4000 }, (_, i) => `line ${i} ${'y'.repeat(i % 23)}`).join('\n'));
  const damaged = gzipDamagedAfterFirstBlock(data);
  const decoded = await decodeBody(damaged.bytes, 'gzip', 1e7);
  assert.equal(decoded.damaged, true);
  // zlib gives what it inflated before the error, less the output of the call that failed.
  assert.ok(decoded.bytes.length > damaged.firstBlockBytes - 1024 && decoded.bytes.length <= damaged.firstBlockBytes, `${decoded.bytes.length} bytes`);
  assert.deepEqual(decoded.bytes, data.subarray(0, decoded.bytes.length));
  assert.equal((await decodeBody(gzipSync(data), 'gzip', 1e7)).damaged, false);
  // A stream cut off ends without an error: not told apart from a whole one (the transport flags such cuts).
  const gz = gzipSync(data);
  assert.equal((await decodeBody(gz.subarray(0, gz.length >> 1), 'gzip', 1e7)).damaged, false);
  assert.equal((await decodeBody(data, undefined, 1e7)).damaged, false);
});

test('bodyForParsing: the body is cut when the transport cut it or its coding broke off', async () => {
  const data = Buffer.from('x'.repeat(100_000));
  const exchange = (bytes: Buffer, truncated: 'length' | null) => ({ body: { kind: 'memory' as const, bytes }, headers: { 'content-encoding': 'gzip' }, truncated });
  assert.equal((await bodyForParsing(exchange(gzipSync(data), null), 1e7)).cut, false);
  assert.equal((await bodyForParsing(exchange(gzipSync(data), 'length'), 1e7)).cut, true);
  const broken = await bodyForParsing(exchange(gzipDamagedAfterFirstBlock(data).bytes, null), 1e7);
  assert.equal(broken.cut, true);
  assert.ok(broken.body.length > 0 && broken.body.length < data.length);
});
