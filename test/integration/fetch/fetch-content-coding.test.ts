import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { deflateSync, gzipSync } from 'node:zlib';
import { bodyForParsing, createFetcher, type Fetcher } from '../../../worker/fetch';
import { extractFromResponse } from '../../../worker/extract';
import { startFixtureServer, type FixtureServer } from '../../fixtures/servers/fixture-server';

const UA = 'Tidemark-test/0.1 (+http://127.0.0.1/contact)';
const limits = { connectTimeoutMs: 1000, headersTimeoutMs: 1000, totalTimeoutMs: 5000, maxBodyBytes: 16 * 1024 * 1024, maxRetries: 0 };
const MAX_DECODED = 64 * 1024 * 1024;

/** A page of `links` links, each in a paragraph of `filler` (about 600 bytes of lorem ipsum by default). */
function pageOf(links: number, filler: () => string = () => 'lorem ipsum '.repeat(50)): Buffer {
  return Buffer.from(`<html><body>${Array.from({ length: links }, (_, i) => `<p><a href="/p${i}">page ${i}</a> ${filler()}</p>\n`).join('')}</body></html>`);
}

/** `coded` with its byte `fromEnd` bytes before the end flipped. */
function flippedFromEnd(coded: Buffer, fromEnd: number): Buffer {
  const copy = Buffer.from(coded);
  copy[copy.length - fromEnd]! ^= 0xff;
  return copy;
}

/**
 * Pages served with a content coding browsers read whole though it is not right to the letter:
 * each read for its links as the extract stage reads them (bodyForParsing, then the parser).
 */
describe('fetcher: a page whose content coding goes wrong after its data keeps every decoded byte', () => {
  let server: FixtureServer;
  let fetcher: Fetcher;
  let spoolDir: string;
  // One zlib output chunk (16 KB) or less, two, and a page over the 1 MB spool threshold as received.
  const small = pageOf(1);
  const twoChunks = pageOf(50);
  const spooled = pageOf(50, () => randomBytes(32 * 1024).toString('base64'));
  const pages = { small, twoChunks, spooled };
  const coded: Record<string, { bytes: Buffer; coding: string }> = {};
  for (const [name, page] of Object.entries(pages)) {
    coded[`/${name}/bad-crc`] = { bytes: flippedFromEnd(gzipSync(page), 8), coding: 'gzip' };
    coded[`/${name}/junk-after`] = { bytes: Buffer.concat([gzipSync(page), Buffer.from('GARBAGE')]), coding: 'gzip' };
    coded[`/${name}/bad-adler`] = { bytes: flippedFromEnd(deflateSync(page), 1), coding: 'deflate' };
  }

  before(async () => {
    spoolDir = await mkdtemp(join(tmpdir(), 'tidemark-coding-'));
    server = await startFixtureServer(Object.fromEntries(Object.entries(coded).map(([path, { bytes, coding }]) => [
      path,
      (_q, res) => res.writeHead(200, { 'content-type': 'text/html', 'content-encoding': coding, 'content-length': bytes.length }).end(bytes),
    ])));
    fetcher = createFetcher({ userAgent: UA, limits, spoolDir });
  });
  after(async () => {
    await fetcher.close();
    await server.close();
    await rm(spoolDir, { recursive: true, force: true });
  });

  async function readForLinks(path: string) {
    const url = `${server.url}${path}`;
    const outcome = await fetcher.fetch(url);
    assert.ok(outcome.ok, `${path}: ${outcome.ok ? '' : outcome.message}`);
    const ex = outcome.exchange;
    const parsed = await bodyForParsing(ex, MAX_DECODED);
    const links = extractFromResponse({ url, status: ex.status, headers: ex.headers, body: parsed.body, truncated: parsed.cut, maxDecodedBytes: MAX_DECODED }).links;
    return { ex, parsed, links };
  }

  test('bytes after a whole gzip member: the page decodes whole, every link read, no note', async () => {
    for (const [name, page] of Object.entries(pages)) {
      const { parsed, links } = await readForLinks(`/${name}/junk-after`);
      assert.deepEqual(parsed.body, page, name);
      assert.equal(links.length, page === small ? 1 : 50, name);
      assert.equal(parsed.cut, false, name);
      assert.equal(parsed.note, undefined, name);
    }
  });

  test('a wrong gzip CRC or deflate Adler-32: every decoded byte and link kept, the note counting them all', async () => {
    for (const [name, page] of Object.entries(pages)) {
      for (const [damage, coding] of [['bad-crc', 'gzip'], ['bad-adler', 'deflate']]) {
        const { ex, parsed, links } = await readForLinks(`/${name}/${damage}`);
        const label = `${name} ${damage}`;
        if (page === spooled) assert.equal(ex.body.kind, 'file', `${label}: spooled`);
        assert.deepEqual(parsed.body, page, label);
        assert.equal(links.length, page === small ? 1 : 50, label);
        assert.equal(parsed.note, `Content-Encoding "${coding}": corrupt data after ${page.length} decoded bytes; links read from those`, label);
      }
    }
  });
});
