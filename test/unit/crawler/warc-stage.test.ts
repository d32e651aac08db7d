/**
 * The WARC stage when one of a page's records cannot be made: the page's capture decides the page;
 * a Web object's record lost alone leaves the capture to be acknowledged (a failed page would leave
 * a written, never acknowledged response in the file, and the next start cuts from there).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { warcStage } from '../../../worker/crawler/stages/warc-stage';
import type { CrawlContext } from '../../../worker/crawler/crawl-context';
import type { CrawlItem } from '../../../worker/crawler/stage';

const location = { filename: 'f.warc.gz', offset: 0, length: 10, recordId: '<urn:uuid:1>', date: '2026-11-28T00:00:00Z', type: 'response' as const };

function run(capture: () => Promise<unknown>, object: () => Promise<unknown>) {
  const item = { url: 'http://a.test/', exchange: {}, objects: [{ kind: 'post' }] } as unknown as CrawlItem;
  const ctx = { sequencer: { ticket: () => 1 }, writer: { writeCapture: capture, writeMetadata: object } } as unknown as CrawlContext;
  return { item, done: Promise.resolve(warcStage.process(item, ctx)) };
}

test("a Web object's record that cannot be made leaves the page's capture in place", async (t) => {
  t.mock.method(console, 'error', () => undefined);
  const { item, done } = run(async () => location, async () => Promise.reject(new Error('gzip thread stopped (exit code 1)')));
  await done;
  assert.equal(item.location?.filename, 'f.warc.gz');
});

test('a full disk while writing a Web object still stops the page (the crawl pauses)', async () => {
  const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  const { done } = run(async () => location, async () => Promise.reject(full));
  await assert.rejects(done, /ENOSPC/);
});

test("the page's capture that cannot be made fails the page", async () => {
  const { done } = run(async () => Promise.reject(new Error('its WARC records could not be made: gzip thread stopped')), async () => location);
  await assert.rejects(done, /could not be made/);
});
