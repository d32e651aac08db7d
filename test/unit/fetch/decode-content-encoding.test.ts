import { test } from 'node:test';
import assert from 'node:assert/strict';
import { brotliCompressSync, brotliDecompressSync, constants, crc32, deflateRawSync, deflateSync, gunzipSync, gzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bodyForParsing, decodeBody, decodeContentEncoding, decodeStreamCapped, DecompressionBombError, parseContentCodings, type DecodedBody } from '../../../worker/fetch';
import { gzipDamagedAfterFirstBlock } from '../../support/damaged-gzip';
import { withTempDir } from '../../support/temp-dir';

const text = Buffer.from('<p>hello</p>'.repeat(200));

test('gzip, x-gzip, deflate (zlib and raw), br, chained codings and identity', async () => {
  assert.deepEqual(await decodeContentEncoding(gzipSync(text), 'gzip', 1e6), text);
  assert.deepEqual(await decodeContentEncoding({ kind: 'memory', bytes: gzipSync(text) }, 'X-GZIP', 1e6), text);
  assert.deepEqual(await decodeContentEncoding(deflateSync(text), 'deflate', 1e6), text);
  assert.deepEqual(await decodeContentEncoding(deflateRawSync(text), 'deflate', 1e6), text);
  assert.deepEqual(await decodeContentEncoding(brotliCompressSync(text), 'br', 1e6), text);
  assert.deepEqual(await decodeContentEncoding(brotliCompressSync(gzipSync(text)), 'gzip, br', 1e6), text);
  // Each deflate layer tells zlib-wrapped from raw by its own first bytes, an inner one too.
  assert.deepEqual(await decodeContentEncoding(brotliCompressSync(deflateSync(text)), 'deflate, br', 1e6), text);
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

test('corrupt data ends decoding with what came before it, flagged damaged; a whole or merely cut-off stream is not damaged', async () => {
  const data = Buffer.from(Array.from({ length: 4000 }, (_, i) => `line ${i} ${'y'.repeat(i % 23)}`).join('\n'));
  const damaged = gzipDamagedAfterFirstBlock(data);
  const decoded = await decodeBody(damaged.bytes, 'gzip', 1e7);
  assert.equal(decoded.damaged, true);
  // zlib gives what it inflated before the error, less the output of the call that failed.
  assert.ok(decoded.bytes.length > damaged.firstBlockBytes - 1024 && decoded.bytes.length <= damaged.firstBlockBytes, `${decoded.bytes.length} bytes`);
  assert.deepEqual(decoded.bytes, data.subarray(0, decoded.bytes.length));
  assert.equal((await decodeBody(gzipSync(data), 'gzip', 1e7)).damaged, false);
  // A stream cut off has no corrupt byte: not damaged, but cut off (see below).
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

test('bodyForParsing says what went wrong with the coding: unknown, corrupt, ending early; nothing for a transport cut or a whole body', async () => {
  const data = Buffer.from('x'.repeat(100_000));
  const note = async (bytes: Buffer, coding: string | undefined, truncated: 'length' | null = null) =>
    (await bodyForParsing({ body: { kind: 'memory', bytes }, headers: coding === undefined ? {} : { 'content-encoding': coding }, truncated }, 1e7)).note;
  assert.equal(await note(data, 'zstd'), 'Content-Encoding "zstd" is none the crawl undoes (gzip, deflate, br): the body was read for links as it came');
  assert.equal(await note(data, 'gzip, zstd'), 'Content-Encoding "gzip, zstd" is none the crawl undoes (gzip, deflate, br): the body was read for links as it came');
  const damaged = gzipDamagedAfterFirstBlock(data);
  const afterDamage = /^Content-Encoding "gzip": corrupt data after (\d+) decoded bytes; links read from those$/.exec((await note(damaged.bytes, 'gzip')) ?? '');
  assert.ok(afterDamage && Number(afterDamage[1]) > 0 && Number(afterDamage[1]) <= damaged.firstBlockBytes, 'the bytes decoded before the damage, counted');
  const coded = gzipSync(data);
  assert.match((await note(coded.subarray(0, coded.length >> 1), 'gzip')) ?? '', /^Content-Encoding "gzip": the coded data ends early, after \d+ decoded bytes; links read from those$/);
  assert.equal(await note(coded.subarray(0, coded.length >> 1), 'gzip', 'length'), undefined, 'the transport cut it: its outcome says so');
  assert.equal(await note(coded, 'gzip'), undefined);
  assert.equal(await note(data, undefined), undefined);
  assert.equal(await note(data, 'identity'), undefined);
});

/** Lines of a text sitemap: compressible, and a cut anywhere most likely falls inside one. */
const sitemapText = Buffer.from(Array.from({ length: 20_000 }, (_, i) => `http://a.test/page-${i}-${'z'.repeat(i % 29)}`).join('\n') + '\n');

/** Each coding with its encoder and the synchronous decoder flushing instead of finishing (what a cut stream decodes to). */
const CODINGS = [
  { coding: 'gzip', encode: gzipSync, flushed: (b: Buffer) => gunzipSync(b, { finishFlush: constants.Z_SYNC_FLUSH }) },
  { coding: 'deflate', encode: deflateSync, flushed: (b: Buffer) => inflateSync(b, { finishFlush: constants.Z_SYNC_FLUSH }) },
  { coding: 'deflate', encode: deflateRawSync, flushed: (b: Buffer) => inflateRawSync(b, { finishFlush: constants.Z_SYNC_FLUSH }) },
  { coding: 'br', encode: brotliCompressSync, flushed: (b: Buffer) => brotliDecompressSync(b, { finishFlush: constants.BROTLI_OPERATION_FLUSH }) },
] as const;

/** How a decoding ended, for one comparison. */
const outcome = (d: DecodedBody) => ({ length: d.bytes.length, cutOff: d.cutOff, damaged: d.damaged });

test('a coded stream that stops before its end, with no corrupt byte, is cut off: all it decoded is kept', async () => {
  for (const { coding, encode, flushed } of CODINGS) {
    const coded = encode(sitemapText);
    for (const at of [0.3, 0.6, 0.99]) {
      const cut = coded.subarray(0, Math.floor(coded.length * at));
      const decoded = await decodeBody(cut, coding, 1e8);
      const label = `${encode.name} cut at ${at}`;
      assert.equal(decoded.cutOff, true, label);
      assert.equal(decoded.damaged, false, label);
      assert.ok(decoded.bytes.length > 0 && decoded.bytes.length < sitemapText.length, label);
      // Every byte the stream holds before its cut, as a decoder flushing at the end gives it.
      assert.deepEqual(decoded.bytes, flushed(cut), label);
      assert.deepEqual(decoded.bytes, sitemapText.subarray(0, decoded.bytes.length), label);
    }
    const whole = await decodeBody(coded, coding, 1e8);
    assert.deepEqual(outcome(whole), { length: sitemapText.length, cutOff: false, damaged: false }, encode.name);
    assert.deepEqual(whole.bytes, sitemapText, encode.name);
  }
});

test('cut off: a header alone, a chained coding, a spooled body; a stream ending exactly at its end is not', async () => {
  assert.equal((await decodeBody(gzipSync(sitemapText).subarray(0, 10), 'gzip', 1e8)).cutOff, true);
  const chained = brotliCompressSync(gzipSync(sitemapText));
  const chainedCut = await decodeBody(chained.subarray(0, chained.length >> 1), 'gzip, br', 1e8);
  assert.equal(chainedCut.cutOff, true);
  assert.deepEqual(chainedCut.bytes, sitemapText.subarray(0, chainedCut.bytes.length));
  assert.equal((await decodeBody(chained, 'gzip, br', 1e8)).cutOff, false);
  await withTempDir('tm-decode-cut-', async (dir) => {
    const gz = gzipSync(sitemapText);
    const path = join(dir, 'body');
    writeFileSync(path, gz.subarray(0, gz.length - 4)); // the trailer's length field missing
    const spooled = await decodeBody({ kind: 'file', path, size: gz.length - 4 }, 'gzip', 1e8);
    assert.deepEqual({ length: spooled.bytes.length, cutOff: spooled.cutOff }, { length: sitemapText.length, cutOff: true });
    writeFileSync(path, gz);
    assert.equal((await decodeBody({ kind: 'file', path, size: gz.length }, 'gzip', 1e8)).cutOff, false);
  });
});

test('what follows a whole gzip member: a second member is read, zero padding and other bytes ignored', async () => {
  const gz = gzipSync(sitemapText);
  const two = await decodeBody(Buffer.concat([gz, gzipSync('http://a.test/last\n')]), 'gzip', 1e8);
  assert.deepEqual(two.bytes, Buffer.concat([sitemapText, Buffer.from('http://a.test/last\n')]));
  assert.deepEqual([two.cutOff, two.damaged], [false, false]);
  const padded = await decodeBody(Buffer.concat([gz, Buffer.alloc(16)]), 'gzip', 1e8);
  assert.deepEqual(outcome(padded), { length: sitemapText.length, cutOff: false, damaged: false });
  // Bytes that begin no member are ignored, as browsers ignore them and as data after a deflate or br stream is.
  const garbage = await decodeBody(Buffer.concat([gz, Buffer.from('garbage after the member')]), 'gzip', 1e8);
  assert.deepEqual(outcome(garbage), { length: sitemapText.length, cutOff: false, damaged: false });
  // A second member cut off: the first whole, the second cut.
  const second = gzipSync(sitemapText);
  const twoCut = await decodeBody(Buffer.concat([gz, second.subarray(0, second.length >> 1)]), 'gzip', 1e8);
  assert.equal(twoCut.cutOff, true);
  assert.ok(twoCut.bytes.length > sitemapText.length && twoCut.bytes.length < 2 * sitemapText.length);
});

test('a deflate or br stream followed by more data: the stream is decoded, whole, and the rest left (it used to reject with ABORT_ERR)', async () => {
  for (const { coding, encode } of CODINGS.filter((c) => c.coding !== 'gzip')) {
    const coded = encode(sitemapText);
    // 128 KB after it reach the decoder in a later write than the stream's end (64 KB reads).
    for (const after of [Buffer.from('garbage!'), coded, Buffer.alloc(128 * 1024, 'more data ')]) {
      const decoded = await decodeBody(Buffer.concat([coded, after]), coding, 1e8);
      assert.deepEqual(outcome(decoded), { length: sitemapText.length, cutOff: false, damaged: false }, encode.name);
    }
  }
});

test('a cut-off bomb still stops at the cap: DecompressionBombError, or the first bytes with overflow "truncate"', async () => {
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024), { level: 9 });
  const cut = bomb.subarray(0, bomb.length >> 1);
  await assert.rejects(decodeBody(cut, 'gzip', 1024 * 1024), DecompressionBombError);
  const prefix = await decodeBody(cut, 'gzip', 1000, 'truncate');
  assert.deepEqual(outcome(prefix), { length: 1000, cutOff: false, damaged: false });
});

test('bodyForParsing: a body whose coded stream stops before its end is cut, with the transport\'s length right', async () => {
  for (const { coding, encode } of CODINGS) {
    const coded = encode(sitemapText);
    const exchange = { body: { kind: 'memory' as const, bytes: coded.subarray(0, coded.length >> 1) }, headers: { 'content-encoding': coding }, truncated: null };
    const parsed = await bodyForParsing(exchange, 1e8);
    assert.equal(parsed.cut, true, encode.name);
    assert.ok(parsed.body.length > 0 && parsed.body.length < sitemapText.length, encode.name);
    assert.equal((await bodyForParsing({ ...exchange, body: { kind: 'memory', bytes: coded } }, 1e8)).cut, false, encode.name);
  }
});

/** A page of `links` links, about 640 bytes each: 50 make 31.7 KB, two of zlib's 16 KB output chunks. */
const pageOf = (links: number) =>
  Buffer.from(`<html><body>${Array.from({ length: links }, (_, i) => `<p><a href="/p${i}">page ${i}</a> ${'lorem ipsum '.repeat(50)}</p>\n`).join('')}</body></html>`);
/** Pages decoded in one zlib call, in two, and in many. */
const PAGES = [pageOf(1), pageOf(50), pageOf(400)];

/** `coded` with byte `at` (negative: from the end) flipped. */
function flipped(coded: Buffer, at: number): Buffer {
  const copy = Buffer.from(coded);
  copy[at < 0 ? copy.length + at : at]! ^= 0xff;
  return copy;
}

test('bytes after a whole gzip member that begin no other: the member is decoded whole, whatever its size', async () => {
  for (const page of PAGES) {
    for (const after of [Buffer.from('GARBAGE'), Buffer.from('\x1fjunk'), Buffer.from('<html>second copy</html>')]) {
      const decoded = await decodeBody(Buffer.concat([gzipSync(page), after]), 'gzip', 1e8);
      assert.deepEqual(outcome(decoded), { length: page.length, cutOff: false, damaged: false }, `${page.length} bytes then ${JSON.stringify(after.toString())}`);
      assert.deepEqual(decoded.bytes, page);
    }
  }
});

test('a wrong checksum or length in the trailer: every decoded byte is kept, flagged damaged, and counted in the note', async () => {
  for (const page of PAGES) {
    const gz = gzipSync(page);
    const zlibWrapped = deflateSync(page);
    for (const [label, coded, coding] of [
      ['gzip CRC-32', flipped(gz, -8), 'gzip'],
      ['gzip length', flipped(gz, -1), 'gzip'],
      ['zlib Adler-32', flipped(zlibWrapped, -1), 'deflate'],
    ] as const) {
      const decoded = await decodeBody(coded, coding, 1e8);
      assert.deepEqual(outcome(decoded), { length: page.length, cutOff: false, damaged: true }, `${label}, ${page.length} bytes`);
      assert.deepEqual(decoded.bytes, page);
      const { note } = await bodyForParsing({ body: { kind: 'memory', bytes: coded }, headers: { 'content-encoding': coding }, truncated: null }, 1e8);
      assert.equal(note, `Content-Encoding "${coding}": corrupt data after ${page.length} decoded bytes; links read from those`);
    }
  }
});

/** A gzip member of `data` with every optional header field (RFC 1952 §2.3.1): extra field, name, comment, header CRC. */
function gzipWithHeaderFields(data: Buffer): Buffer {
  const fixed = Buffer.from([0x1f, 0x8b, 8, 0x04 | 0x08 | 0x10 | 0x02, 0, 0, 0, 0, 0, 3]);
  const extra = Buffer.from([5, 0, 1, 2, 3, 4, 5]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc32(data), 0);
  trailer.writeUInt32LE(data.length, 4);
  const header = Buffer.concat([fixed, extra, Buffer.from('page.html\0a comment\0')]);
  const headerCrc = Buffer.alloc(2);
  headerCrc.writeUInt16LE(crc32(header) & 0xffff);
  return Buffer.concat([header, headerCrc, deflateRawSync(data), trailer]);
}

test('headers with every optional field, and codings fed a byte at a time, decode whole', async () => {
  const page = pageOf(50);
  async function* bytewise(coded: Buffer) {
    for (let at = 0; at < coded.length; at++) yield coded.subarray(at, at + 1);
  }
  const withFields = gzipWithHeaderFields(page);
  assert.deepEqual(gunzipSync(withFields), page, 'zlib reads the member too');
  assert.deepEqual(await decodeContentEncoding(withFields, 'gzip', 1e8), page);
  const twoMembers = Buffer.concat([gzipSync(page), gzipSync(page)]);
  for (const [label, coded, coding, expected] of [
    ['gzip header fields', withFields, 'gzip', page],
    ['two gzip members', twoMembers, 'gzip', Buffer.concat([page, page])],
    ['zlib-wrapped deflate', deflateSync(page), 'deflate', page],
    ['raw deflate', deflateRawSync(page), 'deflate', page],
    ['br', brotliCompressSync(page), 'br', page],
  ] as const) {
    const decoded = await decodeStreamCapped(bytewise(coded), [coding], 1e8);
    assert.deepEqual(outcome(decoded), { length: expected.length, cutOff: false, damaged: false }, label);
    assert.deepEqual(decoded.bytes, expected, label);
  }
});

test('a gzip header that does not end within a megabyte is damage, not held on to', async () => {
  const endless = Buffer.concat([Buffer.from([0x1f, 0x8b, 8, 0x08, 0, 0, 0, 0, 0, 3]), Buffer.alloc(2 * 1024 * 1024, 'n')]);
  assert.deepEqual(outcome(await decodeBody(endless, 'gzip', 1e8)), { length: 0, cutOff: false, damaged: true });
});

test('bodyForParsing: a body with no coding to undo, longer than maxDecodedBytes, is read in part, cut, with a note; a coded one is a bomb', async () => {
  const body = Buffer.from('<a href="/early">early</a>'.padEnd(3000, ' '));
  const parse = (headers: Record<string, string>, stored: Buffer = body) => bodyForParsing({ body: { kind: 'memory', bytes: stored }, headers, truncated: null }, 1024);
  const over = 'the body is 3000 bytes, more than limits.maxDecodedBytes (1024): links read from its first 1024 bytes';
  assert.deepEqual(await parse({}), { body: body.subarray(0, 1024), cut: true, note: over });
  assert.deepEqual(await parse({ 'content-encoding': 'identity' }), { body: body.subarray(0, 1024), cut: true, note: over });
  assert.deepEqual(await parse({ 'content-encoding': 'zstd' }), {
    body: body.subarray(0, 1024), cut: true,
    note: `Content-Encoding "zstd" is none the crawl undoes (gzip, deflate, br): the body was read for links as it came; ${over}`,
  });
  await withTempDir('tm-decode-over-', async (dir) => {
    const path = join(dir, 'body');
    writeFileSync(path, body);
    const spooled = await bodyForParsing({ body: { kind: 'file', path, size: body.length }, headers: {}, truncated: null }, 1024);
    assert.deepEqual(spooled, { body: body.subarray(0, 1024), cut: true, note: over });
  });
  assert.deepEqual(await parse({}, body.subarray(0, 1024)), { body: body.subarray(0, 1024), cut: false }, 'exactly at the cap: whole');
  await assert.rejects(parse({ 'content-encoding': 'gzip' }, gzipSync(body)), DecompressionBombError);
});
