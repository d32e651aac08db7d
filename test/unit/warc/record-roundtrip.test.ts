import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { gunzipSync, gzipSync } from 'node:zlib';
import { gzip as libdeflateGzip } from 'libdeflate';
import type { Worker } from 'node:worker_threads';
import { WARCParser } from 'warcio';
import { GzipPool, LIBDEFLATE_MAX_BYTES, MAX_FAILED_STARTS } from '../../../worker/warc/gzip-pool';
import { recordIdFromUuid, requestFields, responseFields, revisitFields, serializeFields } from '../../../worker/warc/warc-fields';
import { sha1Digest } from '../../../worker/warc/warc-digest';
import { cdxjLine, parseCdxjLine } from '../../../worker/warc/cdxj-index';
import { dechunk, indexFactsOf, mediaTypeOf, parseHttpHead, parseWarcHead } from '../../../worker/warc/parse-heads';
import { readStoredRecord } from '../../../worker/warc/read-record';
import { makeExchange, htmlPage } from './make-exchange';

// Compression threads only (no files): the bytes the writer would append, parsed back by warcio.
const pool = new GzipPool(3, 2);
after(() => pool.close());

const base = {
  recordId: recordIdFromUuid('11111111-2222-4333-8444-555555555555'),
  date: '2024-05-06T07:08:09.123Z',
  warcinfoId: recordIdFromUuid('99999999-2222-4333-8444-555555555555'),
};

test('a response record round-trips through warcio: fields, HTTP head, body, digests', async () => {
  const ex = makeExchange({ url: 'http://127.0.0.1:8080/a?b=1', body: htmlPage(1, 5000) });
  const body = (ex.body as { bytes: Buffer }).bytes;
  const block = Buffer.concat([ex.responseHead, body]);
  const fields = responseFields(base, ex.url, ex.ip, ex.payloadDigest, null, block.length);
  const { member, blockDigest } = await pool.compress(serializeFields(fields), [ex.responseHead, body]);
  assert.equal(blockDigest, sha1Digest(block));
  const raw = gunzipSync(member);
  // Exactly one record in the member, ending with CRLF CRLF.
  const head = parseWarcHead(raw);
  assert.ok(head);
  assert.equal(raw.length, head.headerLength + block.length + 4);
  assert.equal(raw.subarray(-4).toString(), '\r\n\r\n');

  const parser = new WARCParser([member]);
  const record = await parser.parse();
  assert.ok(record);
  assert.equal(record.warcType, 'response');
  assert.equal(record.warcTargetURI, ex.url);
  assert.equal(record.warcDate, base.date);
  assert.equal(record.warcHeader('WARC-Record-ID'), base.recordId);
  assert.equal(record.warcBlockDigest, blockDigest);
  assert.equal(record.warcPayloadDigest, sha1Digest(body));
  assert.equal(record.warcContentLength, block.length);
  assert.equal(record.httpHeaders?.statusCode, 200);
  assert.equal(record.httpHeaders?.headers.get('content-type'), 'text/html; charset=utf-8');
  assert.deepEqual(Buffer.from(await record.readFully(false)), body);
  assert.equal(await parser.parse(), null);
});

test('a stored record reads back as the cockpit shows it: WARC fields, HTTP head, Content-Type, payload', async (t) => {
  const ex = makeExchange({ url: 'http://127.0.0.1:8080/shown', body: Buffer.from('<p>shown</p>') });
  const body = (ex.body as { bytes: Buffer }).bytes;
  const block = Buffer.concat([ex.responseHead, body]);
  const fields = responseFields(base, ex.url, ex.ip, ex.payloadDigest, null, block.length);
  const { member } = await pool.compress(serializeFields(fields), [ex.responseHead, body]);
  const dir = mkdtempSync(join(tmpdir(), 'tm-stored-record-'));
  t.after(() => rmSync(dir, { recursive: true, force: true }));
  // Behind another member, as in a WARC file, read at its offset.
  writeFileSync(join(dir, 'c.warc.gz'), Buffer.concat([gzipSync('WARC/1.1\r\n\r\n'), member]));
  const stored = await readStoredRecord(dir, 'c.warc.gz', gzipSync('WARC/1.1\r\n\r\n').length, member.length);
  assert.equal(new Map(stored.warcHeaders).get('WARC-Target-URI'), ex.url);
  assert.match(stored.httpHead ?? '', /^HTTP\/1\.1 200 OK\r?\n/);
  assert.equal(stored.contentType, 'text/html; charset=utf-8');
  assert.equal(Buffer.from(stored.payload).toString(), '<p>shown</p>');
});

