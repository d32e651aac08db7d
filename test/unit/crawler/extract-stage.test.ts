/**
 * The extract stage hands the exchange's truncation on: a body cut at the size cap, the total
 * timeout or a reset reaches the parsers with `truncated`, so a cut last value is not taken for a URL.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractStage } from '../../../worker/crawler/stages/extract-stage';
import type { CrawlContext } from '../../../worker/crawler/crawl-context';
import type { CrawlItem } from '../../../worker/crawler/stage';
import type { HttpExchange } from '../../../worker/capture';

const ctx = {
  icd: { limits: { maxDecodedBytes: 1 << 20 }, scope: { queryHandling: 'keep', maxOutLinksPerPage: 100 } },
  references: undefined,
  focus: null,
} as unknown as CrawlContext;

async function linksOf(body: string, truncated: HttpExchange['truncated']): Promise<string[]> {
  const exchange = { url: 'http://a.test/sitemap.txt', status: 200, headers: { 'content-type': 'text/plain' }, body: { kind: 'memory', bytes: Buffer.from(body) }, truncated } as unknown as HttpExchange;
  const item = { url: exchange.url, exchange } as unknown as CrawlItem;
  await extractStage.process(item, ctx);
  return (item.links ?? []).map((l) => l.url);
}

test("a text sitemap cut short: the cut last line is not followed, whatever cut it", async () => {
  const body = 'http://a.test/one\nhttp://a.test/two\nhttp://a.test/thr';
  for (const truncated of ['length', 'time', 'disconnect'] as const) assert.deepEqual(await linksOf(body, truncated), ['http://a.test/one', 'http://a.test/two'], truncated);
  assert.deepEqual(await linksOf(body, null), ['http://a.test/one', 'http://a.test/two', 'http://a.test/thr']);
});
