/**
 * The extract stage hands the exchange's truncation on: a body cut at the size cap, the total
 * timeout or a reset reaches the parsers with `truncated`, so a cut last value is not taken for a URL;
 * so is a body whose content coding broke off at corrupt data, or stops before its end.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { constants, gunzipSync, gzipSync } from 'node:zlib';
import { gzipDamagedAfterFirstBlock } from '../../support/damaged-gzip';
import { extractStage } from '../../../worker/crawler/stages/extract-stage';
import type { CrawlContext } from '../../../worker/crawler/crawl-context';
import type { CrawlItem } from '../../../worker/crawler/stage';
import type { HttpExchange } from '../../../worker/capture';

const ctx = {
  icd: { limits: { maxDecodedBytes: 1 << 20 }, scope: { queryHandling: 'keep', maxOutLinksPerPage: 10_000 } },
  references: undefined,
  focus: null,
  // The favicon an HTML page brings (favicon.test.ts) is not what these tests look at.
  faviconOf: () => null,
} as unknown as CrawlContext;

async function linksOf(body: string | Buffer, truncated: HttpExchange['truncated'], headers: Record<string, string> = {}): Promise<string[]> {
  const exchange = { url: 'http://a.test/sitemap.txt', status: 200, headers: { 'content-type': 'text/plain', ...headers }, body: { kind: 'memory', bytes: Buffer.from(body) }, truncated } as unknown as HttpExchange;
  const item = { url: exchange.url, exchange } as unknown as CrawlItem;
  await extractStage.process(item, ctx);
  return (item.links ?? []).map((l) => l.url);
}

test("a text sitemap cut short: the cut last line is not followed, whatever cut it", async () => {
  const body = 'http://a.test/one\nhttp://a.test/two\nhttp://a.test/thr';
  for (const truncated of ['length', 'time', 'disconnect'] as const) assert.deepEqual(await linksOf(body, truncated), ['http://a.test/one', 'http://a.test/two'], truncated);
  assert.deepEqual(await linksOf(body, null), ['http://a.test/one', 'http://a.test/two', 'http://a.test/thr']);
});

/** A text sitemap of 2,000 lines, long enough to gzip into more than one block. */
const lines = Array.from({ length: 2000 }, (_, i) => `http://a.test/page-${i}-${'x'.repeat(i % 37)}`);
const text = Buffer.from(lines.join('\n') + '\n');

test('a gzipped text sitemap whose data breaks off at corrupt bytes: its cut last line is not followed', async () => {
  const links = await linksOf(gzipDamagedAfterFirstBlock(text).bytes, null, { 'content-encoding': 'gzip' });
  // What decodes is (most of) the first block: its whole lines are followed, the line it cuts is not.
  assert.ok(links.length > 100 && links.length < lines.length, `${links.length} lines before the damage`);
  assert.deepEqual(links, lines.slice(0, links.length));
  // The same file undamaged gives every line.
  assert.deepEqual(await linksOf(gzipSync(text), null, { 'content-encoding': 'gzip' }), lines);
});

test('a gzipped text sitemap whose gzip stream stops early (a truncated .gz, its length right): its cut last line is not followed', async () => {
  const gz = gzipSync(text);
  const cut = gz.subarray(0, Math.floor(gz.length * 0.6));
  // The stream's bytes end inside a line (the test means nothing otherwise).
  const held = gunzipSync(cut, { finishFlush: constants.Z_SYNC_FLUSH }).toString();
  assert.ok(held.length > 0 && !held.endsWith('\n') && !lines.includes(held.slice(held.lastIndexOf('\n') + 1)), 'cut inside a line');
  const links = await linksOf(cut, null, { 'content-encoding': 'gzip' });
  assert.deepEqual(links, held.split('\n').slice(0, -1));
  assert.deepEqual(links, lines.slice(0, links.length));
});

test('a plain page longer than maxDecodedBytes (maxBodyBytes set higher) is no decompression bomb: links from its first part, a note', async () => {
  const maxDecodedBytes = 1 << 20;
  const page = Buffer.from(`<a href="/early">early</a>${' '.repeat(maxDecodedBytes)}<a href="/late">late</a>`);
  const exchange = { url: 'http://a.test/big', status: 200, headers: { 'content-type': 'text/html' }, body: { kind: 'memory', bytes: page }, truncated: null } as unknown as HttpExchange;
  const item = { url: exchange.url, exchange } as unknown as CrawlItem;
  await extractStage.process(item, ctx);
  assert.equal(item.failure, undefined);
  assert.deepEqual((item.links ?? []).map((l) => l.url), ['http://a.test/early']);
  assert.equal(item.note, `the body is ${page.length} bytes, more than limits.maxDecodedBytes (${maxDecodedBytes}): links read from its first ${maxDecodedBytes} bytes`);
});