test('request and revisit records round-trip; the revisit block is the HTTP head only', async () => {
  const ex = makeExchange({ url: 'http://127.0.0.1:8080/dup', body: Buffer.from('same') });
  const req = requestFields({ ...base, recordId: recordIdFromUuid('22222222-2222-4333-8444-555555555555') }, ex.url, base.recordId, null, ex.requestHead.length);
  const ref = { uri: 'http://127.0.0.1:8080/orig', date: '2024-01-01T00:00:00Z', payloadDigest: ex.payloadDigest };
  const rev = revisitFields(base, ex.url, null, ref, 'identical-payload-digest', true, ex.responseHead.length);
  const a = await pool.compress(serializeFields(rev), [ex.responseHead]);
  const b = await pool.compress(serializeFields(req), [ex.requestHead]);
  const records = [];
  for await (const r of new WARCParser([a.member, b.member])) {
    records.push({ type: r.warcType, target: r.warcTargetURI, ct: r.warcConcurrentTo, refersTo: r.warcRefersToTargetURI, line: r.httpHeaders?.statusline, body: (await r.readFully()).length });
  }
  assert.deepEqual(records, [
    { type: 'revisit', target: ex.url, ct: [], refersTo: ref.uri, line: 'HTTP/1.1 200 OK', body: 0 },
    { type: 'request', target: ex.url, ct: [base.recordId], refersTo: null, line: 'GET /dup HTTP/1.1', body: 0 },
  ]);
});

// A request record's head, and the whole record the threads gzip, as the routing tests compare them.
const requestHead = serializeFields(requestFields(base, 'http://127.0.0.1:8080/', base.recordId, '127.0.0.1', 10));
const recordOf = (block: Buffer, digest: string) =>
  Buffer.concat([Buffer.from(`${requestHead}WARC-Block-Digest: ${digest}\r\n\r\n`), block, Buffer.from('\r\n\r\n')]);
const smallBlock = htmlPage(2, 20_000);

test('records in memory are gzipped by libdeflate; level 0 and records past its limit by node:zlib', async (t) => {
  const large = Buffer.alloc(LIBDEFLATE_MAX_BYTES + 1, 'archive ');
  const fast = new GzipPool(1, 1);
  const stored = new GzipPool(0, 1);
  t.after(() => Promise.all([fast.close(), stored.close()]));

  const a = await fast.compress(requestHead, [smallBlock]);
  assert.deepEqual(Buffer.from(a.member), Buffer.from(libdeflateGzip(recordOf(smallBlock, a.blockDigest), 1)));
  // The libraries' outputs differ, so these equalities tell which one compressed.
  assert.notDeepEqual(Buffer.from(a.member), gzipSync(recordOf(smallBlock, a.blockDigest), { level: 1 }));
  const b = await fast.compress(requestHead, [large]);
  assert.deepEqual(Buffer.from(b.member), gzipSync(recordOf(large, b.blockDigest), { level: 1 }));
  const c = await stored.compress(requestHead, [smallBlock]);
  assert.deepEqual(Buffer.from(c.member), gzipSync(recordOf(smallBlock, c.blockDigest), { level: 0 }));
  assert.deepEqual(gunzipSync(c.member), recordOf(smallBlock, c.blockDigest));
});

test('records of any size sent at once to one thread come back each whole (the thread reuses one buffer to assemble them)', async (t) => {
  const one = new GzipPool(1, 1);
  t.after(() => one.close());
  const sizes = [100, 70_000, 300_000, 50, LIBDEFLATE_MAX_BYTES + 1, 200_000, 0, 10];
  const blocks = sizes.map((n, i) => Buffer.alloc(n, String.fromCharCode(97 + i)));
  const results = await Promise.all(blocks.map((b) => one.compress(requestHead, [b.subarray(0, b.length >> 1), b.subarray(b.length >> 1)])));
  results.forEach((r, i) => {
    assert.equal(r.blockDigest, sha1Digest(blocks[i]!));
    assert.deepEqual(gunzipSync(r.member), recordOf(blocks[i]!, r.blockDigest), `record ${i} of ${sizes[i]} bytes`);
  });
});

/** The pool's one thread (a private field: the tests stop it as a crash would). */
const threadOf = (pool: GzipPool) => (pool as unknown as { threads: { worker: Worker }[] }).threads[0]!.worker;

test('a thread stopped as it starts had no job handed to it yet: its jobs go to a new thread', async (t) => {
  const one = new GzipPool(1, 1);
  t.after(() => one.close());
  const jobs = Array.from({ length: 4 }, () => one.compress(requestHead, [smallBlock]));
  await threadOf(one).terminate();
  for (const r of await Promise.all(jobs)) assert.deepEqual(gunzipSync(r.member), recordOf(smallBlock, r.blockDigest));
});

