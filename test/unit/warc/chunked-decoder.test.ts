import { test } from 'node:test';
import assert from 'node:assert/strict';
import fc from 'fast-check';
import { ChunkedDecoder } from '../../../worker/warc/parse-heads';

/** Chunked coding of `chunks` (sizes in hex, upper or lower case, with or without extensions) and a trailer. */
function encode(chunks: Buffer[], upper: boolean, extension: boolean, trailer: boolean): Buffer {
  const parts = chunks.flatMap((c) => {
    const size = c.length.toString(16);
    return [Buffer.from(`${upper ? size.toUpperCase() : size}${extension ? ';name="v"' : ''}\r\n`), c, Buffer.from('\r\n')];
  });
  return Buffer.concat([...parts, Buffer.from(`0\r\n${trailer ? 'X-Trailer: 1\r\n' : ''}\r\n`)]);
}

/** Decodes `body` handed over in pieces cut at `cuts`. */
function decode(body: Buffer, cuts: number[]): { data: Buffer; complete: boolean } {
  const out: Buffer[] = [];
  const decoder = new ChunkedDecoder((d) => out.push(Buffer.from(d)));
  let at = 0;
  for (const cut of [...cuts.map((c) => c % (body.length + 1))].sort((a, b) => a - b).concat(body.length)) {
    decoder.push(body.subarray(at, Math.max(at, cut)));
    at = Math.max(at, cut);
  }
  return { data: Buffer.concat(out), complete: decoder.complete };
}

const chunks = fc.array(fc.uint8Array({ minLength: 1, maxLength: 300 }).map((a) => Buffer.from(a)), { maxLength: 8 });

test('a chunked body gives its entity body whole, however its pieces are cut', () => {
  fc.assert(
    fc.property(chunks, fc.boolean(), fc.boolean(), fc.boolean(), fc.array(fc.nat(), { maxLength: 12 }), (cs, upper, ext, trailer, cuts) => {
      const got = decode(encode(cs, upper, ext, trailer), cuts);
      assert.equal(got.complete, true);
      assert.deepEqual(got.data, Buffer.concat(cs));
    }),
  );
});

test('a body cut before its last chunk is not complete, and gives no byte past the cut', () => {
  fc.assert(
    fc.property(chunks.filter((cs) => cs.length > 0), fc.nat(), fc.array(fc.nat(), { maxLength: 6 }), (cs, end, cuts) => {
      const body = encode(cs, false, false, false);
      const lastChunk = body.length - 5; // '0\r\n\r\n'
      const cut = body.subarray(0, end % lastChunk);
      const got = decode(cut, cuts);
      assert.equal(got.complete, false);
      assert.ok(Buffer.concat(cs).subarray(0, got.data.length).equals(got.data), 'a prefix of the entity body');
    }),
  );
});

test('broken framing: a size that is not hex, or a size line without end, is not complete', () => {
  assert.equal(decode(Buffer.from('zz\r\nabc\r\n0\r\n\r\n'), []).complete, false);
  assert.equal(decode(Buffer.from('4'.repeat(5000)), []).complete, false);
  const stopped = decode(Buffer.from('3\r\nabc\r\nzz\r\nmore\r\n0\r\n\r\n'), []);
  assert.deepEqual([stopped.complete, stopped.data.toString()], [false, 'abc'], 'nothing is handed on after the framing broke');
});
