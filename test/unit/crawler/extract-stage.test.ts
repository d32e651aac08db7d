/**
 * The extract stage hands the exchange's truncation on: a body cut at the size cap, the total
 * timeout or a reset reaches the parsers with `truncated`, so a cut last value is not taken for a URL;
 * so is a body whose content coding broke off at corrupt data.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { gzipDamagedAfterFirstBlock } from '../../support/damaged-gzip';
import { extractStage } from '../../../worker/crawler/stages/extract-stage';
import type { CrawlContext } from '../../../worker/crawler/crawl-context';
import type { CrawlItem } from '../../../worker/crawler/stage';
import type { HttpExchange } from '../../../worker/capture';

const ctx = {
  icd: { limits: { maxDecodedBytes: 1 << 20 }, scope: { queryHandling: 'keep', maxOutLinksPerPage: 10_000 } },
  references: undefined,
  focus: null,
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

test('a gzipped text sitemap whose data breaks off at corrupt bytes: its cut last line is not followed', async () => {
  const lines = Array.from({ length: 2000 }, (_, i) => `http://a.test/page-${i}-${'x'.repeat(i % 37)}`);
  const text = Buffer.from(lines.join('\n') + '\n');
  const links = await linksOf(gzipDamagedAfterFirstBlock(text).bytes, null, { 'content-encoding': 'gzip' });
  // What decodes is (most of) the first block: its whole lines are followed, the line it cuts is not.
  assert.ok(links.length > 100 && links.length < lines.length, `${links.length} lines before the damage`);
  assert.deepEqual(links, lines.slice(0, links.length));
  // The same file undamaged gives every line.
  assert.deepEqual(await linksOf(gzipSync(text), null, { 'content-encoding': 'gzip' }), lines);
});
