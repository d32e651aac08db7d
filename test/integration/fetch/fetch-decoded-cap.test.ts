import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { bodyForParsing, createFetcher, DecompressionBombError, releaseBody, type Fetcher } from '../../../worker/fetch';
import { extractFromResponse } from '../../../worker/extract';
import { startFixtureServer, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark-test/0.1 (+http://127.0.0.1/contact)';
const MB = 1024 * 1024;
/** An ICD may set maxBodyBytes above maxDecodedBytes: a plain body can then be longer than the latter. */
const limits = { connectTimeoutMs: 1000, headersTimeoutMs: 1000, totalTimeoutMs: 10_000, maxBodyBytes: 4 * MB, maxRetries: 0 };
const MAX_DECODED = 1 * MB;

/** A 2 MB page: a link at its start, one past the first megabyte. */
const page = Buffer.from(`<a href="/early">early</a>${' '.repeat(1.5 * MB)}<a href="/late">late</a>${' '.repeat(MB / 2)}`);

describe('fetcher: a body with no content coding longer than maxDecodedBytes is no decompression bomb', () => {
  let server: FixtureServer;
  let fetcher: Fetcher;
  let spoolDir: string;

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-decoded-cap-'));
    const gzipped = gzipSync(page);
    server = await startFixtureServer({
      '/plain': (_q, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-length': page.length }).end(page),
      '/gzip': (_q, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': 'gzip', 'content-length': gzipped.length }).end(gzipped),
    });
    fetcher = createFetcher({ userAgent: UA, limits, spoolDir });
  });
  after(async () => {
    await fetcher.close();
    await server.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  test('its links are read from its first maxDecodedBytes, parsed as cut, with a note', async () => {
    const url = `${server.url}/plain`;
    const outcome = await fetcher.fetch(url);
    assert.ok(outcome.ok);
    const ex = outcome.exchange;
    assert.deepEqual([ex.body.kind, ex.truncated], ['file', null], 'received whole, spooled');
    const parsed = await bodyForParsing(ex, MAX_DECODED);
    assert.deepEqual(parsed.body, page.subarray(0, MAX_DECODED));
    assert.equal(parsed.cut, true);
    assert.equal(parsed.note, `the body is ${page.length} bytes, more than limits.maxDecodedBytes (${MAX_DECODED}): links read from its first ${MAX_DECODED} bytes`);
    const links = extractFromResponse({ url, status: 200, headers: ex.headers, body: parsed.body, truncated: parsed.cut, maxDecodedBytes: MAX_DECODED }).links;
    assert.deepEqual(links.map((l) => new URL(l.url).pathname), ['/early']);
    await releaseBody(ex.body);
  });

  test('the same page gzipped, decoding to more than maxDecodedBytes, is still a bomb', async () => {
    const outcome = await fetcher.fetch(`${server.url}/gzip`);
    assert.ok(outcome.ok);
    await assert.rejects(bodyForParsing(outcome.exchange, MAX_DECODED), DecompressionBombError);
  });
});
