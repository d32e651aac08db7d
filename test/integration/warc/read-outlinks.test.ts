/**
 * The out-links of a capture read back from the metadata record the writer puts right behind it
 * (worker/warc/read-outlinks.ts, which the export uses to find a page's requisites): as written, for
 * captures read in file order or not, for an out-links record larger than the reader's window, and
 * none for a capture written without one. Real parts: the WARC writer, files on disk.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WarcWriter, type CaptureLocation } from '../../../worker/warc';
import { captureOutlinksReader } from '../../../worker/warc/read-outlinks';
import { htmlPage, makeExchange } from '../../unit/warc/make-exchange';
import { withTempDir } from '../../support/temp-dir';

test('a capture\'s out-links are read back as written, a large record too; a capture without them has none', { timeout: 60_000 }, async () => {
  await withTempDir('tm-read-outlinks-', async (dir) => {
    const writer = new WarcWriter({ crawlId: 'outlinks', software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', operator: 'QA', isPartOf: 'tests', dir: join(dir, 'warcs'), threads: 1 });
    await writer.open();
    const small = [{ url: 'http://a.test/x', hop: 'L', tag: 'a/@href' }, { url: 'http://a.test/i.png', hop: 'E', tag: 'img/@src' }];
    // Random names, so that the record stays larger than the reader's 1 MiB window once compressed.
    const large = Array.from({ length: 50_000 }, () => ({ url: `http://a.test/${randomBytes(32).toString('hex')}`, hop: 'L', tag: 'a/@href' }));
    const written: Record<string, CaptureLocation> = {};
    written.page = await writer.writeCapture(makeExchange({ url: 'http://a.test/', body: htmlPage(1, 3000) }), { metadata: { outlinks: small } });
    written.image = await writer.writeCapture(makeExchange({ url: 'http://a.test/i.png', body: Buffer.from('png'), contentType: 'image/png' }));
    written.sitemap = await writer.writeCapture(makeExchange({ url: 'http://a.test/sitemap', body: htmlPage(2, 3000) }), { metadata: { outlinks: large } });
    written.after = await writer.writeCapture(makeExchange({ url: 'http://a.test/after', body: htmlPage(3, 3000) }), { metadata: { outlinks: small.slice(1) } });
    const page = written.page;
    written.notModified = await writer.writeRevisit(
      makeExchange({ url: 'http://a.test/', status: 304, reason: 'Not Modified', body: Buffer.alloc(0) }),
      { uri: 'http://a.test/', date: page.date, recordId: page.recordId, payloadDigest: makeExchange({ url: 'http://a.test/', body: htmlPage(1, 3000) }).payloadDigest },
      'server-not-modified',
    );
    await writer.close();
    assert.equal(written.after.filename, written.sitemap.filename);
    assert.ok(written.after.offset - (written.sitemap.offset + written.sitemap.length) > 1024 * 1024, 'the large out-links record is longer than the reader\'s window');

    const expected: Record<string, unknown[]> = { page: small, image: [], sitemap: large, after: small.slice(1), notModified: [] };
    for (const order of [Object.keys(expected), ['after', 'sitemap', 'notModified', 'page', 'image']]) {
      const reader = captureOutlinksReader(join(dir, 'warcs'));
      try {
        for (const name of order) {
          const c = written[name]!;
          assert.deepEqual(await reader.read(c.filename, c.offset, c.length, c.recordId), expected[name], `${name}, read in the order ${order.join(' ')}`);
        }
      } finally {
        await reader.close();
      }
    }
  });
});

/** Bytes this process has read from files so far (Linux's /proc/self/io). */
const bytesReadSoFar = () => Number(/^rchar: (\d+)$/m.exec(readFileSync('/proc/self/io', 'utf8'))![1]);

test('pages read in file order, each with a requisite written far before them, are read once, not once per requisite', { timeout: 60_000 }, async () => {
  await withTempDir('tm-read-outlinks-', async (dir) => {
    const writer = new WarcWriter({ crawlId: 'requisites', software: 'Tidemark/test', robotsPolicy: 'obey', userAgent: 'tidemark-test', dir: join(dir, 'warcs'), threads: 1 });
    await writer.open();
    // A host's stylesheet, fetched with its first page, then 100 pages of 40 KB that do not compress: 4 MB, 4 of the reader's windows.
    const sheet = await writer.writeCapture(makeExchange({ url: 'http://a.test/site.css', body: Buffer.from('body{margin:0}'), contentType: 'text/css' }));
    const pages: CaptureLocation[] = [];
    for (let i = 0; i < 100; i++) {
      const body = Buffer.concat([htmlPage(i, 1000), randomBytes(40_000)]);
      pages.push(await writer.writeCapture(makeExchange({ url: `http://a.test/p${i}`, body }), { metadata: { outlinks: [{ url: 'http://a.test/site.css', hop: 'E', tag: 'link/@href' }] } }));
    }
    await writer.close();
    const reader = captureOutlinksReader(join(dir, 'warcs'));
    try {
      const before = bytesReadSoFar();
      // As a collection's walk reads them: a page, then the requisite it brings.
      for (const p of pages) {
        assert.equal((await reader.read(p.filename, p.offset, p.length, p.recordId))[0]?.url, 'http://a.test/site.css');
        assert.deepEqual(await reader.read(sheet.filename, sheet.offset, sheet.length, sheet.recordId), []);
      }
      const read = bytesReadSoFar() - before;
      // The file once, and a window for the stylesheet: a single window read a megabyte again for each page and each requisite (200 MB).
      assert.ok(read < 8 * 1024 * 1024, `${read} bytes read for a file of ${pages.at(-1)!.offset + pages.at(-1)!.length}`);
    } finally {
      await reader.close();
    }
  });
});
