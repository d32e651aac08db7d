import { test } from 'node:test';
import assert from 'node:assert/strict';
import { byteRange, downloadAnswer, type ExportFileLookup } from '../../../app/lib/server/export-download';

test('a Range header asks for one span of the file, inclusive, clipped at its end', () => {
  assert.deepEqual(byteRange('bytes=0-9', 100), { start: 0, end: 9 });
  assert.deepEqual(byteRange('bytes=90-', 100), { start: 90, end: 99 });
  assert.deepEqual(byteRange('bytes=90-500', 100), { start: 90, end: 99 });
  assert.deepEqual(byteRange('bytes=-22', 100), { start: 78, end: 99 }, 'a suffix: the last 22 bytes');
  assert.deepEqual(byteRange('bytes=-500', 100), { start: 0, end: 99 });
  assert.deepEqual(byteRange(' bytes=5-5 ', 100), { start: 5, end: 5 });
});

test('a range past the end is unsatisfiable; a header that is not one plain byte range sends the whole file', () => {
  assert.equal(byteRange('bytes=100-', 100), 'unsatisfiable');
  assert.equal(byteRange('bytes=-0', 100), 'unsatisfiable');
  assert.equal(byteRange('bytes=0-', 0), 'unsatisfiable');
  for (const whole of [undefined, '', 'bytes=-', 'bytes=0-1,5-9', 'items=0-9', 'bytes=9-3', 'bytes=a-b']) assert.equal(byteRange(whole, 100), null, String(whole));
});

test('the answer to a download: 200 with the whole file, 206 with its span and Content-Range, 416 past the end', () => {
  const found: ExportFileLookup = { path: '/x', name: 'x.wacz', bytes: 100, sha256: 'ab', headers: { 'content-length': '100', 'accept-ranges': 'bytes' } };
  assert.deepEqual(downloadAnswer(found, undefined), { status: 200, headers: found.headers, span: { start: 0, end: 99 } });
  const partial = downloadAnswer(found, 'bytes=10-19');
  assert.equal(partial.status, 206);
  assert.deepEqual(partial.span, { start: 10, end: 19 });
  assert.equal(partial.headers['content-length'], '10');
  assert.equal(partial.headers['content-range'], 'bytes 10-19/100');
  assert.equal(partial.headers['accept-ranges'], 'bytes');
  const refused = downloadAnswer(found, 'bytes=100-');
  assert.equal(refused.status, 416);
  assert.equal(refused.span, undefined);
  assert.equal(refused.headers['content-range'], 'bytes */100');
  assert.equal(downloadAnswer({ ...found, bytes: 0 }, undefined).span, undefined, 'an empty file: headers alone');
});
