/**
 * The WARC stage when one of a page's records cannot be made: the page's capture decides the page;
 * a Web object's record lost alone leaves the capture to be acknowledged (a failed page would leave
 * a written, never acknowledged response in the file, and the next start cuts from there). The
 * objects go to the writer with the capture, about it; an earlier page's (an adapted rule adopted
 * on this one) name none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { warcStage } from '../../../worker/crawler/stages/warc-stage';
import type { CrawlContext } from '../../../worker/crawler/crawl-context';
import type { CrawlItem } from '../../../worker/crawler/stage';
import type { CaptureObject } from '../../../worker/warc';

const location = { filename: 'f.warc.gz', offset: 0, length: 10, recordId: '<urn:uuid:1>', date: '2026-11-28T00:00:00Z', type: 'response' as const };
const objectRecord = { ...location, offset: 10, recordId: '<urn:uuid:2>', type: 'metadata' as const };

function run(capture: Promise<unknown>, object: Promise<unknown>) {
  const item = { url: 'http://a.test/', exchange: {}, objects: [{ type: 'post' }, { type: 'post', url: 'http://a.test/earlier' }] } as unknown as CrawlItem;
  const submitted: CaptureObject[][] = [];
  const writeCapture = async (_ex: unknown, opts: { objects: CaptureObject[] }) => {
    submitted.push(opts.objects);
    return { ...(await capture as object), objects: await Promise.allSettled(opts.objects.map(() => object)) };
  };
  const ctx = { sequencer: { ticket: () => 1 }, writer: { writeCapture } } as unknown as CrawlContext;
  return { item, submitted, done: Promise.resolve(warcStage.process(item, ctx)) };
}

test("the page's Web objects go with its capture: its own about it, an earlier page's about none", async () => {
  const { item, submitted, done } = run(Promise.resolve(location), Promise.resolve(objectRecord));
  await done;
  assert.deepEqual(submitted, [[
    { targetUri: 'http://a.test/', json: { webObject: { type: 'post' } } },
    { targetUri: 'http://a.test/earlier', json: { webObject: { type: 'post' } }, about: null },
  ]]);
  assert.equal(item.location?.recordId, location.recordId);
});

test("a Web object's record that cannot be made leaves the page's capture in place", async (t) => {
  t.mock.method(console, 'error', () => undefined);
  const { item, done } = run(Promise.resolve(location), Promise.reject(new Error('gzip thread stopped (exit code 1)')));
  await done;
  assert.equal(item.location?.filename, 'f.warc.gz');
});

test('a full disk while writing a Web object still stops the page (the crawl pauses)', async () => {
  const full = Object.assign(new Error('ENOSPC: no space left on device'), { code: 'ENOSPC' });
  const { done } = run(Promise.resolve(location), Promise.reject(full));
  await assert.rejects(done, /ENOSPC/);
});

test("the page's capture that cannot be made fails the page", async () => {
  const { done } = run(Promise.reject(new Error('its WARC records could not be made: gzip thread stopped')), Promise.resolve(objectRecord));
  await assert.rejects(done, /could not be made/);
});