test('a thread that stops with jobs in hand fails them with a reason, and the next job goes to a new thread, every time', async (t) => {
  const one = new GzipPool(1, 1);
  t.after(() => one.close());
  // Not a thread that cannot start: replaced however often it happens (gzip-pool.test.ts for those).
  for (let round = 0; round <= MAX_FAILED_STARTS; round++) {
    const ready = await one.compress(requestHead, [smallBlock]);
    assert.deepEqual(gunzipSync(ready.member), recordOf(smallBlock, ready.blockDigest));
    const jobs = Array.from({ length: 8 }, () => one.compress(requestHead, [Buffer.alloc(2_000_000, 'x')]));
    await threadOf(one).terminate();
    // None may stay pending: this await would never end, and nothing would keep the process alive.
    const settled = await Promise.allSettled(jobs);
    const failed = settled.filter((job) => job.status === 'rejected');
    assert.ok(failed.length > 0, `round ${round}: the stopped thread had jobs in hand`);
    for (const job of failed) assert.match(String(job.reason), /gzip thread stopped/);
  }
  const after = await one.compress(requestHead, [smallBlock]);
  assert.deepEqual(gunzipSync(after.member), recordOf(smallBlock, after.blockDigest));
});

test('a libdeflate that cannot be loaded, or throws, leaves the record to node:zlib', async (t) => {
  const dir = mkdtempSync(join(tmpdir(), 'tm-gzip-pool-'));
  const throwing = join(dir, 'throwing.mjs');
  writeFileSync(throwing, "export function gzip() { throw new Error('Aborted(OOM)'); }\n");
  const pools = [new GzipPool(1, 1, pathToFileURL(throwing).href), new GzipPool(1, 1, pathToFileURL(join(dir, 'absent.mjs')).href)];
  t.after(async () => {
    await Promise.all(pools.map((p) => p.close()));
    rmSync(dir, { recursive: true, force: true });
  });
  for (const pool of pools) {
    const r = await pool.compress(requestHead, [smallBlock]);
    assert.deepEqual(Buffer.from(r.member), gzipSync(recordOf(smallBlock, r.blockDigest), { level: 1 }));
  }
});

test('CDXJ lines: SURT key, 14-digit timestamp, pywb-style JSON', () => {
  const line = cdxjLine({
    url: 'http://www.Example.com:8080/path?b=2&a=1', date: '2024-05-06T07:08:09.123Z', mime: 'text/html',
    status: 200, digest: 'sha1:3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ', length: 1234, offset: 567, filename: 'c-1.warc.gz',
  });
  assert.equal(
    line,
    'com,example:8080)/path?a=1&b=2 20240506070809 {"url":"http://www.Example.com:8080/path?b=2&a=1","mime":"text/html","status":"200","digest":"3I42H3S6NNFQ2MSVX7XZKYAYSCX5QBYJ","length":"1234","offset":"567","filename":"c-1.warc.gz"}\n',
  );
  assert.equal(parseCdxjLine(line.trimEnd())?.json.offset, '567');
  assert.equal(parseCdxjLine('com,example)/ 2024 {"url":'), null);
});

test('HTTP heads and chunked bodies parse as replay tools read them', () => {
  const head = parseHttpHead(Buffer.from('HTTP/1.1 404 Not Found\r\nX-A: 1\r\nx-a: 2\r\n\r\nbody'));
  assert.deepEqual(head, { startLine: 'HTTP/1.1 404 Not Found', status: 404, headers: { 'x-a': '1, 2' }, length: 42 });
  assert.equal(dechunk(Buffer.from('4\r\nWiki\r\n6;ext=1\r\npedia \r\n0\r\n\r\n'))?.toString(), 'Wikipedia ');
  assert.equal(dechunk(Buffer.from('ff\r\nshort')), null);
});

test('index facts: a response\'s MIME type and status from its HTTP head, a revisit\'s mime warc/revisit, none for other records', () => {
  const http = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: Text/HTML; charset=x\r\n\r\n');
  const fields = (type: string): [string, string][] => [['WARC-Type', type], ['WARC-Target-URI', 'http://a/'], ['WARC-Date', '2024-05-06T07:08:09Z'], ['WARC-Payload-Digest', 'sha1:X']];
  // As written, as the writer's own lines give it (warcio's indexer keeps the case too).
  assert.deepEqual(indexFactsOf(fields('response'), http), { url: 'http://a/', date: '2024-05-06T07:08:09Z', mime: 'Text/HTML', status: 200, digest: 'sha1:X' });
  assert.equal(indexFactsOf(fields('revisit'), http)?.mime, 'warc/revisit');
  // Two Content-Type lines: the first, as pywb's indexer takes it, not both joined.
  const twice = Buffer.from('HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Type: text/plain; charset=x\r\n\r\n');
  assert.equal(indexFactsOf(fields('response'), twice)?.mime, 'text/html');
  assert.equal(indexFactsOf(fields('response'), Buffer.from('HTTP/1.1 200 OK\r\n\r\n'))?.mime, 'unk');
  assert.equal(mediaTypeOf('text/html, text/plain'), 'text/html');
  assert.equal(mediaTypeOf('text/html; charset="a,b", text/plain'), 'text/html');
  assert.equal(mediaTypeOf(' , text/plain'), null, 'the first line was empty');
  assert.equal(mediaTypeOf(undefined), null);
  assert.equal(indexFactsOf(fields('request'), http), null);
  assert.equal(indexFactsOf([['WARC-Type', 'response']], http), null, 'no target');
});
