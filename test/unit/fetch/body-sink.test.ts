import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BodySink } from '../../../worker/fetch/body-sink';
import { base32 } from '../../../worker/warc/warc-digest';
import { mulberry32 } from '../../../bench/support/mulberry32';

const sha1 = (b: Buffer) => 'sha1:' + base32(createHash('sha1').update(b).digest());

/** Splits `body` into chunks of 1..3,000 bytes, each a view into a larger "socket buffer" of its own, as undici's are. */
function socketChunks(body: Buffer, seed: number): Buffer[] {
  const random = mulberry32(seed);
  const chunks: Buffer[] = [];
  for (let at = 0; at < body.length; ) {
    const n = Math.min(body.length - at, 1 + Math.floor(random() * 3000));
    const socketBuffer = Buffer.alloc(n + 200, 0x2a);
    body.copy(socketBuffer, 100, at, at + n);
    chunks.push(socketBuffer.subarray(100, 100 + n));
    at += n;
  }
  return chunks;
}

const options = { maxBytes: 10_000_000, memoryLimit: 1_000_000, spoolDir: '/nonexistent' };

test('an in-memory body is the chunks in order, with their digest, whatever length the server announced', async () => {
  const random = mulberry32(7);
  for (let round = 0; round < 40; round++) {
    const size = Math.floor(random() * 90_000);
    const body = Buffer.from(Array.from({ length: size }, () => Math.floor(random() * 256)));
    const announced = [null, size, Math.floor(size / 3), size * 2 + 5, 0][round % 5]!;
    const sink = new BodySink(options, announced);
    for (const chunk of socketChunks(body, round)) assert.equal(sink.write(chunk), 'continue');
    const { body: stored, payloadDigest } = await sink.finish();
    assert.equal(stored.kind, 'memory');
    if (stored.kind !== 'memory') continue;
    assert.deepEqual(stored.bytes, body, `round ${round}: ${size} bytes, announced ${announced}`);
    assert.equal(payloadDigest, sha1(body));
    assert.equal(sink.size, size);
  }
});

test('the stored body holds none of the chunks it was given (so their socket buffers can be freed at once)', async () => {
  const body = Buffer.alloc(40_000, 'x');
  const chunks = socketChunks(body, 3);
  const sink = new BodySink(options, body.length);
  for (const chunk of chunks) sink.write(chunk);
  const { body: stored } = await sink.finish();
  assert.ok(stored.kind === 'memory');
  for (const chunk of chunks) assert.notEqual(stored.bytes.buffer, chunk.buffer);
  // A single chunk, the common case of a small page, is copied too.
  const one = socketChunks(Buffer.from('<p>hi</p>'), 1)[0]!;
  const small = new BodySink(options, null);
  small.write(one);
  const { body: smallStored } = await small.finish();
  assert.ok(smallStored.kind === 'memory');
  assert.notEqual(smallStored.bytes.buffer, one.buffer);
});

test('an unannounced body does not keep the spare room its buffer grew by', async () => {
  for (const size of [17_000, 40_000, 70_000, 300_000]) {
    const sink = new BodySink(options, null);
    for (const chunk of socketChunks(Buffer.alloc(size, 'y'), size)) sink.write(chunk);
    const { body } = await sink.finish();
    assert.ok(body.kind === 'memory');
    assert.equal(body.bytes.length, size);
    assert.ok(body.bytes.buffer.byteLength <= size * 1.25, `${size} bytes kept in a buffer of ${body.bytes.buffer.byteLength}`);
  }
});

test('a body past the memory limit moves to a file with everything received; one past maxBytes is cut there', async () => {
  const spoolDir = mkdtempSync(join(tmpdir(), 'tidemark-sink-'));
  try {
    const body = Buffer.from(Array.from({ length: 100_000 }, (_, i) => i % 251));
    const spooled = new BodySink({ maxBytes: 1e6, memoryLimit: 20_000, spoolDir }, body.length);
    // The reader is never asked to wait for the disk (pausing undici at a closing socket crashed it).
    for (const chunk of socketChunks(body, 11)) assert.equal(spooled.write(chunk), 'continue');
    const fromFile = await spooled.finish();
    assert.ok(fromFile.body.kind === 'file');
    assert.deepEqual(readFileSync(fromFile.body.path), body);
    assert.equal(fromFile.payloadDigest, sha1(body));

    const capped = new BodySink({ maxBytes: 2_500, memoryLimit: 1e6, spoolDir }, body.length);
    const signals = socketChunks(body, 5).map((chunk) => capped.write(chunk));
    assert.equal(signals.at(-1), 'full');
    assert.ok(capped.full);
    const cut = await capped.finish();
    assert.ok(cut.body.kind === 'memory');
    assert.deepEqual(cut.body.bytes, body.subarray(0, 2_500));
    assert.equal(cut.payloadDigest, sha1(body.subarray(0, 2_500)));
  } finally {
    rmSync(spoolDir, { recursive: true, force: true });
  }
});

test('a body cut at the cap keeps no more memory than the cap, whatever length was announced', async () => {
  const sink = new BodySink({ maxBytes: 2_000, memoryLimit: 1_000_000, spoolDir: '/nonexistent' }, 900_000);
  const signals = socketChunks(Buffer.alloc(10_000, 'z'), 9).map((chunk) => sink.write(chunk));
  assert.ok(signals.includes('full'));
  const { body } = await sink.finish();
  assert.ok(body.kind === 'memory');
  assert.equal(body.bytes.length, 2_000);
  assert.ok(body.bytes.buffer.byteLength <= 2_500, `kept in a buffer of ${body.bytes.buffer.byteLength} bytes`);
});

test('a body that reaches the cap exactly is full when more was announced, and whole when exactly that much was', async () => {
  const cap = { maxBytes: 1_000, memoryLimit: 1_000_000, spoolDir: '/nonexistent' };
  const announcedMore = new BodySink(cap, 5_000);
  assert.equal(announcedMore.write(Buffer.alloc(400, 'a')), 'continue');
  assert.equal(announcedMore.write(Buffer.alloc(600, 'b')), 'full');
  assert.ok(announcedMore.full);
  for (const announced of [1_000, null]) {
    const exact = new BodySink(cap, announced);
    assert.equal(exact.write(Buffer.alloc(1_000, 'c')), 'continue', `announced ${announced}`);
    assert.equal(exact.full, false);
  }
});
