import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { verifyWarcFile } from '../../../worker/warc';
import { sha1Digest } from '../../../worker/warc/warc-digest';
import { withTempDir } from '../../support/temp-dir';

/** One WARC/1.0 record, its own gzip member, as Heritrix 3 writes it (the length and block digest after the other fields). */
function record10(fields: Array<[string, string]>, block: string): Buffer {
  const bytes = Buffer.from(block);
  const head = `WARC/1.0\r\n${fields.map(([k, v]) => `${k}: ${v}\r\n`).join('')}WARC-Block-Digest: ${sha1Digest(bytes)}\r\nContent-Length: ${bytes.length}\r\n\r\n`;
  return gzipSync(Buffer.concat([Buffer.from(head), bytes, Buffer.from('\r\n\r\n')]));
}

// Found by an exploratory session: a deduplicating Heritrix 3 crawl's file failed `tidemark check`
// with "bad WARC-Profile http://netpreserve.org/warc/1.0/revisit/identical-payload-digest", the
// profile URI WARC/1.0 (ISO 28500:2009) defines.
test('a WARC/1.0 file whose revisit names the WARC/1.0 identical-payload-digest profile passes', () => withTempDir('tm-verify-warc10-', async (dir) => {
  const id = () => `<urn:uuid:${randomUUID()}>`;
  const [visit, revisit] = [id(), id()];
  const body = '<p>the same</p>';
  const head = `HTTP/1.1 200 OK\r\nContent-Type: text/html\r\nContent-Length: ${body.length}\r\n\r\n`;
  const request = (date: string, of: string) => record10([['WARC-Type', 'request'], ['WARC-Target-URI', 'http://a.example/'], ['WARC-Date', date], ['WARC-Concurrent-To', of], ['WARC-Record-ID', id()], ['Content-Type', 'application/http; msgtype=request']], 'GET / HTTP/1.1\r\nHost: a.example\r\n\r\n');
  const path = join(dir, 'h3.warc.gz');
  writeFileSync(path, Buffer.concat([
    record10([['WARC-Type', 'warcinfo'], ['WARC-Date', '2024-01-01T00:00:00Z'], ['WARC-Filename', 'h3.warc.gz'], ['WARC-Record-ID', id()], ['Content-Type', 'application/warc-fields']], 'software: Heritrix/3.4.0\r\nformat: WARC File Format 1.0\r\n'),
    record10([['WARC-Type', 'response'], ['WARC-Target-URI', 'http://a.example/'], ['WARC-Date', '2024-01-01T00:00:00Z'], ['WARC-Payload-Digest', sha1Digest(Buffer.from(body))], ['WARC-Record-ID', visit], ['Content-Type', 'application/http; msgtype=response']], head + body),
    request('2024-01-01T00:00:00Z', visit),
    record10([
      ['WARC-Type', 'revisit'], ['WARC-Target-URI', 'http://a.example/'], ['WARC-Date', '2024-02-01T00:00:00Z'], ['WARC-Payload-Digest', sha1Digest(Buffer.from(body))],
      ['WARC-Profile', 'http://netpreserve.org/warc/1.0/revisit/identical-payload-digest'], ['WARC-Truncated', 'length'],
      ['WARC-Refers-To-Target-URI', 'http://a.example/'], ['WARC-Refers-To-Date', '2024-01-01T00:00:00Z'], ['WARC-Record-ID', revisit], ['Content-Type', 'application/http; msgtype=response'],
    ], head),
    request('2024-02-01T00:00:00Z', revisit),
  ]));
  const v = await verifyWarcFile(path);
  assert.deepEqual(v.errors, []);
  assert.deepEqual(v.types, { warcinfo: 1, response: 1, request: 2, revisit: 1 });
}));
